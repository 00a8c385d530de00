import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, userEvent, waitFor, within } from 'storybook/test';
import { http, type HttpHandler } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { consoleApi, fail, ok, subAccount, msw, type ConsoleApiOptions } from '@/stories/mockApi';
import { answering } from '@/stories/pageRows';
import { never, sendApi, type Calls } from '@/stories/sendApi';
import type { SmsTemplate } from '@/generated/schemas';
import { InternationalPage } from './InternationalPage';
import { VariablePage } from './VariablePage';
import { internationalScreen, variableScreen } from './screens';

const calls: Calls = {};
const both = { ...subAccount, phone_inout_type: 2 as const };

const countries = [
  { intercode: 'US', countryCode: '1', countryName: '美国', num: 2, fee: '0.0600' },
  { intercode: 'GB', countryCode: '44', countryName: '英国', num: 1, fee: '0.3000' },
  { intercode: 'JP', countryCode: '81', countryName: '日本', num: 1, fee: '0.5000' },
];
const variableTemplate: SmsTemplate = {
  templateId: 4001,
  clientId: 'b20001',
  smsType: 10,
  templateType: 1,
  smstype: 0,
  sign: '优品生活',
  content: '尊敬的{name}，您预约的{service}将于{time}开始。',
  state: 1,
  userName: 'b20001',
  createTimeStr: '2026-11-01 10:00:00',
};

/** the variable / international routes, recording their parameters in `calls` */
const varIntlApi = () => {
  const { post } = answering(calls);
  return [
    post('/autoTemplate/list', 'templates', (p) => {
      const variable = String(p.templateType) === '1';
      return { entityList: variable ? [variableTemplate] : [], totalCount: variable ? 1 : 0 };
    }),
    post('/send/checkMobileInternational', 'checkIntl', () => ({
      internationalPhoneNum: 4,
      internationalSet: [],
      countries,
      errorSet: ['12345'],
      parseMobilesInfo: { submitTotal: 6, errNum: 1, repeatNum: 1 },
    })),
    post('/send/chargeInfoInternational', 'chargeIntl', () => ({
      chars: 12,
      smsNum: 1,
      submitTotal: 4,
      chargeNum: 4,
      chargeMode: 0,
      amount: '0.92',
      balance: '1200.00',
      countries,
    })),
    post('/send/sendingInternational', 'sendIntl', () =>
      ok({ taskId: 'T1', smsNum: 1, chargeNum: 4, submitTotal: 4, amount: '0.92' }, '提交成功'),
    ),
    http.post('/api/send/provinceList', () =>
      ok([
        { provinceId: 11, provinceName: '北京' },
        { provinceId: 44, provinceName: '广东' },
      ]),
    ),
    http.post('/api/send/cityList', () => ok([{ cityId: 440100, cityName: '广州', label: '广州' }])),
    post('/send/screenPhones', 'screen', (p) =>
      String(p.operators) === '2'
        ? fail(400, '已筛选号码数量不能为0，请重新筛选。')
        : { submitTotal: 1, mobileNum: 1, unicomNum: 0, telecomNum: 0, phones: '13800138000' },
    ),
    post('/send/chargeInfoVariable', 'chargeVariable', () => ({
      submitTotal: 1,
      chargeNum: 1,
      chargeMode: 0,
      amount: '0.05',
      balance: '800.00',
    })),
    post('/send/sendingVariable', 'sendVariable', () =>
      ok({ taskId: 'T2', smsNum: 1, chargeNum: 1, submitTotal: 1, amount: '0.05' }, '提交成功'),
    ),
    post('/send/send_time_sms', 'timed', () =>
      ok({ taskId: 'T3', smsNum: 1, chargeNum: 4, submitTotal: 4, amount: '0.92' }, '提交成功'),
    ),
  ];
};
/** the pages' calls, the shell's as `shell` says (an account sending both ways unless said), `first` before them (MSW takes the first that matches) */
const pageApi = (shell: ConsoleApiOptions = {}, ...first: HttpHandler[]) =>
  msw(...first, ...varIntlApi(), ...consoleApi({ user: both, ...shell }), ...sendApi({ calls }));

function Harness() {
  const location = useLocation();
  return (
    <Routes>
      <Route path={internationalScreen.path} element={<InternationalPage />} />
      <Route path={variableScreen.path} element={<VariablePage />} />
      <Route path="*" element={<div data-testid="went">{location.pathname}</div>} />
    </Routes>
  );
}

const meta = {
  title: 'Sending/VariableAndInternational',
  component: Harness,
  decorators: [withApp],
  parameters: {
    app: { path: internationalScreen.path },
    ...pageApi(),
  },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof Harness>;
export default meta;
type Story = StoryObj<typeof meta>;

const pickType = async (c: ReturnType<typeof within>, label = '通知') => {
  const sel = await c.findByTestId('smstype-select', {}, T);
  await userEvent.click(sel.querySelector('.ant-select-selector') as HTMLElement);
  await userEvent.click(await body().findByText(label, { selector: '.ant-select-item-option-content' }, T));
};

export const IntlEmpty: Story = {
  name: '国际短信：空白页',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('国际短信发送', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('content-counter')).toHaveTextContent('0 / 500');
  },
};

export const IntlNotCertified: Story = {
  name: '国际短信：未通过资质认证（不能发送）',
  parameters: pageApi({ clientOauth: { oauth_status: '未认证' } }),
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('send-not-certified', {}, T)).toHaveTextContent(
      '账户未通过资质认证，认证通过后才能发送短信',
    );
    await expect(c.getByTestId('submit')).toBeDisabled();
  },
};

export const VariableNotCertified: Story = {
  name: '变量短信：未通过资质认证（不能发送）',
  parameters: {
    app: { path: variableScreen.path },
    ...pageApi({ clientOauth: { oauth_status: 4 } }),
  },
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('send-not-certified', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('submit')).toBeDisabled();
  },
};

export const IntlValidation: Story = {
  name: '国际短信：校验提示',
  play: async ({ canvas: c }) => {
    // the sign is optional and picked from the approved ones: nothing to say about it
    await userEvent.click(await c.findByTestId('submit', {}, T));
    await expect(await c.findByText('短信类型不能为空', {}, T)).toBeInTheDocument();
    await expect(c.queryByText('签名长度为2-12之间')).toBeNull();
    await expect(c.getByText('短信内容不能为空')).toBeInTheDocument();
    await expect(c.getByText('已筛选号码数量不能为0，请重新筛选。')).toBeInTheDocument();
  },
};

export const IntlCountries: Story = {
  name: '国际短信：号码只留数字和逗号，检测国家',
  play: async ({ canvas: c }) => {
    const box = await c.findByTestId('intl-numbers', {}, T);
    await fireEvent.change(box, { target: { value: '14155552671;447400123456 abc 819012345678' } });
    await expect(box).toHaveValue('14155552671,447400123456,819012345678');
    await userEvent.click(c.getByTestId('check-intl'));
    await waitFor(() => expect(c.getByTestId('country-table')).toHaveTextContent('美国'), T);
    await expect(c.getByTestId('intl-counts')).toHaveTextContent('号码总数 6，有效 4，错误 1，重复 1');
  },
};

/**
 * Issue 41 item 2: 8613800138000 is China's: a hint as soon as it is typed says international SMS
 * does not go there, lists it as the domestic send takes it and leads to 普通短信发送; the check's
 * other errors are counted without it.
 */
export const IntlDomesticNumbers: Story = {
  name: '国际短信：86 开头的中国大陆号码提示使用国内短信',
  parameters: pageApi(
    {},
    http.post('/api/send/checkMobileInternational', () =>
      ok({
        internationalPhoneNum: 1,
        internationalSet: ['+14155552671'],
        countries: countries.slice(0, 1),
        errorSet: ['12345'],
        domesticNum: 2,
        domesticSet: ['8613800138000', '008613912345678'],
        parseMobilesInfo: { submitTotal: 4, errNum: 3, repeatNum: 0 },
      }),
    ),
  ),
  play: async ({ canvas: c }) => {
    const box = await c.findByTestId('intl-numbers', {}, T);
    await fireEvent.change(box, { target: { value: '14155552671,8613800138000,008613912345678,12345' } });
    const hint = await c.findByTestId('intl-domestic-hint', {}, T);
    await waitFor(
      () =>
        expect(hint).toHaveTextContent(
          '2 个号码是中国大陆手机号码（86 开头），国际短信不发送到中国大陆，这些号码不会发送，请使用国内短信发送',
        ),
      T,
    );
    await expect(within(hint).getByText('13800138000')).toBeInTheDocument();
    await expect(within(hint).getByText('13912345678')).toBeInTheDocument();
    // the check's other error numbers are counted without them
    await userEvent.click(c.getByTestId('check-intl'));
    await expect(await c.findByTestId('intl-rejected', {}, T)).toHaveTextContent('1 个号码不是有效的国际号码');
    await userEvent.click(within(hint).getByTestId('intl-go-domestic'));
    await expect(await c.findByTestId('went', {}, T)).toHaveTextContent('/customer/deliverlayout/deliver');
  },
};

/** An account that sends international SMS only (phone_inout_type 1): told, without a link onward. */
export const IntlDomesticNumbersInternationalOnly: Story = {
  name: '国际短信：86 开头号码（仅国际账户，无国内短信入口）',
  parameters: pageApi({ user: { ...subAccount, phone_inout_type: 1 } }),
  play: async ({ canvas: c }) => {
    await fireEvent.change(await c.findByTestId('intl-numbers', {}, T), { target: { value: '8613800138000' } });
    const hint = await c.findByTestId('intl-domestic-hint', {}, T);
    await expect(hint).toHaveTextContent(
      '1 个号码是中国大陆手机号码（86 开头），国际短信不发送到中国大陆，这些号码不会发送',
    );
    await expect(hint).not.toHaveTextContent('请使用国内短信发送');
    await expect(within(hint).queryByTestId('intl-go-domestic')).toBeNull();
  },
};

export const IntlCharge: Story = {
  name: '国际短信：字数与计费确认，发送',
  play: async ({ canvas: c }) => {
    await pickType(c);
    await fireEvent.change(await c.findByTestId('content-input', {}, T), { target: { value: 'Hello there' } });
    await fireEvent.change(c.getByTestId('intl-numbers'), { target: { value: '14155552671,447400123456' } });
    await userEvent.click(c.getByTestId('submit'));
    const info = await body().findByTestId('charge-info', {}, T);
    await expect(info).toHaveTextContent('短信字数12 字');
    await expect(body().getByTestId('charge-countries')).toHaveTextContent('英国');
    await expect(calls.chargeIntl?.[0]).toMatchObject({
      content: 'Hello there',
      mobile: '14155552671,447400123456',
      fileType: '0',
    });
    await userEvent.click(body().getByRole('button', { name: /确认发送/ }));
    await waitFor(() => expect(calls.sendIntl?.length).toBe(1), T);
    await expect(await body().findByTestId('went', {}, { timeout: 4000 })).toHaveTextContent(
      '/customer/deliverlayout/smstask',
    );
  },
};

export const IntlFileMode: Story = {
  name: '国际短信：导入文件',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByText('导入文件', {}, T));
    await expect(await c.findByText(/支持 txt、csv、xlsx/, {}, T)).toBeInTheDocument();
  },
};

export const VariableEmpty: Story = {
  name: '变量短信：未选模板',
  parameters: { app: { path: variableScreen.path } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('变量短信发送', {}, T)).toBeInTheDocument();
    await expect(c.getAllByText('请先选择变量模板').length).toBeGreaterThan(0);
    await userEvent.click(c.getByTestId('submit'));
    await expect(await c.findByText('短信类型不能为空', {}, T)).toBeInTheDocument();
    await expect(c.getByText('请上传变量文件')).toBeInTheDocument();
  },
};

export const VariableTemplatePicked: Story = {
  name: '变量短信：选择变量模板',
  parameters: { app: { path: variableScreen.path } },
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByTestId('pick-template', {}, T));
    await expect(await body().findByText('选择变量模板', { selector: '.ant-modal-title' }, T)).toBeInTheDocument();
    const pick = await body().findAllByRole('button', { name: /^选\s*择$/ }, T);
    await userEvent.click(pick[0]);
    await waitFor(() => expect(c.getByTestId('picked-template')).toHaveTextContent('变量个数3'), T);
    await expect(calls.templates?.[0]).toMatchObject({ templateType: '1', state: '1' });
    await waitFor(() => expect(c.getByTestId('sign-select')).toHaveTextContent('优品生活'), T);
  },
};

export const VariableManualScreened: Story = {
  name: '变量短信：手动输入、号码筛选、发送',
  parameters: { app: { path: variableScreen.path } },
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByTestId('pick-template', {}, T));
    await userEvent.click((await body().findAllByRole('button', { name: /^选\s*择$/ }, T))[0]);
    await userEvent.click(await c.findByText('手动输入', {}, T));
    await fireEvent.change(await c.findByTestId('content-input', {}, T), {
      target: { value: '尊敬的王先生，您预约的体检将于明天开始。' },
    });
    await fireEvent.change(c.getByTestId('numbers-input'), { target: { value: '13800138000,18600186000' } });
    await waitFor(() => expect(c.getByTestId('submit-total')).toHaveTextContent('2'), T);
    await userEvent.click(c.getByText('联通'));
    await userEvent.click(c.getByTestId('screen-run'));
    await waitFor(() => expect(c.getByTestId('submit-total')).toHaveTextContent('1'), T);
    await expect(calls.screen?.[0]).toMatchObject({ type: '1', operators: '1,3' });
    await userEvent.click(c.getByTestId('submit'));
    await body().findByTestId('charge-info', {}, T);
    await userEvent.click(body().getByRole('button', { name: /确认发送/ }));
    await waitFor(
      () => expect(calls.sendVariable?.[0]).toMatchObject({ fileType: '0', mobile: '13800138000', templateId: '4001' }),
      T,
    );
  },
};

export const VariableScreening: Story = {
  name: '变量短信：号码筛选中（规格的状态文字）',
  parameters: {
    app: { path: variableScreen.path },
    ...pageApi({}, never('send/screenPhones')),
  },
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByTestId('pick-template', {}, T));
    await userEvent.click((await body().findAllByRole('button', { name: /^选\s*择$/ }, T))[0]);
    await userEvent.click(await c.findByText('手动输入', {}, T));
    await fireEvent.change(await c.findByTestId('numbers-input', {}, T), { target: { value: '13800138000' } });
    await expect(c.getByTestId('screen-run')).toHaveTextContent('号码筛选');
    await userEvent.click(c.getByTestId('screen-run'));
    await waitFor(() => expect(c.getByTestId('screen-run')).toHaveTextContent('号码筛选中'), T);
  },
};

export const VariableScreenedEmpty: Story = {
  name: '变量短信：筛选后号码为0',
  parameters: { app: { path: variableScreen.path } },
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByTestId('pick-template', {}, T));
    await userEvent.click((await body().findAllByRole('button', { name: /^选\s*择$/ }, T))[0]);
    await userEvent.click(await c.findByText('手动输入', {}, T));
    await fireEvent.change(await c.findByTestId('numbers-input', {}, T), { target: { value: '13800138000' } });
    await userEvent.click(await c.findByText('移动', {}, T));
    await userEvent.click(c.getByText('电信'));
    await userEvent.click(c.getByTestId('screen-run'));
    await expect(await body().findByText('已筛选号码数量不能为0，请重新筛选。', {}, T)).toBeInTheDocument();
  },
};
