import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { withApp } from '@/stories/withApp';
import { admin, opsApi, opsApp } from '@/stories/opsApi';
import { enumLabel } from '@/schema';
import { OperatorRole, OperatorStatus } from '@/generated/schemas';
import OperatorList from './OperatorList';
import { operatorsApi } from './operators.mock';

const T = { timeout: 5000 };
const shell = opsApi({ operator: admin });

const meta = {
  title: 'Ops/运营人员',
  component: OperatorList,
  decorators: [withApp],
  parameters: { app: opsApp('/ops/operators'), msw: { handlers: [...operatorsApi(), ...shell] } },
} satisfies Meta<typeof OperatorList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = {
  name: '列表',
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const row = (await c.findByText('chief.admin', {}, T)).closest('tr') as HTMLElement;
    await expect(row).toHaveTextContent(enumLabel('operator-role', OperatorRole.Admin)!);
    await expect(row).toHaveTextContent('已开启');
    await expect(c.getByText('reviewer1').closest('tr')).toHaveTextContent('未开启');
    await expect(c.getByText('former.staff').closest('tr')).toHaveTextContent(enumLabel('operator-status', OperatorStatus.Disabled)!);
    await expect(c.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['登录名', '角色', '状态', '动态验证码', '最近登录', '创建时间']);
    await expect(c.getByText(/npm run cli -- operator-add/)).toBeInTheDocument();
  },
};

export const Loading: Story = {
  name: '加载中',
  parameters: { msw: { handlers: [...operatorsApi({ list: 'loading' }), ...shell] } },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('.ant-spin-spinning')).not.toBeNull(), T);
  },
};

export const LoadError: Story = {
  name: '加载失败',
  parameters: { msw: { handlers: [...operatorsApi({ list: 'error' }), ...shell] } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByTestId('list-error', {}, T)).toHaveTextContent('服务器繁忙，请稍后再试');
  },
};

export const Empty: Story = {
  name: '无数据',
  parameters: { msw: { handlers: [...operatorsApi({ rows: [] }), ...shell] } },
  play: async ({ canvasElement }) => {
    await expect((await within(canvasElement).findAllByText('暂无数据', {}, T))[0]).toBeVisible();
  },
};
