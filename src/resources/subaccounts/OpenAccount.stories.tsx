import type { Meta, StoryObj } from '@storybook/react-vite';
import { http } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ok, msw } from '@/stories/mockApi';
import { body, withApp } from '@/stories/withApp';
import { pathOf } from '@/stories/pageRows';
import OpenAccount from './OpenAccount';
import { subAccountHandlers } from './storyMocks';

const T = { timeout: 10000 };

const meta = {
  title: 'SubAccounts/OpenAccount',
  component: OpenAccount,
  decorators: [withApp],
  parameters: { msw: { handlers: subAccountHandlers() }, app: { path: pathOf('service_open') } },
} satisfies Meta<typeof OpenAccount>;
export default meta;
type Story = StoryObj<typeof meta>;

const submit = (c: ReturnType<typeof within>) => userEvent.click(c.getByRole('button', { name: /确认开户/ }));

export const Validation: Story = {
  name: '校验信息',
  play: async ({ canvas: c }) => {
    await c.findByLabelText('账户名称', {}, T);
    await submit(c);
    await expect(await c.findByText('账户名称不能为空', {}, T)).toBeInTheDocument();
    await userEvent.type(c.getByLabelText('邮箱'), 'not-an-email');
    await userEvent.type(c.getByLabelText('手机号'), '123');
    await userEvent.type(c.getByLabelText('备注'), 'x'.repeat(51));
    await submit(c);
    await expect(await c.findByText('邮箱格式不正确', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('手机号码格式不正确', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('备注最大长度不超过50个字符', {}, T)).toBeInTheDocument();
  },
};

export const NameCheckedOnBlur: Story = {
  name: '账户名称离开输入框时校验',
  play: async ({ canvas: c }) => {
    const name = await c.findByLabelText('账户名称', {}, T);
    // spec 01 §5: validated on blur, before any submit
    await userEvent.type(name, '   ');
    await userEvent.tab();
    await expect(await c.findByText('账户名称不能为空', {}, T)).toBeInTheDocument();
    await userEvent.type(name, '杭州测试公司');
    await waitFor(() => expect(c.queryByText('账户名称不能为空')).toBeNull(), T);
    await userEvent.tab();
    await expect(c.queryByText('账户名称不能为空')).toBeNull();
    // emptied again, then submitted: the message once (the submit's own check)
    await userEvent.clear(name);
    await userEvent.tab();
    await expect(await c.findByText('账户名称不能为空', {}, T)).toBeInTheDocument();
    await submit(c);
    await waitFor(() => expect(c.getAllByText('账户名称不能为空')).toHaveLength(1), T);
  },
};

export const PushUrls: Story = {
  name: '推送时需填写回调地址',
  play: async ({ canvas: c }) => {
    await userEvent.type(await c.findByLabelText('账户名称', {}, T), '杭州测试公司');
    await expect(c.queryByLabelText('状态报告回调地址')).toBeNull();
    await userEvent.click(c.getByLabelText('状态报告'));
    await userEvent.click(await within(document.body).findByTitle('简单状态报告（推送）', {}, T));
    await userEvent.click(c.getByLabelText('上行'));
    await userEvent.click(await within(document.body).findByTitle('需要（推送）', {}, T));
    await submit(c);
    await expect(await c.findByText('状态报告回调地址不能为空', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('上行回调地址不能为空', {}, T)).toBeInTheDocument();
  },
};

export const Qualification: Story = {
  name: '客户账户需上传资质',
  play: async ({ canvas: c }) => {
    await userEvent.type(await c.findByLabelText('账户名称', {}, T), '杭州测试公司');
    await userEvent.click(await c.findByLabelText('客户', {}, T));
    await expect(await c.findByLabelText('证件类型', {}, T)).toBeInTheDocument();
    await expect(c.getByText(/最多五张/)).toBeInTheDocument();
    await submit(c);
    await expect(await c.findByText('请选择证件类型', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('证件号码不能为空', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('请上传图片', {}, T)).toBeInTheDocument();
  },
};

export const MobileExists: Story = {
  name: '手机号码已存在',
  play: async ({ canvas: c }) => {
    await userEvent.type(await c.findByLabelText('手机号', {}, T), '13900139001');
    await userEvent.tab();
    await expect(await c.findByText('手机号码已存在', {}, T)).toBeInTheDocument();
  },
};

export const Opened: Story = {
  name: '开户成功（密码只显示一次）',
  play: async ({ canvas: c }) => {
    await userEvent.type(await c.findByLabelText('账户名称', {}, T), '杭州测试公司');
    await userEvent.type(c.getByLabelText('手机号'), '13911112222');
    await submit(c);
    await expect(await c.findByText('开户成功', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('new-password')).toHaveTextContent('Xk7pR2mW9a');
    await expect(c.getByText('q8m3vd')).toBeInTheDocument();
  },
};

export const NotCertified: Story = {
  name: '未认证：请先认证再开户',
  parameters: { msw: { handlers: subAccountHandlers({ certified: false }) } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('not-certified', {}, T)).toHaveTextContent('请先认证再开户');
    await expect(c.getByRole('button', { name: /确认开户/ })).toBeDisabled();
  },
};

const sent: { upload?: string; body?: Record<string, string> } = {};
/** a tiny real PNG */
const pngFile = (name: string) =>
  new File(
    [
      Uint8Array.from(
        atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC'),
        (ch) => ch.charCodeAt(0),
      ),
    ],
    name,
    {
      type: 'image/png',
    },
  );

export const CustomerOpened: Story = {
  name: '客户账户：上传资质并开户（只提交所显示的字段）',
  parameters: msw(
    http.post('/api/file/upload', ({ request }) => {
      sent.upload = new URL(request.url).search;
      return ok({ path: 'a10001/open0001.png', url: '/api/files/a10001/open0001.png' }, '上传成功');
    }),
    http.post('/api/client/account/addUser', async ({ request }) => {
      sent.body = Object.fromEntries(new URLSearchParams(await request.text()));
      return ok({ clientid: 'q8m3vd', password: 'Xk7pR2mW9a', mobile: '', email: '' }, '开户成功');
    }),
    ...subAccountHandlers(),
  ),
  play: async ({ canvas: c, canvasElement }) => {
    await userEvent.type(await c.findByLabelText('账户名称', {}, T), '杭州测试公司');
    await userEvent.click(await c.findByLabelText('客户', {}, T));
    await userEvent.click(await c.findByLabelText('证件类型', {}, T));
    await userEvent.click(await body().findByTitle('营业执照', {}, T));
    await userEvent.type(c.getByLabelText('证件号码'), '91330100MA2B3C4D5E');
    await userEvent.upload(canvasElement.querySelector('input[type=file]') as HTMLInputElement, pngFile('licence.png'));
    await waitFor(() => expect(canvasElement.querySelectorAll('.ant-upload-list-item-done').length).toBe(1), T);
    await submit(c);
    await expect(await c.findByText('开户成功', {}, T)).toBeInTheDocument();
    await expect(sent.upload).toBe('?scene=open-account');
    await expect(sent.body).toEqual({
      name: '杭州测试公司',
      agentOwned: '0',
      needreport: '0',
      needmo: '0',
      idType: '5',
      idNbr: '91330100MA2B3C4D5E',
      imgUrl: 'a10001/open0001.png',
    });
  },
};
