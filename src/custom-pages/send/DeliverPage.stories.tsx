import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, userEvent, waitFor, within } from 'storybook/test';
import { http, type HttpHandler } from 'msw';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { businessNow, businessTime } from '@/lib/businessTime';
import { consoleApi, subAccount, msw, ok } from '@/stories/mockApi';
import { never, sendApi, smsTypes, type Calls, type SendApiOptions } from '@/stories/sendApi';
import { fileApi, TOKEN } from '@/stories/fileApi';
import { DeliverPage } from './DeliverPage';
import { PhonePreview } from './PhonePreview';
import { deliverScreen } from './screens';
import { eventually, shows } from '@/stories/play';

const calls: Calls = {};
/** a sub-account's calls, sendApi answering as `opts` says, `first` before them (MSW takes the first that matches) */
const subAccountApi = (opts: SendApiOptions = {}, ...first: HttpHandler[]) =>
  msw(...first, ...consoleApi({ user: subAccount }), ...sendApi({ calls, ...opts }));

const meta = {
  title: 'Sending/DeliverPage',
  component: DeliverPage,
  decorators: [withApp],
  // a sub-account's page unless a story says otherwise
  // (a navigation away shows where it went: withApp's "went")
  parameters: { app: { path: deliverScreen.path, route: deliverScreen.path }, ...subAccountApi() },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof DeliverPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** the open 选择模板 dialog */
const templatePicker = async () =>
  (await body().findByText('选择模板', { selector: '.ant-modal-title' }, T)).closest('.ant-modal') as HTMLElement;

/** a sub-account's page filled: type, template, two numbers */
async function fill(canvas: HTMLElement, numbers = '13800138000,13012345678') {
  const c = within(canvas);
  await userEvent.click(await c.findByTestId('pick-template', {}, T));
  const dialog = await templatePicker();
  const pick = await within(dialog).findAllByRole('button', { name: /^选\s*择$/ }, T);
  await userEvent.click(pick[0]);
  await eventually(() => expect(c.getByTestId('picked-template')).toHaveTextContent('3001'));
  await fireEvent.change(c.getByTestId('numbers-input'), { target: { value: numbers } });
}

export const AgentEmpty: Story = {
  name: '代理商：未选子账号',
  parameters: msw(...consoleApi(), ...sendApi({ calls })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('client-select', {}, T)).toBeInTheDocument();
    await eventually(() => expect(calls.getclients?.[0]).toMatchObject({ getAll: '1', phoneInoutType: '0' }));
    await userEvent.click(c.getByTestId('pick-template'));
    await expect((await body().findAllByText('请选择子账号', {}, T)).length).toBeGreaterThan(0);
    await expect(body().queryByText('选择模板', { selector: '.ant-modal-title' })).toBeNull();
    await expect(c.getByTestId('content-counter')).toHaveTextContent('0 / 500');
  },
};

export const AgentForSubAccount: Story = {
  name: '代理商：为子账号发送',
  parameters: msw(...consoleApi(), ...sendApi({ calls })),
  play: async ({ canvas: c, canvasElement }) => {
    const select = await c.findByTestId('client-select', {}, T);
    await userEvent.click(select.querySelector('.ant-select-selector') as HTMLElement);
    await userEvent.click(await body().findByText('b20001-上海优品电商有限公司', {}, T));
    await eventually(() => expect(calls.getsmstypes?.at(-1)).toEqual({ clientid: 'b20001' }));
    await fill(canvasElement);
    await eventually(() =>
      expect(calls.templates?.[0]).toMatchObject({ clientId: 'b20001', state: '1', templateType: '0' }),
    );
    await userEvent.click(c.getByTestId('submit'));
    await body().findByTestId('charge-info', {}, T);
    await expect(calls.chargeInfo?.[0]).toMatchObject({ clientId: 'b20001' });
  },
};

export const SubAccountFilled: Story = {
  name: '子账户：选模板、输入号码',
  play: async ({ canvas: c, canvasElement }) => {
    await eventually(() => expect(calls.getsmstypes?.[0]).toEqual({ clientid: 'b20001' }));
    await expect(c.queryByTestId('client-select')).toBeNull();
    await fill(canvasElement);
    await eventually(() => expect(calls.templates?.[0]).toMatchObject({ state: '1', templateType: '0' }));
    // the template's sign is one of the approved signs: it is the one chosen
    await eventually(() => expect(c.getByTestId('sign-select')).toHaveTextContent('优品生活'));
    // 14 characters + sign 4 + 2
    await expect(c.getByTestId('content-counter')).toHaveTextContent('20 / 500');
    await expect(c.getByTestId('content-pieces')).toHaveTextContent('1 条');
    await expect(c.getByTestId('number-counts')).toHaveTextContent('号码总数：2有效号码：2无效号码：0重复号码：0');
  },
};

export const NotCertified: Story = {
  name: '子账户：资质认证审核中（不能发送）',
  parameters: msw(...consoleApi({ user: subAccount, clientOauth: { oauth_status: '待认证' } }), ...sendApi({ calls })),
  play: async ({ canvas: c }) => {
    const notice = await c.findByTestId('send-not-certified', {}, T);
    // under review: says so (not 未通过), and leads to the submitted documents
    await expect(notice).toHaveTextContent('您的认证资料正在审核中，审核通过后才能发送短信');
    await expect(within(notice).getByRole('link', { name: '查看认证资料' })).toBeInTheDocument();
    await expect(c.getByTestId('submit')).toBeDisabled();
  },
};

export const InvalidNumbers: Story = {
  name: '无效号码：计数与确认清除',
  play: async ({ canvas: c }) => {
    const box = await c.findByTestId('numbers-input', {}, T);
    await fireEvent.change(box, { target: { value: '13800138000；12345\n13800138000 1540000000，13012345678' } });
    await expect(box).toHaveValue('13800138000,12345,13800138000,1540000000,13012345678');
    // 5 = 2 valid (distinct: what is sent) + 2 invalid + 1 repeat
    await eventually(() =>
      expect(c.getByTestId('number-counts')).toHaveTextContent('号码总数：5有效号码：2无效号码：2重复号码：1'),
    );
    const listed = c.getByTestId('invalid-numbers');
    await expect(within(listed).getByText('12345')).toBeInTheDocument();
    await expect(within(listed).getByText('1540000000')).toBeInTheDocument();
    await userEvent.click(c.getByRole('button', { name: /确认号码/ }));
    // the box keeps the distinct valid numbers: the repeat goes too
    await expect(box).toHaveValue('13800138000,13012345678');
    await eventually(() =>
      expect(c.getByTestId('number-counts')).toHaveTextContent('号码总数：2有效号码：2无效号码：0重复号码：0'),
    );
    await expect(c.queryByTestId('invalid-numbers')).toBeNull();
  },
};

export const ExportInvalidNumbers: Story = {
  name: '无效号码：导出错误号码',
  play: async ({ canvas: c }) => {
    const box = await c.findByTestId('numbers-input', {}, T);
    await expect(c.queryByTestId('export-invalid')).toBeNull();
    await fireEvent.change(box, { target: { value: '13800138000,12345,1540000000' } });
    const before = calls.importRrrorPhones?.length ?? 0;
    await userEvent.click(await c.findByTestId('export-invalid', {}, T));
    await eventually(() => expect(calls.importRrrorPhones?.length).toBe(before + 1));
    await expect(calls.importRrrorPhones?.at(-1)).toMatchObject({ phones: '13800138000,12345,1540000000' });
  },
};

export const TooManyNumbers: Story = {
  name: '号码超过60000个',
  play: async ({ canvas: c }) => {
    const many = Array.from({ length: 60001 }, (_, i) => `138${String(i).padStart(8, '0')}`).join(',');
    await fireEvent.change(await c.findByTestId('numbers-input', {}, T), { target: { value: many } });
    await expect(await c.findByTestId('too-many', {}, T)).toHaveTextContent('号码不能大于60000个');
  },
};

export const ValidationErrors: Story = {
  name: '提交校验（表单规则）',
  parameters: subAccountApi({ signs: ['优品生活', '优品'] }),
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByTestId('submit', {}, T));
    await expect((await c.findAllByText('短信类型不能为空', {}, T)).length).toBeGreaterThan(0);
    await expect(c.getByText('请选择模板')).toBeInTheDocument();
    await expect(c.getByText('签名长度为2-12之间')).toBeInTheDocument();
    await expect(c.getByText('短信内容不能为空')).toBeInTheDocument();
    // beside the empty box: 请输入手机号码 (the spec's 号码池不能为空 once something is typed without a valid number)
    await expect(c.getByText('请输入手机号码')).toBeInTheDocument();
    await expect(calls.chargeInfo).toBeUndefined();
    await fireEvent.change(c.getByTestId('numbers-input'), { target: { value: '12345' } });
    await new Promise((r) => setTimeout(r, 3100));
    await userEvent.click(c.getByTestId('submit'));
    await expect(await c.findByText('号码池不能为空', {}, T)).toBeInTheDocument();
  },
};

export const TemplateTextReadOnly: Story = {
  name: '固定模板内容只读（改动的内容发送时会被拒绝）',
  play: async ({ canvas: c, canvasElement }) => {
    await fill(canvasElement);
    const text = c.getByTestId('content-input');
    await expect(text).toHaveAttribute('readonly');
    // it looks read-only and says why
    await expect(text).toHaveClass(/ant-input-filled/);
    await expect(c.getByTestId('content-readonly-hint')).toHaveTextContent(
      '固定模板的内容按审核通过的原文发送，不可修改',
    );
    const before = (text as HTMLTextAreaElement).value;
    await userEvent.type(text, '改');
    await expect(text).toHaveValue(before);
    await expect(c.queryByTestId('template-changed')).toBeNull();
  },
};

export const NoFixedTemplate: Story = {
  name: '选择模板：没有审核通过的固定模板（说明原因，去新增模板 / 通用模板）',
  parameters: subAccountApi(
    {},
    http.post('/api/autoTemplate/list', () => ok({ entityList: [], totalCount: 0, currentPage: 1, pageRowCount: 15 })),
  ),
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByTestId('pick-template', {}, T));
    const empty = await within(document.body).findByTestId('template-picker-empty', {}, T);
    await expect(empty).toHaveTextContent('暂无审核通过的固定模板');
    await expect(empty).toHaveTextContent('普通短信只能使用固定模板；变量模板请在变量短信发送页使用。');
    await expect(within(empty).getByRole('link', { name: '新增模板' })).toBeInTheDocument();
    // (the dialog may still be opening: no pointer events yet)
    await fireEvent.click(within(empty).getByRole('button', { name: '查看通用模板' }));
    await eventually(() =>
      expect(within(document.body).getByRole('tab', { name: '通用模板' })).toHaveAttribute('aria-selected', 'true'),
    );
  },
};

export const TemplateOfRefusedType: Story = {
  name: '账户不能发送的类型的模板不能选择，已审核签名可点选',
  // the account sends 通知 only; its approved sign is 优品生活 (sendApi's one sign)
  parameters: subAccountApi(
    {},
    http.post('/api/send/getsmstypes', () => ok(smsTypes.filter((t) => t.label === '通知'))),
  ),
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByTestId('pick-template', {}, T));
    const dialog = (await body().findByText('选择模板', { selector: '.ant-modal-title' }, T)).closest(
      '.ant-modal',
    ) as HTMLElement;
    // 3002 is a 验证码 template: its 选择 is disabled
    const refused = await within(dialog).findByTestId('template-type-refused', {}, T);
    await expect(refused).toBeDisabled();
    await expect(
      within(dialog)
        .getAllByRole('button', { name: /^选\s*择$/ })
        .filter((b) => !(b as HTMLButtonElement).disabled),
    ).toHaveLength(1);
    await userEvent.keyboard('{Escape}');
    // the sign is chosen from the approved ones (the only one is chosen at once)
    await eventually(() => expect(c.getByTestId('sign-select')).toHaveTextContent('优品生活'));
  },
};

export const NoApprovedSign: Story = {
  name: '签名：账户没有审核通过的签名（去签名报备 / 模板管理）',
  parameters: subAccountApi({ signs: [] }),
  play: async ({ canvas: c }) => {
    const none = await c.findByTestId('no-approved-sign', {}, T);
    await expect(none).toHaveTextContent('该账户暂无审核通过的签名');
    await expect(within(none).getByRole('link', { name: '签名报备' })).toBeInTheDocument();
    await expect(within(none).getByRole('link', { name: '模板管理' })).toBeInTheDocument();
    await expect(c.getByTestId('sign-select')).toHaveClass('ant-select-disabled');
  },
};

export const SignFromList: Story = {
  name: '签名：从已审核通过的签名中选择',
  parameters: subAccountApi({ signs: ['优品生活', '优品商城'] }),
  play: async ({ canvas: c }) => {
    const select = await c.findByTestId('sign-select', {}, T);
    await eventually(() => expect(calls.signs?.[0]).toMatchObject({ state: '1', clientid: 'b20001' }));
    await userEvent.click(select.querySelector('.ant-select-selector') as HTMLElement);
    await userEvent.click(await body().findByTitle('优品商城', {}, T));
    await expect(select).toHaveTextContent('优品商城');
    await expect(c.getByTestId('phone-preview')).toHaveTextContent('【优品商城】');
  },
};

export const PreviewSinglePiece: Story = {
  name: '预览：一条短信',
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByTestId('phone-preview', {}, T)).toHaveTextContent('输入短信内容后在此预览');
    await fill(canvasElement);
    await eventually(() =>
      expect(c.getByTestId('preview-text')).toHaveTextContent('【优品生活】您的订单已发货，请注意查收。'),
    );
    await expect(c.getByTestId('preview-pieces')).toHaveTextContent('20 字，计 1 条（中文短信：70字以内计1条）');
  },
};

export const PreviewMultiPiece: Story = {
  name: '预览：长短信按67字一条',
  render: () => <PhonePreview sign="优品生活" content={'长'.repeat(130)} />,
  play: async ({ canvas: c }) => {
    // 130 + 4 + 2 = 136 characters: 3 pieces of 67
    await expect(c.getByTestId('preview-pieces')).toHaveTextContent(
      '136 字，计 3 条（中文短信：超过70字按67字一条计费，共3条）',
    );
    await expect(c.getByTestId('preview-text')).toHaveTextContent(/^【优品生活】长+$/);
  },
};

export const FiveNumbersCountsAgree: Story = {
  name: '号码计数：检测、号码框与计费确认一致（含重复与 12345）',
  play: async ({ canvas: c, canvasElement }) => {
    await fill(canvasElement, '13800138000\n13012345678\n13800138000\n12345\n18912345678');
    await eventually(() =>
      expect(c.getByTestId('number-counts')).toHaveTextContent('号码总数：5有效号码：3无效号码：1重复号码：1'),
    );
    await userEvent.click(c.getByTestId('submit'));
    const info = await body().findByTestId('charge-info', {}, T);
    await expect(info).toHaveTextContent('发送号码数3 个');
    await expect(calls.chargeInfo?.[0]).toMatchObject({ mobile: '13800138000,13012345678,18912345678' });
    await userEvent.click(body().getByRole('button', { name: /取\s*消/ }));
    await userEvent.click(c.getByTestId('confirm-numbers'));
    await expect(c.getByTestId('numbers-input')).toHaveValue('13800138000,13012345678,18912345678');
    await eventually(() =>
      expect(c.getByTestId('number-counts')).toHaveTextContent('号码总数：3有效号码：3无效号码：0重复号码：0'),
    );
  },
};

export const ChargeConfirmAndSend: Story = {
  name: '计费确认后立即发送',
  play: async ({ canvas: c, canvasElement }) => {
    await fill(canvasElement);
    await userEvent.click(c.getByTestId('submit'));
    const info = await body().findByTestId('charge-info', {}, T);
    await expect(info).toHaveTextContent('计费总条数2 条');
    await expect(info).toHaveTextContent('0.09');
    await expect(calls.chargeInfo?.[0]).toMatchObject({
      clientId: 'b20001',
      sign: '优品生活',
      mobile: '13800138000,13012345678',
    });
    await userEvent.click(body().getByRole('button', { name: /确认发送/ }));
    await waitFor(
      () =>
        expect(calls.sending?.[0]).toMatchObject({
          clientId: 'b20001',
          content: '【优品生活】您的订单已发货，请注意查收。',
          smstype: '0',
          templateId: '3001',
        }),
      T,
    );
    await shows('提交成功');
    // cleared, then the task list after about 1 s
    await expect(c.getByTestId('numbers-input')).toHaveValue('');
    await expect(await within(canvasElement).findByTestId('went', {}, T)).toHaveTextContent(
      '/customer/deliverlayout/smstask',
    );
  },
};

export const PackageModeCharge: Story = {
  name: '计费确认（按条数）',
  parameters: subAccountApi({ chargeMode: 1 }),
  play: async ({ canvasElement }) => {
    await fill(canvasElement);
    await userEvent.click(within(canvasElement).getByTestId('submit'));
    const info = await body().findByTestId('charge-info', {}, T);
    await expect(info).toHaveTextContent('剩余条数9,000 条');
    await expect(info).not.toHaveTextContent('扣费金额');
  },
};

export const SubmitLock: Story = {
  name: '3秒内不可重复提交',
  play: async ({ canvas: c, canvasElement }) => {
    await fill(canvasElement);
    await userEvent.click(c.getByTestId('submit'));
    await body().findByTestId('charge-info', {}, T);
    await userEvent.click(body().getByRole('button', { name: /取\s*消/ }));
    await userEvent.click(c.getByTestId('submit'));
    await shows('3秒内不可重复提交');
    await expect(calls.chargeInfo).toHaveLength(1);
  },
};

export const TimedCreditAlert: Story = {
  name: '定时发送：403 额度提示后重发',
  parameters: subAccountApi({ timedAnswer: { code: 403, msg: '可用额度不足，是否继续提交？' } }),
  play: async ({ canvas: c, canvasElement }) => {
    await fill(canvasElement);
    await userEvent.click(c.getByText('定时发送'));
    await expect(await c.findByTestId('sendtime', {}, T)).toBeInTheDocument();
    await userEvent.click(c.getByTestId('submit'));
    await eventually(() =>
      expect(calls.checkSubmitTime?.[0]?.submitTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00$/),
    );
    // the default is Shanghai's now + 30 min (seconds dropped), whatever the browser's zone
    const ahead = businessTime(calls.checkSubmitTime[0].submitTime as string).diff(businessNow(), 'minute', true);
    await expect(ahead).toBeGreaterThan(20);
    await expect(ahead).toBeLessThanOrEqual(30);
    await userEvent.click(await body().findByRole('button', { name: /确认定时发送/ }, T));
    await shows('可用额度不足，是否继续提交？');
    await expect(calls.sendTim?.[0]).toMatchObject({
      isCheckAvailableCredit: 1,
      jsmsAccessTimerSms: { clientid: 'b20001', mobilelist: '13800138000,13012345678', sign: '优品生活' },
    });
    await userEvent.click(body().getByRole('button', { name: /确\s*定/ }));
    await eventually(() => expect(calls.sendTim?.[1]).toMatchObject({ isCheckAvailableCredit: 0 }));
    await expect(await within(canvasElement).findByTestId('went', {}, T)).toHaveTextContent(
      '/customer/deliverlayout/timingdeliver',
    );
  },
};

export const ClearWithConfirmation: Story = {
  name: '清空号码（确认）',
  play: async ({ canvas: c }) => {
    const box = await c.findByTestId('numbers-input', {}, T);
    await fireEvent.change(box, { target: { value: '13800138000' } });
    await userEvent.click(c.getByRole('button', { name: /清空号码/ }));
    await shows('确定清空号码吗？');
    await userEvent.click(body().getByRole('button', { name: /确\s*定/ }));
    await eventually(() => expect(box).toHaveValue(''));
  },
};

export const ImportAndCarrierCheck: Story = {
  name: '导入号码文件（分片上传 + 解析）与运营商检测',
  parameters: msw(...consoleApi({ user: subAccount }), ...sendApi({ calls }), ...fileApi({ calls })),
  play: async ({ canvas: c, canvasElement }) => {
    const box = await c.findByTestId('numbers-input', {}, T);
    await fireEvent.change(box, { target: { value: '13800138000' } });
    const input = canvasElement.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File(['13700137000\n13600136000\n123\n'], '号码.txt', { type: 'text/plain' }));
    await expect(await c.findByTestId('import-result', {}, T)).toHaveTextContent('共 3 个号码，错误 1 个');
    await expect(calls.parsefile?.[0]).toMatchObject({ importFilePath: `${TOKEN}.txt` });
    // the file's numbers are sent (importFilePath), the box waits until the file is removed
    await expect(box).toBeDisabled();
    await userEvent.click(c.getByRole('button', { name: /运营商检测/ }));
    await expect(await c.findByTestId('carrier-counts', {}, T)).toHaveTextContent('移动 2');
    await userEvent.click(c.getByRole('button', { name: /移除/ }));
    await eventually(() => expect(box).not.toBeDisabled());
    await expect(c.queryByTestId('import-result')).toBeNull();
  },
};

export const ReEditTimedTask: Story = {
  name: '重新编辑定时任务（?id=）',
  parameters: { app: { path: `${deliverScreen.path}?id=T202611230010` } },
  play: async ({ canvas: c }) => {
    await eventually(() => expect(calls.edit?.[0]).toEqual({ taskID: 'T202611230010' }));
    await expect(await c.findByText('普通短信发送（重新编辑定时任务）', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('numbers-input')).toHaveValue('13800138000,13012345678');
    await expect(c.getByTestId('sendtime')).toBeInTheDocument();
  },
};

export const CarrierChecking: Story = {
  name: '运营商检测中（规格的状态文字）',
  parameters: subAccountApi({}, never('send/checkMobileOperater')),
  play: async ({ canvas: c }) => {
    await fireEvent.change(await c.findByTestId('numbers-input', {}, T), { target: { value: '13800138000' } });
    await userEvent.click(c.getByTestId('carrier-check'));
    await eventually(() => expect(c.getByTestId('carrier-check')).toHaveTextContent('检测中'));
  },
};
