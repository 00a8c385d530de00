import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { http } from 'msw';
import { withApp } from '@/stories/withApp';
import { agentDirectChargeMode, agentPackageMode, consoleApi, ok, subAccount, msw } from '@/stories/mockApi';
import { emptyWeek, indexData, noStats, reportsApi, subIndexData } from '@/stories/reportsApi';
import Home from './Home';

const T = { timeout: 15_000 };
/** echarts comes in its own chunk: on a loaded machine it may take a while */
const CHART = { timeout: 20_000 };

const meta = {
  title: 'Pages/Home',
  component: Home,
  decorators: [withApp],
  parameters: { layout: 'padded', ...msw(...consoleApi(), ...reportsApi()) },
} satisfies Meta<typeof Home>;
export default meta;
type Story = StoryObj<typeof meta>;

/** the chart has drawn (echarts puts a canvas in its element) */
const chartDrawn = (canvasElement: HTMLElement) =>
  waitFor(() => expect(canvasElement.querySelector('[data-testid="week-chart"] canvas')).not.toBeNull(), CHART);

export const Agent: Story = {
  name: '代理商（产品包模式）：今日数据、周图表、剩余条数',
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByText(`欢迎您，${agentPackageMode.name}`, {}, T)).toBeInTheDocument();
    await expect(c.getByText('a10001')).toBeInTheDocument();
    await expect(c.getByText('代理商')).toBeInTheDocument();
    await expect(c.getByText('产品包账户')).toBeInTheDocument();
    await expect(c.getByText('已认证')).toBeInTheDocument();
    // today's figures
    const today = within(await c.findByTestId('today-stats', {}, T));
    await expect(await today.findByText('1,286', {}, T)).toBeInTheDocument();
    for (const l of ['提交总数', '发送中', '发送成功', '发送失败', '未知', '拦截'])
      await expect(today.getByText(l)).toBeInTheDocument();
    // header: balance, remaining pieces per product type, the expiring part
    const header = within(c.getByTestId('header-balances'));
    await expect(await header.findByText('98,000', {}, T)).toBeInTheDocument();
    await expect(header.getByText('3,000 条即将过期')).toBeInTheDocument();
    await expect(header.getByText('行业剩余（条）').closest('a')).toHaveAttribute('href', '/remain?type=0');
    await chartDrawn(canvasElement);
    await expect(c.getByTestId('week-chart')).toHaveAttribute('data-today', '1286');
    await expect(c.queryByTestId('api-info')).not.toBeInTheDocument();
    // quick links of the screen table this agent (package mode) may open
    const links = within(c.getByTestId('quick-links'));
    for (const l of ['子账户管理', '自助开户', '客户财务', '公告', '资质认证', '消费报表', '剩余条数'])
      await expect(links.getByText(l)).toBeInTheDocument();
    await expect(links.queryByText('账户余额')).not.toBeInTheDocument();
    await expect(links.getByText('剩余条数').closest('a')).toHaveAttribute('href', '/remain?type=0');
  },
};

export const AgentDirect: Story = {
  name: '代理商（直充模式）：余额，无条数',
  parameters: msw(
    ...consoleApi({ user: agentDirectChargeMode }),
    ...reportsApi({ index: indexData({ clientid: 'a10002' }) }),
  ),
  play: async ({ canvas: c }) => {
    const header = within(await c.findByTestId('header-balances', {}, T));
    await expect(await header.findByText('账户余额（元）', {}, T)).toBeInTheDocument();
    await expect(header.queryByText('行业剩余（条）')).not.toBeInTheDocument();
    const links = within(c.getByTestId('quick-links'));
    await expect(links.queryByText('自助开户')).not.toBeInTheDocument();
  },
};

export const SubAccount: Story = {
  name: '子账户（未认证，预付费条数）：库存、赠送池、接口信息',
  parameters: msw(
    ...consoleApi({ user: { ...subAccount, oauth_status: 1 }, clientOauth: { oauth_status: '未认证' } }),
    ...reportsApi({ index: subIndexData(0) }),
  ),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText(`欢迎您，${subAccount.name}`, {}, T)).toBeInTheDocument();
    await expect(c.getByText('子账户')).toBeInTheDocument();
    await expect(c.getByText('直充账户')).toBeInTheDocument();
    await expect(c.getByText('未认证')).toBeInTheDocument();
    const header = within(c.getByTestId('header-balances'));
    // paytype 0: stock shown, balance not
    await expect(await header.findByText('验证码剩余（条）', {}, T)).toBeInTheDocument();
    await expect(header.queryByText('账户余额（元）')).not.toBeInTheDocument();
    await expect(await c.findByTestId('gift-pool', {}, T)).toHaveTextContent('赠送短信：行业 剩余 500 条');
    const api = within(await c.findByTestId('api-info', {}, T));
    await expect(await api.findByTestId('interface-password', {}, T)).toHaveTextContent('********');
    // the real doors: SMPP off on this server, the HTTP API's URL; the account cannot edit its own settings
    await expect(api.getByTestId('smpp-off')).toHaveTextContent('未开通');
    await expect(api.getByText('https://sms.example.com/openapi/v1')).toBeInTheDocument();
    await expect(api.getByText('HTTPS')).toBeInTheDocument();
    await expect(api.getByRole('button', { name: '重置接口密码' })).toBeInTheDocument();
    await expect(api.queryByRole('button', { name: '修改接口设置' })).toBeNull();
    const links = within(c.getByTestId('quick-links'));
    await expect(links.getByText('账户余额')).toBeInTheDocument();
    await expect(links.queryByText('子账户管理')).not.toBeInTheDocument();
  },
};

export const SubAccountInterfaceMalformed: Story = {
  name: '子账户：接口信息的应答缺少接入地址（代理错误页、旧服务端）时卡片留空，首页照常',
  parameters: msw(
    // first match wins: this answer replaces reportsApi's 接口信息
    http.post('/api/account/getAccountInfo', () => ok({ clientid: 'b20001' })),
    ...consoleApi({ user: subAccount }),
    ...reportsApi({ index: subIndexData(0) }),
  ),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText(`欢迎您，${subAccount.name}`, {}, T)).toBeInTheDocument();
    const card = await c.findByTestId('api-info', {}, T);
    await waitFor(() => expect(card.querySelector('.ant-skeleton')).toBeNull(), T);
    await expect(within(card).queryByTestId('interface-info')).toBeNull();
    await expect(c.getByTestId('quick-links')).toBeInTheDocument();
  },
};

export const SubAccountByAmount: Story = {
  name: '子账户（按金额预付费）：余额，无条数',
  parameters: msw(...consoleApi({ user: { ...subAccount, paytype: 3 } }), ...reportsApi({ index: subIndexData(3) })),
  play: async ({ canvasElement }) => {
    const header = within(await within(canvasElement).findByTestId('header-balances', {}, T));
    await waitFor(() => expect(header.getByTestId('balance')).toHaveTextContent('1,200.00'), T);
    await expect(header.queryByText('行业剩余（条）')).not.toBeInTheDocument();
  },
};

export const Empty: Story = {
  name: '无数据：今日为 0，图表为空',
  parameters: msw(
    ...consoleApi(),
    ...reportsApi({
      today: noStats,
      week: emptyWeek(),
      index: indexData({
        agent_pool_due_time_data: {
          hy_remain_num: 0,
          yzm_remain_num: 0,
          tz_remain_num: 0,
          yx_remain_num: 0,
          gj_remain_amount: 0,
        },
      }),
    }),
  ),
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByTestId('today-stats', {}, T);
    await chartDrawn(canvasElement);
    await expect(c.getByTestId('week-chart')).toHaveAttribute('data-total', '0');
    // no pieces about to expire in the balances (the agent overview's 即将过期的产品 card is another matter)
    await expect(
      within(await c.findByTestId('header-balances', {}, T)).queryByText(/即将过期/),
    ).not.toBeInTheDocument();
  },
};

export const DeliveryCard: Story = {
  name: '近7天投递分析：各运营商成功率与主要失败原因',
  play: async ({ canvas: c }) => {
    const card = within(await c.findByTestId('delivery-analytics', {}, T));
    await expect(await card.findByTestId('carrier-chart', {}, T)).toBeInTheDocument();
    const reasons = card.getByTestId('top-reasons');
    // codes explained, the code kept beside its meaning; three at most
    await expect(reasons).toHaveTextContent('无法送达（空号、停机或关机）（UNDELIV）');
    await expect(reasons.querySelectorAll('li')).toHaveLength(3);
    await expect(card.getByRole('link', { name: '查看投递分析' })).toHaveAttribute(
      'href',
      '/customer/deliverlayout/customer/report/pre',
    );
  },
};

export const DeliveryCardFailed: Story = {
  name: '近7天投递分析：加载失败',
  parameters: msw(...consoleApi(), ...reportsApi({ delivery: 'fail' })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('投递分析加载失败', {}, T)).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /重\s*试/ })).toBeInTheDocument();
  },
};
