import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { listStates, NO_EXPORT_DATA, refusedExport } from '@/stories/listStates';
import { consoleApi, subAccount, msw, type Calls } from '@/stories/mockApi';
import { pathOf } from '@/stories/pageRows';
import { columns, rowWith } from '@/stories/play';
import { labelled } from '@/stories/rows';
import { SignList } from './SignList';
import { exportNoData, signApi, signRows } from './signs.mock';
import { signs } from './data';
import { SignState } from '@/generated/schemas';

const calls: Calls = {};

const meta = {
  title: 'Signs/SignReport',
  component: SignList,
  decorators: [withApp],
  parameters: { app: { path: pathOf('template_SignReport') }, ...msw(...consoleApi(), ...signApi({ calls })) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof SignList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Agent: Story = {
  name: '代理商',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('易购优选', {}, T)).toBeInTheDocument();
    // agent-only sub-account filter and columns
    await expect(c.getByTestId('client-select')).toBeInTheDocument();
    await expect(columns(c)).toEqual(
      expect.arrayContaining(['序号', '子账户', '账户名称', '签名', '创建人', '创建时间', '备注', '状态', '操作']),
    );
    await expect(c.getAllByText('审核通过').length).toBeGreaterThan(0);
    await expect(c.getByText('待审核')).toBeInTheDocument();
    await expect(calls.list?.[0]).toMatchObject({ currentPage: '1', pageRowCount: '15' });
  },
};

export const SearchBySign: Story = {
  name: '按签名查询',
  play: async ({ canvas: c }) => {
    await c.findByText('易购优选', {}, T);
    await userEvent.type(c.getByPlaceholderText('签名'), '好易购');
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.list?.at(-1)).toMatchObject({ sign: '好易购' }), T);
    await waitFor(() => expect(c.queryByText('易购优选')).toBeNull(), T);
    await expect(c.getByText('苏州好易购')).toBeInTheDocument();
  },
};

export const SubAccount: Story = {
  name: '子账户',
  parameters: msw(
    ...consoleApi({ user: subAccount }),
    ...signApi({ rows: signRows.filter((r) => r.clientid === 'b20002') }),
  ),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('好易购', {}, T)).toBeInTheDocument();
    await expect(c.queryByTestId('client-select')).toBeNull();
    await expect(columns(c)).not.toContain('子账户');
    await expect(columns(c)).toContain('签名');
  },
};

export const RejectedRows: Story = {
  name: '审核不通过显示原因',
  parameters: msw(...consoleApi(), ...signApi({ rows: signRows.filter((r) => r.state === SignState.Rejected) })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('审核不通过', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('sign-cause')).toHaveTextContent('原因：签名与企业名称不符，请补充商标注册证或授权书');
  },
};

export const DeleteWithConfirmation: Story = {
  name: '删除（确认后）',
  parameters: msw(
    ...consoleApi(),
    ...signApi({
      calls,
      rows: [
        ...signRows,
        labelled(signs.entity, { ...signRows[3], id: 99, sign: '已删签名', state: SignState.Deleted }),
      ],
    }),
  ),
  play: async ({ canvas: c }) => {
    await userEvent.click(within(await rowWith(c, '易购优选')).getByRole('button', { name: /删\s*除/ }));
    await expect(await body().findByText('确定删除该签名吗？', {}, T)).toBeInTheDocument();
    await userEvent.click(body().getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.update?.[0]).toEqual({ id: '104', state: '4' }), T);
    await expect(await body().findByText('删除成功', {}, T)).toBeInTheDocument();
  },
};

export const ExportNoData: Story = {
  name: '导出：无数据',
  parameters: msw(exportNoData, ...consoleApi(), ...signApi()),
  play: refusedExport(NO_EXPORT_DATA, { after: '易购优选' }),
};

export const ExportWithFilters: Story = {
  name: '导出：带查询条件',
  play: async ({ canvas: c }) => {
    await c.findByText('易购优选', {}, T);
    await userEvent.type(c.getByPlaceholderText('签名'), '好易购');
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.list?.at(-1)).toMatchObject({ sign: '好易购' }), T);
    await userEvent.click(c.getByRole('button', { name: /导\s*出/ }));
    // with the list's default range (the last 90 days: filters/sign x-default-days)
    const day = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/);
    await waitFor(() => expect(calls.export?.[0]).toEqual({ sign: '好易购', start_time: day, end_time: day }), T);
  },
};

const states = listStates(signs, [...consoleApi(), ...signApi()]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
