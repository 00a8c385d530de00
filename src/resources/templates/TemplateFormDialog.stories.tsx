import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { http } from 'msw';
import { consoleApi, listPageOf, ok, msw, type Calls } from '@/stories/mockApi';
import { TemplateFormDialog } from './TemplateFormDialog';
import { sensitiveRefusal, smartTemplates, templateApi } from './templates.mock';

/** the approved signs of each account (/sign/list by clientid): b20001 two, b20002 none, the others two */
const signList = http.post('/api/sign/list', async ({ request }) => {
  const clientid = new URLSearchParams(await request.text()).get('clientid') ?? '';
  const signs =
    clientid === 'b20001' ? ['优品商城', '优品生活'] : clientid === 'b20002' ? [] : ['鲜果到家', '优品商城'];
  return ok(
    listPageOf(
      signs.map((sign, i) => ({ id: i + 1, clientid, sign, state: 1 })),
      { pageRowCount: 100 },
    ),
  );
});
const calls: Calls = {};

const meta = {
  title: 'Templates/TemplateFormDialog',
  component: TemplateFormDialog,
  decorators: [withApp],
  args: { open: true, agent: true, agentId: 'a10001', operationMode: '1', onClose: fn(), onSaved: fn() },
  parameters: { layout: 'padded', ...msw(signList, ...templateApi({ calls }), ...consoleApi()) },
} satisfies Meta<typeof TemplateFormDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

const dialog = async () => within(await screen.findByRole('dialog', {}, T));
/** the messages under the fields, in order */
const fieldErrors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
const submit = async (d: ReturnType<typeof within>) => userEvent.click(d.getByRole('button', { name: /提交审核/ }));
/** 签名: picked from the account's approved signs */
const pickSign = async (d: ReturnType<typeof within>, sign: string) => {
  await userEvent.click(within(d.getByTestId('template-sign')).getByRole('combobox'));
  await userEvent.click(await screen.findByTitle(sign, {}, T));
};

export const Add: Story = {
  name: '新增（代理商）',
  play: async ({ args }) => {
    const d = await dialog();
    await expect(d.getByText('新增模板')).toBeInTheDocument();
    await userEvent.click(d.getAllByRole('combobox')[0]);
    await userEvent.click(await screen.findByTitle('b20001-上海优品电商有限公司', {}, T));
    await userEvent.click(d.getByLabelText('变量模板'));
    await userEvent.click(d.getByLabelText('通知'));
    await pickSign(d, '优品商城');
    await userEvent.type(d.getByPlaceholderText('请输入模板内容'), '您的订单{{orderNo}已发货');
    await expect(d.getByTestId('template-counter')).toHaveTextContent('已输入 16/500 个字符，变量 1 个');
    calls.add = [];
    await submit(d);
    await waitFor(() => expect(calls.add).toHaveLength(1), T);
    const body = calls.add[0];
    await expect(body).toMatchObject({
      clientId: 'b20001',
      smsType: '10',
      templateType: '1',
      business: '0',
      smstype: '0',
      sign: '优品商城',
      content: '您的订单{orderNo}已发货',
    });
    await expect(await screen.findByText('新增成功，请等待审核', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(args.onClose).toHaveBeenCalled(), T);
  },
};

export const Edit: Story = {
  name: '编辑',
  args: { template: smartTemplates[0] },
  play: async () => {
    const d = await dialog();
    await expect(d.getByText('编辑模板')).toBeInTheDocument();
    await expect(d.getByDisplayValue('您的登录验证码为{code}，5分钟内有效，请勿泄露。')).toBeInTheDocument();
    await expect(d.getByTestId('template-counter')).toHaveTextContent('变量 1 个');
    calls.edit = [];
    await submit(d);
    await waitFor(() => expect(calls.edit?.[0]?.templateId).toBe('100012'), T);
    // only the form's fields are sent, not the row's list columns
    const sent = 'business clientId content sign smsType smstype templateId templateType'.split(' ');
    await expect(Object.keys(calls.edit[0]).sort()).toEqual(sent);
    await expect(await screen.findByText('修改成功，请等待审核', {}, T)).toBeInTheDocument();
  },
};

export const ValidationMessages: Story = {
  name: '校验提示',
  play: async () => {
    const d = await dialog();
    calls.add = [];
    await submit(d);
    await waitFor(
      () => expect(fieldErrors()).toEqual(['请选择子账号', '签名长度为2-12之间', '模板内容长度为5-500个字符']),
      T,
    );
    await userEvent.click(d.getAllByRole('combobox')[0]);
    await userEvent.click(await screen.findByTitle('b20001-上海优品电商有限公司', {}, T));
    await pickSign(d, '优品商城');
    await userEvent.type(d.getByPlaceholderText('请输入模板内容'), '固定模板里写了{{name}变量');
    await submit(d);
    await waitFor(() => expect(fieldErrors()).toEqual(['固定模板不能包含变量']), T);
    await expect(calls.add).toHaveLength(0);
  },
};

export const MarketingForcesMarketingType: Story = {
  name: '会员营销模板固定为营销（产品包账户）',
  play: async () => {
    const d = await dialog();
    await expect(d.getByLabelText('验证码')).toBeInTheDocument();
    await userEvent.click(d.getByLabelText('会员营销'));
    await waitFor(() => expect(d.getByLabelText('营销')).toBeChecked(), T);
    await expect(d.getByLabelText('营销')).toBeDisabled();
    await expect(d.queryByLabelText('验证码')).toBeNull();
  },
};

export const SubAccountDirectCharge: Story = {
  name: '子账户（直充账户）：不选子账号和短信类型',
  args: { agent: false, operationMode: '0' },
  play: async () => {
    const d = await dialog();
    await expect(d.queryByText('子账户')).toBeNull();
    await expect(d.queryByText('短信类型')).toBeNull();
    await pickSign(d, '鲜果到家');
    await userEvent.type(d.getByPlaceholderText('请输入模板内容'), '您的水果已送达，请查收。');
    calls.add = [];
    await submit(d);
    await waitFor(() => expect(calls.add).toHaveLength(1), T);
    await expect('clientId' in calls.add[0]).toBe(false);
    await expect('smstype' in calls.add[0]).toBe(false);
  },
};

export const SensitiveWordRefusal: Story = {
  name: '敏感词被拒',
  args: { agent: false },
  parameters: msw(signList, sensitiveRefusal, ...templateApi(), ...consoleApi()),
  play: async ({ args }) => {
    const d = await dialog();
    await pickSign(d, '优品商城');
    await userEvent.type(d.getByPlaceholderText('请输入模板内容'), '欢迎参加赌博活动，回T退订');
    await submit(d);
    await expect(await d.findByTestId('template-save-error', {}, T)).toHaveTextContent(
      '模板内容包含敏感词：赌博，请修改后再提交',
    );
    await waitFor(() => expect(fieldErrors()).toEqual(['模板内容包含敏感词：赌博，请修改后再提交']), T);
    await expect(args.onClose).not.toHaveBeenCalled();
  },
};

export const NoApprovedSign: Story = {
  name: '所选子账户没有审核通过的签名',
  play: async () => {
    const d = await dialog();
    await expect(within(d.getByTestId('template-sign')).getByRole('combobox')).toBeDisabled();
    await userEvent.click(d.getAllByRole('combobox')[0]);
    await userEvent.click(await screen.findByTitle('b20002-鲜果到家配送有限公司', {}, T));
    await expect(await d.findByTestId('template-no-sign', {}, T)).toHaveTextContent(
      '该账户暂无审核通过的签名，请先到 签名报备 申请签名',
    );
    await expect(d.getByRole('link', { name: '签名报备' })).toBeInTheDocument();
    await expect(within(d.getByTestId('template-sign')).getByRole('combobox')).toBeDisabled();
  },
};
