import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { withApp } from '@/stories/withApp';
import SubAccountDetail from './SubAccountDetail';
import OwnBalance from './OwnBalance';
import { http } from 'msw';
import { ok, msw } from '@/stories/mockApi';
import { pathOf } from '@/stories/pageRows';
import { subAccountHandlers } from './storyMocks';

const T = { timeout: 10000 };
/** the story's app at `path`, rendered under the detail's route pattern (or `route`) */
const at = (path: string, route = pathOf('customer_manager')) => ({ app: { path, route } });

const meta = {
  title: 'SubAccounts/SubAccountDetail',
  component: SubAccountDetail,
  decorators: [withApp],
  parameters: { ...msw(...subAccountHandlers()), ...at('/customer/manager/c7k2mq/info') },
} satisfies Meta<typeof SubAccountDetail>;
export default meta;
type Story = StoryObj<typeof meta>;

export const BasicInfo: Story = {
  name: '基本信息',
  play: async ({ canvas: c }) => {
    const info = await c.findByTestId('basic-info', {}, T);
    await expect(within(info).getByText('苏州好易购电子商务有限公司')).toBeInTheDocument();
    await expect(within(info).getByText('https://client.example.com/report')).toBeInTheDocument();
    await expect(within(info).getByText('1,200.00 元')).toBeInTheDocument();
  },
};

export const EditHidesUnusedCallback: Story = {
  name: '修改：不需要状态报告时不显示其回调地址（x-ui ui:showIf）',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /修\s*改/ }, T));
    await expect(await c.findByLabelText('状态报告回调地址', {}, T)).toBeInTheDocument();
    // 上行 is 不需要 in this account: its address is not asked for
    await expect(c.queryByLabelText('上行回调地址')).toBeNull();
    // 状态报告 is the first select of the form (上行 the second)
    await userEvent.click((await c.findAllByRole('combobox', {}, T))[0]);
    const options = await within(document.body).findAllByTitle('不需要', {}, T);
    await userEvent.click(
      options.find((o) => o.classList.contains('ant-select-item-option')) ?? options[options.length - 1],
    );
    await waitFor(() => expect(c.getAllByRole('combobox')[0].closest('.ant-select')).toHaveTextContent('不需要'), T);
    await waitFor(() => expect(c.queryByLabelText('状态报告回调地址')).toBeNull(), T);
  },
};

export const EditCallbackRules: Story = {
  name: '修改：回调地址规则',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: /修\s*改/ }, T));
    const url = await c.findByLabelText('状态报告回调地址', {}, T);
    await userEvent.clear(url);
    await userEvent.click(c.getByRole('button', { name: /确\s*认/ }));
    await expect(await c.findByText('请填写状态报告回调地址', {}, T)).toBeInTheDocument();
    await userEvent.type(url, 'https://new.example.com/report');
    const mobile = c.getByLabelText('手机号');
    await userEvent.clear(mobile);
    await userEvent.type(mobile, '123');
    await userEvent.click(c.getByRole('button', { name: /确\s*认/ }));
    await expect(await c.findByText('手机号码错误', {}, T)).toBeInTheDocument();
    await userEvent.clear(mobile);
    await userEvent.type(mobile, '13900139009');
    await userEvent.click(c.getByRole('button', { name: /确\s*认/ }));
    await expect(await within(document.body).findByText('修改成功', {}, T)).toBeInTheDocument();
    await expect(await c.findByTestId('basic-info', {}, T)).toHaveTextContent('13900139009');
  },
};

export const Certified: Story = {
  name: '资质信息：已认证',
  parameters: at('/customer/manager/c7k2mq/auth'),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('已认证', {}, T)).toBeInTheDocument();
  },
};

export const Pending: Story = {
  name: '资质信息：待认证（客户账户）',
  parameters: at('/customer/manager/w9hx3p/auth'),
  play: async ({ canvas: c }) => {
    const q = await c.findByTestId('qualification', {}, T);
    await expect(within(q).getByText('资质审核中')).toBeInTheDocument();
    await expect(within(q).getByText('91330206MA2C8QWER3')).toBeInTheDocument();
    await expect(within(q).getByRole('link', { name: '上传资质' })).toBeInTheDocument();
  },
};

export const AgentAuth: Story = {
  name: '代理商认证：未认证的子账户（info?status=1&type=1）',
  parameters: at('/customer/manager/u3nd7e/info?status=1&type=1'),
  play: async ({ canvas: c }) => {
    const view = await c.findByTestId('agent-auth', {}, T);
    await expect(view).toHaveTextContent('子账户 u3nd7e（绍兴越城茶业有限公司）未通过资质认证');
    // type 1: personal certification (个人身份证)
    await expect(within(view).getByTestId('certification-form')).toHaveTextContent('个人身份证');
    await expect(c.queryByTestId('basic-info')).toBeNull();
  },
};

export const AgentAuthCertified: Story = {
  name: '代理商认证：已认证的子账户显示基本信息',
  parameters: at('/customer/manager/c7k2mq/info?status=1&type=2'),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('basic-info', {}, T)).toBeInTheDocument();
    await expect(c.queryByTestId('agent-auth')).toBeNull();
  },
};

export const ManagerAuthRoute: Story = {
  name: '资质信息（customer_manager_auth：auth?status=1&type=1）：上传资质带上证件类别',
  parameters: at('/customer/manager/u3nd7e/auth?status=1&type=1', pathOf('customer_manager_auth')),
  play: async ({ canvas: c }) => {
    const q = await c.findByTestId('qualification', {}, T);
    await expect(within(q).getByRole('link', { name: '上传资质' }).getAttribute('href')).toBe(
      '/customer/manager/u3nd7e/auth/re?type=1',
    );
  },
};

export const ManagerAuthRouteForm: Story = {
  name: '资质信息（customer_manager_auth：auth/re?type=2）：企业认证表单',
  parameters: at('/customer/manager/u3nd7e/auth/re?status=1&type=2', pathOf('customer_manager_auth')),
  play: async ({ canvas: c }) => {
    // type 2: enterprise certification preselected (its first id type 三证合一; the form's default is personal)
    const form = await c.findByTestId('certification-form', {}, T);
    await waitFor(() => expect(form).toHaveTextContent('三证合一'), T);
    await expect(form).not.toHaveTextContent('个人身份证');
  },
};

export const ReCertify: Story = {
  name: '资质信息：认证不通过，代理商重新提交（同本账户的认证表单）',
  parameters: at('/customer/manager/r5qz2k/auth/re'),
  play: async ({ canvas: c }) => {
    const form = await c.findByTestId('certification-form', {}, T);
    for (const label of ['证件类型', '证件号码'])
      await expect(within(form).getAllByText(label).length).toBeGreaterThan(0);
    await expect(within(form).getByRole('button', { name: /重新提交认证/ })).toBeDisabled();
    await expect(c.queryByRole('link', { name: '上传资质' })).toBeNull();
  },
};

export const ReCertifyWhilePending: Story = {
  name: '资质信息：审核中不能重新提交',
  parameters: at('/customer/manager/w9hx3p/auth/re'),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('qualification-pending', {}, T)).toHaveTextContent('资质审核中，请等待审核结果');
    await expect(c.queryByTestId('certification-form')).toBeNull();
  },
};

export const Loading: Story = {
  name: '加载中',
  parameters: msw(...subAccountHandlers({ detail: 'loading' })),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByTestId('subaccount-detail', {}, T)).toBeInTheDocument();
    await expect(canvasElement.querySelector('.ant-spin')).not.toBeNull();
  },
};

export const NotFound: Story = {
  name: '不存在或无权访问',
  parameters: at('/customer/manager/missing/info'),
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText('子账户不存在', { selector: '.ant-alert-message' }, T),
    ).toBeInTheDocument();
  },
};

export const SubAccountOwnBalance: Story = {
  name: '子账户：账户余额',
  render: () => <OwnBalance />,
  parameters: { app: { path: pathOf('own_balance'), route: '*' } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('own-balance', {}, T)).toBeInTheDocument();
    await expect((await c.findAllByText('1,200.00 元', {}, T)).length).toBeGreaterThan(0);
    await expect(c.getByText('子账户充值')).toBeInTheDocument();
  },
};

/** A postpaid sub-account (client3): told it is billed through its agent, not left with 0.00 元 and an empty table. */
export const PostpaidOwnBalance: Story = {
  name: '子账户：后付费，说明由代理商结算',
  render: () => <OwnBalance />,
  parameters: {
    app: { path: pathOf('own_balance'), route: '*' },
    ...msw(
      http.get('/api/client/ledger', () =>
        ok({
          clientid: 'client3',
          name: '宁波港航物流有限公司',
          balance: '0.00',
          paytype: 1,
          paytype_str: '后付费',
          list: [],
        }),
      ),
      ...subAccountHandlers(),
    ),
  },
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('billing-note', {}, T)).toHaveTextContent(
      '后付费账户：发送的短信从代理商的短信包中扣除',
    );
    await expect(c.getByText('暂无数据')).toBeInTheDocument();
  },
};
