import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import type { CurrentUser } from '@/generated/schemas';
import type { HttpHandler } from 'msw';
import { T, withApp } from '@/stories/withApp';
import { pathOf } from '@/stories/pageRows';
import { agentDirectChargeMode, consoleApi, msw, subAccount } from '@/stories/mockApi';
import { listStates, NO_EXPORT_DATA, refusedExport } from '@/stories/listStates';
import { SmsBillList } from './SmsBillList';
import { RebateBillList } from './RebateBillList';
import { PurchaseRecordList } from './PurchaseRecordList';
import { purchaseHandlers } from './purchase.mock';
import { purchaseRecords, smsBills } from './data';

/** The bill screens of the purchase area: filled, empty, loading, export refused. (剩余条数 is /remain: src/custom-pages/reports.) */
const handlers = (o: Parameters<typeof purchaseHandlers>[0] = {}, user?: CurrentUser) => [
  ...purchaseHandlers(o),
  ...consoleApi(user ? { user } : {}),
];

function Screens({ screen }: { screen: Screen }) {
  if (screen === 'bill') return <SmsBillList />;
  if (screen === 'rebate') return <RebateBillList />;
  return <PurchaseRecordList />;
}

type Screen = 'bill' | 'rebate' | 'record';
/** a story of the screen finance_`screen` (its path from the screen table), answered by `calls` when given */
const on = (screen: Screen, calls?: HttpHandler[]) => ({
  args: { screen },
  parameters: { app: { path: pathOf(`finance_${screen}`) }, ...(calls && msw(...calls)) },
});

const meta = {
  title: 'Purchase/Bills',
  component: Screens,
  decorators: [withApp],
  ...on('bill', handlers()),
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

const bills = listStates(smsBills, handlers());
export const SmsBillEmpty: Story = { ...bills.empty, name: '短信账单：无数据' };
export const SmsBillLoading: Story = { ...bills.loading, name: '短信账单：加载中' };

export const SmsBillExportNoData: Story = {
  name: '短信账单：导出无数据',
  parameters: msw(...handlers({ bills: [] })),
  play: refusedExport(NO_EXPORT_DATA, { after: '暂无数据' }),
};

export const Rebate: Story = {
  name: '返点账单',
  ...on('rebate'),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('2026年第三季度返点', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(c.getByTestId('rebate-figures')).toHaveTextContent('50.00'), T);
  },
};

export const RebateEmpty: Story = {
  name: '返点账单：无数据',
  ...on('rebate', handlers({ rebates: [], rebate: '0.00' })),
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};

export const RecordPackage: Story = {
  name: '消费记录：套餐模式（代理商含单价）',
  ...on('record'),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('10000条', {}, T)).toBeInTheDocument();
    await expect(c.getByRole('columnheader', { name: '单价（元）' })).toBeInTheDocument();
  },
};

export const RecordPackageSubAccount: Story = {
  name: '消费记录：子账户（无单价列）',
  ...on('record', handlers({}, { ...subAccount, operation_mode: '1' })),
  play: async ({ canvas: c }) => {
    await c.findByText('10000条', {}, T);
    await expect(c.queryByRole('columnheader', { name: '单价（元）' })).not.toBeInTheDocument();
  },
};

export const RecordDirect: Story = {
  name: '消费记录：直充模式',
  ...on('record', handlers({}, agentDirectChargeMode)),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('子账户充值', {}, T)).toBeInTheDocument();
    await expect(c.getByText('月度充值')).toBeInTheDocument();
  },
};

const records = listStates(purchaseRecords, handlers());
export const RecordEmpty: Story = {
  ...records.empty,
  name: '消费记录：无数据',
  ...on('record', records.empty.parameters.msw.handlers),
};
