import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { CurrentUser } from '@/generated/schemas';
import { T, body, withApp } from '@/stories/withApp';
import { agentDirectChargeMode, consoleApi, subAccount } from '@/stories/mockApi';
import { SmsBillList } from './SmsBillList';
import { RebateBillList } from './RebateBillList';
import { PurchaseRecordList } from './PurchaseRecordList';
import { purchaseHandlers } from './purchase.mock';

/** The bill screens of the purchase area: filled, empty, loading, export refused. (剩余条数 is /remain: src/custom-pages/reports.) */
const handlers = (o: Parameters<typeof purchaseHandlers>[0] = {}, user?: CurrentUser) => [
  ...purchaseHandlers(o),
  ...consoleApi(user ? { user } : {}),
];

function Screens({ screen }: { screen: 'bill' | 'rebate' | 'record' }) {
  if (screen === 'bill') return <SmsBillList />;
  if (screen === 'rebate') return <RebateBillList />;
  return <PurchaseRecordList />;
}

const meta = {
  title: 'Purchase/Bills',
  component: Screens,
  decorators: [withApp],
  args: { screen: 'bill' },
  parameters: { app: { path: '/finance/bill' }, msw: { handlers: handlers() } },
} satisfies Meta<typeof Screens>;
export default meta;
type Story = StoryObj<typeof meta>;

export const SmsBill: Story = {
  name: '短信账单',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('+10000条', {}, T)).toBeInTheDocument();
    await expect(c.getByText('+100元')).toBeInTheDocument();
  },
};

export const SmsBillEmpty: Story = {
  name: '短信账单：无数据',
  parameters: { msw: { handlers: handlers({ bills: [] }) } },
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};

export const SmsBillLoading: Story = {
  name: '短信账单：加载中',
  parameters: { msw: { handlers: handlers({ loading: true }) } },
  play: async ({ canvasElement }) =>
    waitFor(() => expect(canvasElement.querySelector('.ant-spin-spinning')).not.toBeNull(), T),
};

export const SmsBillExportNoData: Story = {
  name: '短信账单：导出无数据',
  parameters: { msw: { handlers: handlers({ bills: [] }) } },
  play: async ({ canvas: c }) => {
    await c.findByText('暂无数据', {}, T);
    await userEvent.click(c.getByRole('button', { name: /导\s*出/ }));
    await expect(await body().findByText('当前条件没有数据，无法导出', {}, T)).toBeInTheDocument();
  },
};

export const Rebate: Story = {
  name: '返点账单',
  args: { screen: 'rebate' },
  parameters: { app: { path: '/finance/rebate' } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('2026年第三季度返点', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(c.getByTestId('rebate-figures')).toHaveTextContent('50.00'), T);
  },
};

export const RebateEmpty: Story = {
  name: '返点账单：无数据',
  args: { screen: 'rebate' },
  parameters: { app: { path: '/finance/rebate' }, msw: { handlers: handlers({ rebates: [], rebate: '0.00' }) } },
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};

export const RecordPackage: Story = {
  name: '消费记录：套餐模式（代理商含单价）',
  args: { screen: 'record' },
  parameters: { app: { path: '/finance/record' } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('10000条', {}, T)).toBeInTheDocument();
    await expect(c.getByRole('columnheader', { name: '单价（元）' })).toBeInTheDocument();
  },
};

export const RecordPackageSubAccount: Story = {
  name: '消费记录：子账户（无单价列）',
  args: { screen: 'record' },
  parameters: {
    app: { path: '/finance/record' },
    msw: { handlers: handlers({}, { ...subAccount, operation_mode: '1' }) },
  },
  play: async ({ canvas: c }) => {
    await c.findByText('10000条', {}, T);
    await expect(c.queryByRole('columnheader', { name: '单价（元）' })).not.toBeInTheDocument();
  },
};

export const RecordDirect: Story = {
  name: '消费记录：直充模式',
  args: { screen: 'record' },
  parameters: { app: { path: '/finance/record' }, msw: { handlers: handlers({}, agentDirectChargeMode) } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('子账户充值', {}, T)).toBeInTheDocument();
    await expect(c.getByText('月度充值')).toBeInTheDocument();
  },
};

export const RecordEmpty: Story = {
  name: '消费记录：无数据',
  args: { screen: 'record' },
  parameters: { app: { path: '/finance/record' }, msw: { handlers: handlers({ records: [] }) } },
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};
