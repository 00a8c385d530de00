/**
 * The shared pieces of the three send pages (src/custom-pages/send), one story per state: who sends
 * (sub-account, SMS type, sign), the content counter, the numbers source, the send time and the
 * charge confirmation. The pages' own stories (DeliverPage, VarIntl) show them composed.
 */
import { useState, type ReactNode } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { http } from 'msw';
import { Form } from 'antd';
import { T, body, withApp } from '@/stories/withApp';
import { consoleApi, ok, msw } from '@/stories/mockApi';
import { SendTimeType } from '@/generated/schemas';
import { businessNow } from '@/lib/businessTime';
import { countPieces } from '../../../common/sms/pieces';
import { AccountField, SignField, SmsTypeField } from './SenderFields';
import { ContentCounter } from './ContentCounter';
import { NumberSource, type NumberMode } from './NumberSource';
import { SendTimeField } from './SendTimeField';
import { ChargeDialog, type ChargeFigures } from './ChargeDialog';

const error = (help: string) => ({ validateStatus: 'error' as const, help });

function Pieces({ children }: { children: ReactNode }) {
  return (
    <Form layout="horizontal" labelCol={{ flex: '110px' }} wrapperCol={{ flex: 'auto' }} style={{ maxWidth: 900 }}>
      {children}
    </Form>
  );
}

const meta = {
  title: 'Sending/SendPieces',
  component: Pieces,
  decorators: [withApp],
  args: { children: null },
  parameters: {
    layout: 'padded',
    ...msw(
      http.post('/api/send/getclients', () => ok([{ clientid: 'b20001', name: '上海优品电商有限公司' }])),
      http.post('/api/send/getsmstypes', () =>
        ok([
          { value: 0, label: '通知' },
          { value: 5, label: '验证码' },
        ]),
      ),
      ...consoleApi(),
    ),
  },
} satisfies Meta<typeof Pieces>;
export default meta;
type Story = StoryObj<typeof meta>;

const openSelect = async (c: ReturnType<typeof within>) => {
  const sel = await c.findByTestId('smstype-select', {}, T);
  await userEvent.click(sel.querySelector('.ant-select-selector') as HTMLElement);
};

// ---- who sends ----

export const AccountOfAgent: Story = {
  name: '子账号：代理商选择，未选提示',
  args: { children: <AccountField agent phoneInoutType={0} onChange={fn()} status={error('请选择子账号')} /> },
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('client-select', {}, T)).toBeInTheDocument();
    await expect(c.getByText('请选择子账号', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
  },
};

export const AccountOfSubAccount: Story = {
  name: '子账号：子账户不显示',
  render: () => (
    <Pieces>
      <AccountField agent={false} phoneInoutType={0} onChange={fn()} />
      <div data-testid="after">—</div>
    </Pieces>
  ),
  play: async ({ canvas: c }) => {
    await c.findByTestId('after', {}, T);
    await expect(c.queryByTestId('client-select')).toBeNull();
    await expect(c.queryByText('子账号')).toBeNull();
  },
};

export const SmsTypesOfAccount: Story = {
  name: '短信类型：账户可发的类型',
  args: { children: <SmsTypeField clientId="b20001" onChange={fn()} /> },
  play: async ({ canvasElement }) => {
    await openSelect(within(canvasElement));
    // the enum's types until the account's arrive
    await waitFor(
      () => expect(body().queryByText('营销', { selector: '.ant-select-item-option-content' })).toBeNull(),
      T,
    );
    const shown = [...document.body.querySelectorAll('.ant-select-item-option-content')].map((o) => o.textContent);
    await expect(shown).toEqual(['通知', '验证码']);
  },
};

export const SmsTypesWithoutAccount: Story = {
  name: '短信类型：未选账户时为全部类型',
  args: { children: <SmsTypeField onChange={fn()} status={error('短信类型不能为空')} /> },
  play: async ({ canvas: c }) => {
    await expect(c.getByText('短信类型不能为空')).toBeInTheDocument();
    await openSelect(c);
    await expect(
      await body().findByText('营销', { selector: '.ant-select-item-option-content' }, T),
    ).toBeInTheDocument();
  },
};

export const SignRequired: Story = {
  name: '签名：必填',
  args: { children: <SignField value="优品生活" onChange={fn()} /> },
  play: async ({ canvasElement }) => {
    // a select of the account's approved signs, not free text
    const select = await within(canvasElement).findByTestId('sign-select', {}, T);
    await expect(select).toHaveTextContent('优品生活');
    await expect(canvasElement.querySelector('.ant-form-item-required')).not.toBeNull();
  },
};

export const SignOptional: Story = {
  name: '签名：国际短信选填，长度提示',
  args: { children: <SignField optional value="A" onChange={fn()} status={error('签名长度为2-12之间')} /> },
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByTestId('sign-select', {}, T)).toBeInTheDocument();
    await expect(canvasElement.querySelector('.ant-form-item-required')).toBeNull();
    await expect(c.getByText('签名长度为2-12之间')).toBeInTheDocument();
  },
};

// ---- content counter ----

const counter = (
  name: string,
  content: string,
  sign: string,
  expected: { counter: string; pieces?: string },
  props: { layout?: 'row' | 'inline'; explain?: boolean } = {},
): Story => ({
  name,
  args: { children: <ContentCounter pieces={countPieces({ content, sign })} {...props} /> },
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('content-counter', {}, T)).toHaveTextContent(expected.counter);
    if (expected.pieces) await expect(c.getByTestId('content-pieces')).toHaveTextContent(expected.pieces);
    else await expect(c.queryByTestId('content-pieces')).toBeNull();
  },
});

export const CounterEmpty = counter(
  '字数：空白',
  '',
  '',
  { counter: '0 / 500', pieces: '预计每个号码计费 0 条' },
  { explain: true },
);
export const CounterChinese = counter(
  '字数：中文，说明计费',
  '您的订单已发货，请注意查收。',
  '优品生活',
  { counter: '20 / 500', pieces: '预计每个号码计费 1 条（中文短信：70字一条，超过按67字一条）' },
  { explain: true },
);
export const CounterEnglish = counter(
  '字数：英文长短信',
  'x'.repeat(150),
  'Shop',
  { counter: '156 / 500', pieces: '预计每个号码计费 2 条（英文短信：140字一条，超过按134字一条）' },
  { explain: true },
);
export const CounterPlain = counter('字数：国际短信（不说明）', '您的订单已发货。', '', {
  counter: '8 / 500',
  pieces: '预计每个号码计费 1 条',
});
export const CounterInline = counter(
  '字数：变量短信一行',
  '尊敬的张三，您好。',
  '优品生活',
  { counter: '15 / 500，预计每个号码计费 1 条' },
  { layout: 'inline' },
);

export const CounterTooLong: Story = {
  name: '字数：超过500字',
  args: { children: <ContentCounter pieces={countPieces({ content: '长'.repeat(499), sign: '优品' })} explain /> },
  play: async ({ canvasElement }) => {
    const el = await within(canvasElement).findByTestId('content-counter', {}, T);
    await expect(el).toHaveTextContent('503 / 500');
    await expect(el.className).toMatch(/danger/);
  },
};

// ---- numbers source ----

function SourceHarness({ initial, fileFirst }: { initial: NumberMode; fileFirst?: boolean }) {
  const [mode, setMode] = useState<NumberMode>(initial);
  return (
    <Pieces>
      <NumberSource
        value={mode}
        onChange={setMode}
        fileLabel={fileFirst ? '导入变量文件' : '导入文件'}
        fileFirst={fileFirst}
        typed={<div data-testid="typed">手动输入的号码</div>}
        file={<div data-testid="file">上传的文件</div>}
      />
    </Pieces>
  );
}

export const SourceTyped: Story = {
  name: '号码来源：手动输入，切换到文件',
  render: () => <SourceHarness initial={0} />,
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('typed', {}, T)).toBeInTheDocument();
    await expect(c.queryByTestId('file')).toBeNull();
    const labels = [...c.getByTestId('number-mode').querySelectorAll('label')].map((l) => l.textContent);
    await expect(labels).toEqual(['手动输入', '导入文件']);
    await userEvent.click(c.getByText('导入文件'));
    await expect(await c.findByTestId('file', {}, T)).toBeInTheDocument();
    await expect(c.queryByTestId('typed')).toBeNull();
  },
};

export const SourceFileFirst: Story = {
  name: '号码来源：变量文件在前',
  render: () => <SourceHarness initial={1} fileFirst />,
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('file', {}, T)).toBeInTheDocument();
    const labels = [...c.getByTestId('number-mode').querySelectorAll('label')].map((l) => l.textContent);
    await expect(labels).toEqual(['导入变量文件', '手动输入']);
  },
};

// ---- send time ----

function TimeHarness({
  kind,
  initial,
  note,
  help,
}: {
  kind: 'ordinary' | 'international';
  initial: number;
  note?: string;
  help?: string;
}) {
  const [sendType, setSendType] = useState(initial);
  const [sendtime, setSendtime] = useState(() => businessNow().add(30, 'minute').second(0));
  return (
    <Pieces>
      <SendTimeField
        kind={kind}
        sendType={sendType}
        sendtime={sendtime}
        onType={setSendType}
        onTime={setSendtime}
        status={help ? error(help) : undefined}
        scheduledNote={note}
      />
    </Pieces>
  );
}

export const TimeNow: Story = {
  name: '发送时间：立即发送，切换到定时',
  render: () => <TimeHarness kind="ordinary" initial={SendTimeType.Immediate} note="定时说明" />,
  play: async ({ canvas: c }) => {
    await c.findByTestId('send-type', {}, T);
    await expect(c.queryByTestId('sendtime')).toBeNull();
    await expect(c.queryByText('定时说明')).toBeNull();
    await userEvent.click(c.getByText('定时发送'));
    await expect(await c.findByTestId('sendtime', {}, T)).toBeInTheDocument();
    await expect(c.getByText('定时说明')).toBeInTheDocument();
  },
};

/** the picker's cell of a day, 'YYYY-MM-DD' */
const cell = (day: string) => document.body.querySelector<HTMLElement>(`.ant-picker-dropdown td[title="${day}"]`);

export const TimeScheduledOrdinary: Story = {
  name: '发送时间：普通短信定时，今天起可选',
  render: () => <TimeHarness kind="ordinary" initial={SendTimeType.Scheduled} />,
  play: async ({ canvas: c }) => {
    const picker = await c.findByTestId('sendtime', {}, T);
    await expect(picker).toHaveValue(businessNow().add(30, 'minute').format('YYYY-MM-DD HH:mm:00'));
    await userEvent.click(picker);
    const today = businessNow().format('YYYY-MM-DD');
    await waitFor(() => expect(cell(today)).not.toBeNull(), T);
    await expect(cell(today)!.className).not.toMatch(/disabled/);
    const yesterday = businessNow().subtract(1, 'day').format('YYYY-MM-DD');
    if (cell(yesterday)) await expect(cell(yesterday)!.className).toMatch(/disabled/);
  },
};

export const TimeScheduledInternational: Story = {
  name: '发送时间：国际短信定时，24小时内，不可取消提示，时间错误',
  render: () => (
    <TimeHarness
      kind="international"
      initial={SendTimeType.Scheduled}
      note="国际短信定时发送后不可取消"
      help="定时发送时间须在24小时之内"
    />
  ),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('定时发送时间须在24小时之内', {}, T)).toBeInTheDocument();
    await expect(c.getByText('国际短信定时发送后不可取消')).toBeInTheDocument();
    await userEvent.click(c.getByTestId('sendtime'));
    const inTwoDays = businessNow().add(2, 'day').format('YYYY-MM-DD');
    const tomorrow = businessNow().add(1, 'day').format('YYYY-MM-DD');
    await waitFor(() => expect(cell(businessNow().format('YYYY-MM-DD'))).not.toBeNull(), T);
    if (cell(tomorrow)) await expect(cell(tomorrow)!.className).not.toMatch(/disabled/);
    if (cell(inTwoDays)) await expect(cell(inTwoDays)!.className).toMatch(/disabled/);
  },
};

// ---- the charge confirmation ----

const countries = [
  { intercode: 'US', countryCode: '1', countryName: '美国', num: 2, fee: '0.0600' },
  { intercode: 'GB', countryCode: '44', countryName: '英国', num: 1, fee: '0.3000' },
];

const dialog = (
  name: string,
  info: ChargeFigures,
  props: { numbers?: number; sendtime?: string; wide?: boolean },
  expected: string[],
  absent: string[] = [],
): Story => ({
  name,
  render: () => <ChargeDialog info={info} sending={false} onOk={fn()} onCancel={fn()} {...props} />,
  play: async () => {
    const el = await body().findByTestId('charge-info', {}, T);
    for (const text of expected) await expect(el.closest('.ant-modal') as HTMLElement).toHaveTextContent(text);
    for (const text of absent) await expect(el.closest('.ant-modal') as HTMLElement).not.toHaveTextContent(text);
  },
});

export const ChargeByAmount = dialog(
  '计费确认：按金额扣费',
  { smsNum: 1, chargeNum: 2, chargeMode: 0, amount: '0.09', balance: '1200.00' },
  { numbers: 2 },
  ['发送号码数2 个', '单条短信计费1 条', '计费总条数2 条', '扣费金额', '0.09', '账户余额', '确认发送'],
  ['剩余条数', '短信字数'],
);
export const ChargeByPieces = dialog(
  '计费确认：按条数（产品包）',
  { smsNum: 2, chargeNum: 4, submitTotal: 2, chargeMode: 1, remainPieces: 9000 },
  {},
  ['发送号码数2 个', '计费总条数4 条', '剩余条数9,000 条'],
  ['扣费金额'],
);
export const ChargeScheduled = dialog(
  '计费确认：定时发送',
  { smsNum: 1, chargeNum: 1, submitTotal: 1, chargeMode: 0, amount: '0.05' },
  { sendtime: '2026-11-23 10:30:00' },
  ['定时发送时间2026-11-23 10:30:00', '确认定时发送'],
);
export const ChargeInternational = dialog(
  '计费确认：国际短信，国际余额与国家',
  {
    chars: 12,
    smsNum: 1,
    submitTotal: 3,
    chargeNum: 3,
    chargeMode: 1,
    amount: '0.42',
    remainAmount: '99.58',
    countries,
  },
  { wide: true },
  ['短信字数12 字（内容 + 签名 + 2）', '扣除国际短信余额', '国际短信余额', '99.58', '美国', '+44'],
  ['剩余条数'],
);
