import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, userEvent, waitFor, within } from 'storybook/test';
import { businessNow } from '@/lib/businessTime';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { pathOf } from '@/stories/pageRows';
import { listStates, NO_EXPORT_DATA, refusedExport } from '@/stories/listStates';
import { consoleApi, subAccount, msw } from '@/stories/mockApi';
import { refuse, sendApi, type Calls } from '@/stories/sendApi';
import { SendRecordList } from './SendRecordList';
import { sendRecords } from './data';

const calls: Calls = {};

const RECORDS = pathOf('statistics_sendrecord');

const meta = {
  title: 'Sending/SendRecordList',
  component: SendRecordList,
  decorators: [withApp],
  parameters: {
    app: { path: RECORDS },
    ...msw(...consoleApi(), ...sendApi({ calls })),
  },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof SendRecordList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = {
  name: '近90天，每页10条，状态颜色',
  play: async ({ canvas: c }) => {
    await c.findByText('13012345678', {}, T);
    await expect(calls.getrecords?.[0]).toMatchObject({
      page: '1',
      rows: '10',
      beginDate: businessNow().subtract(89, 'day').format('YYYY-MM-DD'),
      endDate: businessNow().format('YYYY-MM-DD'),
    });
    // colours from enums/send-record-status x-color
    await expect(c.getByText('明确成功').closest('.ant-tag')).toHaveClass('ant-tag-green');
    await expect(c.getByText('明确失败').closest('.ant-tag')).toHaveClass('ant-tag-red');
    await expect(c.getByText('未发送').closest('.ant-tag')).toHaveClass('ant-tag-gold');
    await expect(c.getByText('广东 广州市')).toBeInTheDocument();
    await expect(c.getByTestId('province-select')).toBeInTheDocument();
  },
};

export const StateFilter: Story = {
  name: '按多个状态查询',
  play: async ({ canvas: c }) => {
    await c.findByText('13012345678', {}, T);
    const select = c.getByText('全部发送状态').closest('.ant-select') as HTMLElement;
    await userEvent.click(select.querySelector('.ant-select-selector') as HTMLElement);
    await userEvent.click(await body().findByText('明确失败', { selector: '.ant-select-item-option-content' }, T));
    await userEvent.click(await body().findByText('未发送', { selector: '.ant-select-item-option-content' }, T));
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.getrecords?.at(-1)).toMatchObject({ stateList: '6,0' }), T);
    await waitFor(() => expect(c.queryByText('13800138000')).toBeNull(), T);
  },
};

export const ProvinceAndCity: Story = {
  name: '按省份、城市查询',
  play: async ({ canvas: c }) => {
    await c.findByText('13012345678', {}, T);
    await userEvent.click(c.getByTestId('province-select').querySelector('.ant-select-selector') as HTMLElement);
    await userEvent.click(await body().findByText('广东', { selector: '.ant-select-item-option-content' }, T));
    await waitFor(() => expect(calls.cityList?.at(-1)).toEqual({ provinceId: '44' }), T);
    await userEvent.click(c.getByTestId('city-select').querySelector('.ant-select-selector') as HTMLElement);
    await userEvent.click(await body().findByText('广州市', { selector: '.ant-select-item-option-content' }, T));
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.getrecords?.at(-1)).toMatchObject({ province: '44', city: '443750' }), T);
  },
};

export const SubAccount: Story = {
  name: '子账户',
  parameters: msw(...consoleApi({ user: subAccount }), ...sendApi({ calls })),
  play: async ({ canvas: c }) => {
    await c.findByText('13012345678', {}, T);
    await expect(c.queryByTestId('client-select')).toBeNull();
  },
};

/** kept since 30 days ago: the default 90 days reach before it */
const keptFrom = () => businessNow().subtract(30, 'day').format('YYYY-MM-DD');

export const RetentionNotice: Story = {
  name: '部分超出保留期：提示只能查询近N个月',
  parameters: msw(...consoleApi(), ...sendApi({ calls, recordRetention: { months: 6, from: keptFrom() } })),
  play: async ({ canvas: c }) => {
    // the kept part is listed, under the notice
    await c.findByText('13012345678', {}, T);
    await expect(await c.findByTestId('record-retention', {}, T)).toHaveTextContent(
      `只能查询近6个月的发送记录（${keptFrom()} 起）`,
    );
  },
};

export const InsideRetention: Story = {
  name: '保留期内：无提示',
  parameters: {
    app: { path: `${RECORDS}?beginDate=${keptFrom()}` },
    ...msw(...consoleApi(), ...sendApi({ calls, recordRetention: { months: 6, from: keptFrom() } })),
  },
  play: async ({ canvas: c }) => {
    await c.findByText('13012345678', {}, T);
    await expect(calls.getrecords?.[0]?.beginDate).toBe(keptFrom());
    await expect(c.queryByTestId('record-retention')).toBeNull();
  },
};

export const PastRetention: Story = {
  name: '整个范围超出保留期：提示，不显示空表',
  parameters: msw(refuse('send/getrecords', 400, '只能查询近6个月的发送记录'), ...consoleApi(), ...sendApi({ calls })),
  play: async ({ canvasElement }) => {
    await expect(await body().findByText('只能查询近6个月的发送记录', {}, T)).toBeInTheDocument();
    // the list says why it has no rows, not 暂无数据 alone
    await expect(await within(canvasElement).findAllByText('只能查询近6个月的发送记录', {}, T)).not.toHaveLength(0);
  },
};

export const ExportRecords: Story = {
  name: '导出记录（再下载文件）',
  play: async ({ canvas: c }) => {
    await c.findByText('13012345678', {}, T);
    await userEvent.click(c.getByRole('button', { name: /导出记录/ }));
    await waitFor(
      () =>
        expect(calls.exportrecords?.[0]).toMatchObject({
          beginDate: businessNow().subtract(89, 'day').format('YYYY-MM-DD'),
        }),
      T,
    );
    await waitFor(() => expect(calls.downloadExport?.[0]).toEqual({ filePath: 'exports/send-records-1.xlsx' }), T);
  },
};

export const ExportTooMany: Story = {
  name: '导出记录：超过100万',
  parameters: msw(
    refuse('send/exportrecords', 400, '导出记录数不能大于100万。'),
    ...consoleApi(),
    ...sendApi({ calls }),
  ),
  play: refusedExport('导出记录数不能大于100万。', { after: '13012345678', button: /导出记录/ }),
};

export const ExportNumbersNoData: Story = {
  name: '导出号码：无数据',
  parameters: msw(
    refuse('send/exportRecordsTxt', 400, '当前条件没有数据，无法导出'),
    ...consoleApi(),
    ...sendApi({ calls }),
  ),
  play: refusedExport(NO_EXPORT_DATA, { after: '13012345678', button: /导出号码/ }),
};

export const CodesExplained: Story = {
  name: '状态报告与错误码显示含义（代码在提示中）',
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByText('13012345678', {}, T);
    // enums/receipt-code: UNDELIV → 无法送达…, DELIVRD → 已送达（成功）; the code stays beside it
    await expect(c.getAllByText('无法送达（空号、停机或关机）').length).toBe(2);
    await expect(c.getAllByText('已送达（成功）').length).toBe(2);
    const cell = canvasElement.querySelector('[data-code="UNDELIV"]') as HTMLElement;
    await expect(cell).toHaveTextContent('UNDELIV');
    await userEvent.hover(cell);
    await expect(await body().findByText('代码：UNDELIV', {}, T)).toBeInTheDocument();
    // the task number of each record
    await expect(c.getAllByText('T202611230002').length).toBe(2);
  },
};

export const LinkedFromTask: Story = {
  name: '从任务详情进入：按任务编号查询',
  parameters: { app: { path: `${RECORDS}?taskId=T202611230003&beginDate=2026-01-05` } },
  play: async ({ canvas: c }) => {
    await c.findByText('18912345678', {}, T);
    await expect(calls.getrecords?.[0]).toMatchObject({
      taskId: 'T202611230003',
      beginDate: '2026-01-05',
      endDate: businessNow().format('YYYY-MM-DD'),
    });
    await expect(c.queryByText('13800138000')).toBeNull();
    await expect(c.getByDisplayValue('T202611230003')).toBeInTheDocument();
  },
};

export const NumberHistory: Story = {
  name: '号码历史：点击号码查看它在各任务中的记录',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByText('13012345678', {}, T));
    await waitFor(() => expect(calls.getrecords?.at(-1)).toMatchObject({ phone: '13012345678' }), T);
    await expect(calls.getrecords?.at(-1)?.taskId).toBeUndefined();
    await waitFor(() => expect(c.queryByText('13800138000')).toBeNull(), T);
    await expect(c.getByDisplayValue('13012345678')).toBeInTheDocument();
  },
};

export const BadPhoneOneToast: Story = {
  name: '号码格式不正确：只提示一次，不查询',
  play: async ({ canvas: c }) => {
    await c.findByText('13012345678', {}, T);
    const before = calls.getrecords?.length ?? 0;
    void fireEvent.change(c.getByLabelText('手机号码'), { target: { value: '138abc' } });
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await expect(await body().findByText('手机号码格式不正确', {}, T)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 400));
    await expect(body().getAllByText('手机号码格式不正确').length).toBe(1);
    await expect(calls.getrecords?.length ?? 0).toBe(before);
  },
};

const states = listStates(sendRecords, [...consoleApi(), ...sendApi()]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
