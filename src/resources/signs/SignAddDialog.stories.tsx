import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { consoleApi, msw } from '@/stories/mockApi';
import { SignAddDialog } from './SignAddDialog';
import { addDuplicate, signApi } from './signs.mock';

const calls: Record<string, Record<string, string>[]> = {};

const meta = {
  title: 'Signs/SignAddDialog',
  component: SignAddDialog,
  decorators: [withApp],
  args: { open: true, agent: true, onClose: fn(), onAdded: fn() },
  parameters: msw(...consoleApi(), ...signApi({ calls })),
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof SignAddDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AgentValidation: Story = {
  name: '代理商：校验提示',
  play: async () => {
    const b = body();
    await b.findByText('新增签名', {}, T);
    await userEvent.click(b.getByRole('button', { name: /确\s*定/ }));
    await expect(await b.findByText('子账户内容不能为空,请选择子账户', {}, T)).toBeInTheDocument();
    await expect(b.getByText('签名长度为2-12之间')).toBeInTheDocument();
    await userEvent.type(b.getByPlaceholderText('请输入签名'), '  云 ');
    await userEvent.type(b.getByPlaceholderText('选填，最多50个字符'), '长'.repeat(51));
    await userEvent.click(b.getByRole('button', { name: /确\s*定/ }));
    await expect(await b.findByText('备注最大长度不超过50个字符', {}, T)).toBeInTheDocument();
    await expect(b.getByText('签名长度为2-12之间')).toBeInTheDocument();
    await expect(calls.add).toBeUndefined();
  },
};

export const AgentAdds: Story = {
  name: '代理商：选择子账户后提交',
  play: async ({ args }) => {
    const b = body();
    await b.findByText('新增签名', {}, T);
    await userEvent.click(b.getByRole('combobox'));
    await userEvent.click(await b.findByText('b20002-苏州好易购电子商务有限公司', {}, T));
    await userEvent.type(b.getByPlaceholderText('请输入签名'), ' 好易购优选 ');
    await userEvent.click(b.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.add?.[0]).toEqual({ clientid: 'b20002', sign: '好易购优选', remarks: '' }), T);
    await waitFor(() => expect(args.onAdded).toHaveBeenCalledWith('添加成功，请等待审核'), T);
    await expect(args.onClose).toHaveBeenCalled();
  },
};

export const SubAccountAdds: Story = {
  name: '子账户：无需选择子账户',
  args: { agent: false },
  play: async ({ args }) => {
    const b = body();
    await b.findByText('新增签名', {}, T);
    await expect(b.queryByRole('combobox')).toBeNull();
    await userEvent.type(b.getByPlaceholderText('请输入签名'), '优品生活');
    await userEvent.click(b.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.add?.[0]).toEqual({ sign: '优品生活', remarks: '' }), T);
    await waitFor(() => expect(args.onAdded).toHaveBeenCalled(), T);
  },
};

export const ServerRefusesDuplicate: Story = {
  name: '服务端：重复签名',
  args: { agent: false },
  parameters: msw(addDuplicate, ...consoleApi(), ...signApi()),
  play: async ({ args }) => {
    const b = body();
    await b.findByText('新增签名', {}, T);
    await userEvent.type(b.getByPlaceholderText('请输入签名'), '好易购');
    await userEvent.click(b.getByRole('button', { name: /确\s*定/ }));
    await expect(await b.findByTestId('sign-add-error', {}, T)).toHaveTextContent(
      '该账户已存在相同的签名，请勿重复添加',
    );
    await expect(args.onClose).not.toHaveBeenCalled();
  },
};
