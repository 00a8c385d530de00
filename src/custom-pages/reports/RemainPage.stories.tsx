import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { clearCalls, withApp } from '@/stories/withApp';
import { consoleApi, subAccount, msw } from '@/stories/mockApi';
import { remainRows, reportsApi } from '@/stories/reportsApi';
import type { Calls } from '@/stories/sendApi';
import { RemainPage } from './RemainPage';

const T = { timeout: 15_000 };
const calls: Calls = {};

const meta = {
  title: 'Reports/RemainPage',
  component: RemainPage,
  decorators: [withApp],
  parameters: { app: { path: '/remain' }, ...msw(...consoleApi(), ...reportsApi({ calls })) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof RemainPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AgentWithExpiring: Story = {
  name: '代理商：即将过期标记与合计行',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('即将过期', {}, T)).toBeInTheDocument();
    await expect(c.getAllByText('即将过期')).toHaveLength(1);
    await expect(c.getByText('苏州好易购电子商务有限公司')).toBeInTheDocument();
    // the sub-accounts' pools summed on their own row (the agent holds none here), with separators
    const summary = within(c.getByTestId('remain-summary-sub'));
    await expect(summary.getByText('合计（子账户）')).toBeInTheDocument();
    await expect(
      summary.getByText(`${remainRows.reduce((s, r) => s + r.account_balance, 0).toLocaleString('en-US')} 条`),
    ).toBeInTheDocument();
    await expect(c.queryByTestId('remain-summary-own')).not.toBeInTheDocument();
    await expect(c.getByText('3,000 条')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /返回首页/ })).toBeInTheDocument();
  },
};

export const ByType: Story = {
  name: '按产品类型（/remain?type=3）',
  parameters: { app: { path: '/remain?type=3' } },
  play: async ({ canvas: c, canvasElement }) => {
    await expect((await c.findAllByText('12,000 条', {}, T)).length).toBeGreaterThan(0);
    await expect(calls.remain?.[0]).toMatchObject({ product_type: '3' });
    await expect(canvasElement.querySelectorAll('.ant-table-tbody tr.ant-table-row')).toHaveLength(1);
    await expect(c.queryByText('即将过期')).not.toBeInTheDocument();
  },
};

export const SubAccountNoSummary: Story = {
  name: '子账户：无合计行、无账户列',
  parameters: msw(...consoleApi({ user: subAccount }), ...reportsApi({ calls, remain: remainRows.slice(0, 2) })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('即将过期', {}, T)).toBeInTheDocument();
    await expect(c.queryByTestId('remain-summary-own')).not.toBeInTheDocument();
    await expect(c.queryByTestId('remain-summary-sub')).not.toBeInTheDocument();
    await expect(c.queryByText('上海优品电商有限公司')).not.toBeInTheDocument();
  },
};

export const Empty: Story = {
  name: '无数据',
  parameters: msw(...consoleApi(), ...reportsApi({ calls, remain: [] })),
  play: async ({ canvasElement }) =>
    expect(await within(canvasElement).findByText('暂无数据', {}, T)).toBeInTheDocument(),
};

export const AgentOwnAndSubAccountsApart: Story = {
  name: '代理商：本账户与子账户分开合计（条与国际元分开，赠送单价）',
  parameters: msw(
    ...consoleApi(),
    ...reportsApi({
      calls,
      remain: [
        ...remainRows,
        {
          ...remainRows[0],
          rownum: 4,
          client_id: 'a10001',
          client_name: '深圳云讯科技有限公司',
          account_balance: 50000,
          dead: 1,
          sms_unitprice: '0.0428',
        },
        {
          ...remainRows[0],
          rownum: 5,
          client_id: 'b20001',
          product_type: 2,
          product_type_str: '国际',
          account_balance: 200,
          dead: 1,
        },
        {
          ...remainRows[0],
          rownum: 6,
          client_id: 'b20001',
          account_balance: 500,
          dead: 1,
          gift: 1,
          sms_unitprice: '0',
        },
      ],
    }),
  ),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('remain-summary-own', {}, T)).toHaveTextContent('50,000 条');
    await expect(c.getByTestId('remain-summary-sub')).toHaveTextContent('45,500 条 + 200.00 元');
    await expect(c.getByText('赠送')).toBeInTheDocument();
    await expect(c.getByText('200.00 元')).toBeInTheDocument();
  },
};
