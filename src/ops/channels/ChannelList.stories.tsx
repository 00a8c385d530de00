import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import { columns, dialogNamed, fieldOf, openOptions, popconfirmButton, rowWith } from '@/stories/play';
import { admin, opsApi, opsAt } from '@/stories/opsApi';
import { enumLabel, schemas } from '@/schema';
import { Carrier } from '@/generated/schemas';
import ChannelList from './ChannelList';
import { channelsApi, defaultLinkRow } from './channels.mock';
import { operatorChannels } from './data';

const shell = opsApi({ operator: admin });
const calls: Record<string, Record<string, unknown>[]> = {};
const entity = schemas.get('entities/operator-channel')['x-messages'] as { fromFile: string; defaultLink: string };

const meta = {
  title: 'Ops/通道',
  component: ChannelList,
  decorators: [withApp],
  parameters: { app: opsAt('ops_channels'), ...msw(...channelsApi({ calls }), ...shell) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof ChannelList>;
export default meta;
type Story = StoryObj<typeof meta>;

/** the story's calls with the server refusing `action` with `code` and `msg` */
const refusing = (action: string, code: number, msg: string) =>
  msw(...channelsApi({ calls, refuse: { [action]: { code, msg } } }), ...shell);

/** the table row of a channel */
const rowOf = (canvasElement: HTMLElement, name: string) => rowWith(within(canvasElement), name);
/** the dialog's input, once the form's code has loaded */
const field = (dialog: ReturnType<typeof within>, label: RegExp) => fieldOf(dialog, label, 'input');

export const List: Story = {
  name: '列表（设置与计数）',
  play: async ({ canvas: c, canvasElement }) => {
    const main = await rowOf(canvasElement, 'cmcc-main');
    await expect(main).toHaveTextContent('cmpp://901234@10.0.0.1:7891');
    await expect(main).toHaveTextContent('启用');
    await expect(within(main).getByTestId('channel-bound')).toHaveTextContent('已连接 2/2');
    // another day's count time in full (today's as HH:mm:ss)
    await expect(main).toHaveTextContent('计数于 2026-11-24 10:15:20');
    await expect(main).toHaveTextContent(enumLabel('carrier', Carrier.Mobile)!);
    await expect(within(main).getByTestId('channel-routing')).toHaveTextContent(
      '全部类型· 优先级 0 · 权重 3 · 限速 500/秒',
    );
    await expect(main).toHaveTextContent('18,452');
    await expect(within(main).getByRole('button', { name: /暂\s*停/ })).toBeInTheDocument();
    const backup = await rowOf(canvasElement, 'backup');
    await expect(backup).toHaveTextContent('已暂停');
    await expect(backup).toHaveTextContent('全部国内');
    await expect(within(backup).getByRole('button', { name: /恢\s*复/ })).toBeInTheDocument();
    // the file's channel: read-only, with the reason
    const intl = await rowOf(canvasElement, 'intl');
    await expect(intl).toHaveTextContent('配置文件');
    await expect(within(intl).queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    await userEvent.hover(within(intl).getByTestId('channel-read-only'));
    await expect(await body().findByText(entity.fromFile, {}, T)).toBeInTheDocument();
    await expect(columns(c)).toEqual(
      expect.arrayContaining([
        '通道',
        '状态',
        '路由',
        '提交',
        '接受',
        '拒绝',
        '重试',
        '未确认',
        '回执',
        '时延(ms)',
        '操作',
      ]),
    );
    await expect(c.getByTestId('channels-updated')).toHaveTextContent(/每 10 秒自动刷新，更新于 \d\d:\d\d:\d\d/);
    await expect(c.queryByTestId('default-link')).toBeNull();
  },
};

/** The counters are live: the list is asked again every 10 s, and on 刷新. */
export const LiveCounters: Story = {
  name: '计数自动刷新与手动刷新',
  parameters: msw(...channelsApi({ calls, grow: 100 }), ...shell),
  play: async ({ canvas: c, canvasElement }) => {
    const main = await rowOf(canvasElement, 'cmcc-main');
    await expect(main).toHaveTextContent('18,452');
    await userEvent.click(c.getByRole('button', { name: /刷\s*新/ }));
    await waitFor(() => expect(main).toHaveTextContent('18,552'), T);
    // by itself, 10 s later
    await waitFor(() => expect(main).toHaveTextContent('18,652'), { timeout: 15_000 });
    await expect(calls.list?.length).toBeGreaterThanOrEqual(3);
  },
};

/** A fresh platform: no channel, everything over the default link, read-only. */
export const DefaultLink: Story = {
  name: '无通道（默认链路）',
  parameters: msw(...channelsApi({ calls, rows: [defaultLinkRow] }), ...shell),
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByTestId('default-link', {}, T)).toHaveTextContent(entity.defaultLink);
    const row = await rowOf(canvasElement, '内置模拟器');
    await expect(row).toHaveTextContent('默认链路');
    await expect(row).toHaveTextContent('已连接 1/1');
    await expect(within(row).getByTestId('channel-read-only')).toBeInTheDocument();
  },
};

export const Add: Story = {
  name: '新增通道',
  play: async ({ canvas: c, canvasElement }) => {
    await rowOf(canvasElement, 'cmcc-main');
    await userEvent.click(c.getByRole('button', { name: /新增通道/ }));
    const dialog = await dialogNamed('新增通道');
    await userEvent.type(await field(dialog, /通道名/), 'telecom2');
    // the address is required for a new channel
    await userEvent.click(dialog.getByRole('button', { name: /保\s*存/ }));
    await expect(await dialog.findByText('请输入通道地址', {}, T)).toBeInTheDocument();
    await expect(calls.save).toBeUndefined();
    await userEvent.type(dialog.getByLabelText(/^地址/, { selector: 'input' }), ' smpp://sys9:Pw9@10.0.0.7:2775 ');
    await userEvent.click(dialog.getAllByRole('combobox')[0]);
    await expect(openOptions()).toEqual([
      enumLabel('carrier', Carrier.Mobile),
      enumLabel('carrier', Carrier.Unicom),
      enumLabel('carrier', Carrier.Telecom),
    ]);
    await userEvent.click(await body().findByTitle(enumLabel('carrier', Carrier.Telecom)!, {}, T));
    await userEvent.click(dialog.getByRole('button', { name: /保\s*存/ }));
    await waitFor(
      () =>
        expect(calls.save?.[0]).toMatchObject({
          name: 'telecom2',
          url: 'smpp://sys9:Pw9@10.0.0.7:2775',
          carriers: [Carrier.Telecom],
          priority: 0,
          weight: 1,
        }),
      T,
    );
    await expect(await body().findByText('通道已保存，运行中的工作进程数秒内生效', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(calls.list?.length).toBeGreaterThanOrEqual(2), T);
  },
};

/** The server's parser refuses the address: its message stays in the dialog. */
export const AddRefused: Story = {
  name: '新增被拒绝（地址有误）',
  parameters: refusing('save', 400, '通道设置有误：不支持的协议 ftp'),
  play: async ({ canvas: c, canvasElement }) => {
    await rowOf(canvasElement, 'cmcc-main');
    await userEvent.click(c.getByRole('button', { name: /新增通道/ }));
    const dialog = await dialogNamed('新增通道');
    await userEvent.type(await field(dialog, /通道名/), 'bad1');
    await userEvent.type(dialog.getByLabelText(/^地址/, { selector: 'input' }), 'ftp://x');
    await userEvent.click(dialog.getByRole('button', { name: /保\s*存/ }));
    await expect(await dialog.findByTestId('channel-refusal', {}, T)).toHaveTextContent(
      '通道设置有误：不支持的协议 ftp',
    );
    await expect(body().getByRole('dialog', { name: '新增通道' })).toBeVisible();
  },
};

/** Editing keeps the stored address when the field stays empty: the field says so. */
export const Edit: Story = {
  name: '编辑（不填地址则保留）',
  play: async ({ canvasElement }) => {
    const main = await rowOf(canvasElement, 'cmcc-main');
    await userEvent.click(within(main).getByRole('button', { name: /编\s*辑/ }));
    const dialog = await dialogNamed('编辑通道 cmcc-main');
    await expect(await field(dialog, /通道名/)).toHaveValue('cmcc-main');
    await expect(dialog.getByLabelText(/通道名/, { selector: 'input' })).toBeDisabled();
    await expect(
      dialog.getByText('不填则保留原地址（cmpp://901234@10.0.0.1:7891）：地址含密码，不会显示'),
    ).toBeInTheDocument();
    const weight = dialog.getByLabelText(/权重/, { selector: 'input' });
    await userEvent.clear(weight);
    await userEvent.type(weight, '5');
    await userEvent.click(dialog.getByRole('button', { name: /保\s*存/ }));
    await waitFor(
      () =>
        expect(calls.save?.[0]).toEqual({
          name: 'cmcc-main',
          carriers: [Carrier.Mobile],
          international: false,
          smsTypes: [],
          priority: 0,
          weight: 5,
          maxPerSecond: 500,
        }),
      T,
    );
    await expect(await body().findByText('通道已保存，运行中的工作进程数秒内生效', {}, T)).toBeInTheDocument();
  },
};

export const Pause: Story = {
  name: '暂停（确认后）',
  play: async ({ canvasElement }) => {
    const main = await rowOf(canvasElement, 'cmcc-main');
    await userEvent.click(within(main).getByRole('button', { name: /暂\s*停/ }));
    await expect(await body().findByText('确定暂停通道 cmcc-main 吗？', {}, T)).toBeInTheDocument();
    await expect(calls.pause).toBeUndefined();
    await userEvent.click(await popconfirmButton(/暂\s*停/));
    await waitFor(() => expect(calls.pause?.[0]).toEqual({ name: 'cmcc-main' }), T);
    await expect(await body().findByText('通道已暂停', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(calls.list?.length).toBeGreaterThanOrEqual(2), T);
  },
};

/** The server refuses (another 管理员 removed it meanwhile): its message is toasted, the list asked again. */
export const PauseRefused: Story = {
  name: '暂停被拒绝（通道不存在）',
  parameters: refusing('pause', 404, '通道不存在'),
  play: async ({ canvasElement }) => {
    const main = await rowOf(canvasElement, 'cmcc-main');
    await userEvent.click(within(main).getByRole('button', { name: /暂\s*停/ }));
    await userEvent.click(await popconfirmButton(/暂\s*停/));
    await expect(await body().findByText('通道不存在', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(calls.list?.length).toBeGreaterThanOrEqual(2), T);
  },
};

export const Resume: Story = {
  name: '恢复',
  play: async ({ canvasElement }) => {
    const backup = await rowOf(canvasElement, 'backup');
    await userEvent.click(within(backup).getByRole('button', { name: /恢\s*复/ }));
    await waitFor(() => expect(calls.resume?.[0]).toEqual({ name: 'backup' }), T);
    await expect(await body().findByText('通道已恢复', {}, T)).toBeInTheDocument();
  },
};

export const ResumeRefused: Story = {
  name: '恢复被拒绝',
  parameters: refusing('resume', 400, entity.fromFile),
  play: async ({ canvasElement }) => {
    const backup = await rowOf(canvasElement, 'backup');
    await userEvent.click(within(backup).getByRole('button', { name: /恢\s*复/ }));
    await expect(await body().findByText(entity.fromFile, {}, T)).toBeInTheDocument();
  },
};

export const Remove: Story = {
  name: '删除（确认后）',
  play: async ({ canvasElement }) => {
    const backup = await rowOf(canvasElement, 'backup');
    await userEvent.click(within(backup).getByRole('button', { name: /删\s*除/ }));
    await expect(await body().findByText('确定删除通道 backup 吗？', {}, T)).toBeInTheDocument();
    await userEvent.click(await popconfirmButton(/删\s*除/));
    await waitFor(() => expect(calls.remove?.[0]).toEqual({ name: 'backup' }), T);
    await expect(await body().findByText('通道已删除', {}, T)).toBeInTheDocument();
  },
};

export const RemoveRefused: Story = {
  name: '删除被拒绝',
  parameters: refusing('remove', 404, '通道不存在'),
  play: async ({ canvasElement }) => {
    const backup = await rowOf(canvasElement, 'backup');
    await userEvent.click(within(backup).getByRole('button', { name: /删\s*除/ }));
    await userEvent.click(await popconfirmButton(/删\s*除/));
    await expect(await body().findByText('通道不存在', {}, T)).toBeInTheDocument();
  },
};

/** 路由预览: the number's carrier and the channels with their shares. */
export const Route: Story = {
  name: '路由预览',
  play: async ({ canvasElement }) => {
    const panel = within(await within(canvasElement).findByTestId('route-preview', {}, T));
    await userEvent.type(await waitFor(() => panel.getByLabelText(/号码/, { selector: 'input' }), T), ' 13800138000 ');
    await userEvent.click(panel.getByRole('button', { name: /预\s*览/ }));
    await waitFor(() => expect(calls.route?.[0]).toEqual({ phone: '13800138000', smstype: 0 }), T);
    const answer = within(await panel.findByTestId('route-answer', {}, T));
    await expect(answer.getByText(enumLabel('carrier', Carrier.Mobile)!)).toBeInTheDocument();
    const main = answer.getByText('cmcc-main').closest('tr') as HTMLElement;
    await expect(main).toHaveTextContent('已连接');
    await expect(main).toHaveTextContent('100%');
    await expect(answer.getByText('backup').closest('tr')).toHaveTextContent('0%');
  },
};

export const RouteNoChannel: Story = {
  name: '路由预览：没有可用的通道',
  parameters: msw(
    ...channelsApi({ calls, route: { carrier: Carrier.Telecom, candidates: [], message: '没有可用的通道' } }),
    ...shell,
  ),
  play: async ({ canvasElement }) => {
    const panel = within(await within(canvasElement).findByTestId('route-preview', {}, T));
    await userEvent.type(await waitFor(() => panel.getByLabelText(/号码/, { selector: 'input' }), T), '18912345678');
    await userEvent.click(panel.getByRole('button', { name: /预\s*览/ }));
    await expect(await panel.findByText('没有可用的通道', {}, T)).toBeInTheDocument();
    await expect(panel.queryByRole('columnheader')).toBeNull();
  },
};

/** A number the form's rule refuses is never sent; the server's refusal is shown as it is. */
export const RouteRefused: Story = {
  name: '路由预览被拒绝',
  parameters: refusing('route', 400, '号码格式错误'),
  play: async ({ canvasElement }) => {
    const panel = within(await within(canvasElement).findByTestId('route-preview', {}, T));
    const phone = await waitFor(() => panel.getByLabelText(/号码/, { selector: 'input' }), T);
    await userEvent.type(phone, '12ab');
    await userEvent.click(panel.getByRole('button', { name: /预\s*览/ }));
    await expect(await panel.findByText('号码格式错误', {}, T)).toBeInTheDocument();
    await expect(calls.route).toBeUndefined();
    await userEvent.clear(phone);
    await userEvent.type(phone, '+0000000');
    await userEvent.click(panel.getByRole('button', { name: /预\s*览/ }));
    await expect(await panel.findByTestId('route-refusal', {}, T)).toHaveTextContent('号码格式错误');
  },
};

const states = listStates(operatorChannels, shell);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
