import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { Button } from 'antd';
import { SchemaTable } from './SchemaTable';

const rows = Array.from({ length: 15 }, (_, i) => ({
  id: i + 1,
  rownum: i + 1,
  clientid: `b0000${i % 3}`,
  sign: ['云讯通', '快递通知', '银行提醒'][i % 3],
  state: [0, 1, 2, 4][i % 4],
  createDate: `2026-11-${String(1 + i).padStart(2, '0')} 10:00:00`,
  cause: i % 4 === 2 ? '签名与企业名称不符' : '',
  clientName: i === 0 ? '上海云讯通信科技有限公司华东区域第一分公司营销推广中心（长名称）' : '上海优品电商有限公司',
}));

const meta: Meta<typeof SchemaTable> = {
  title: 'Components/SchemaTable',
  component: SchemaTable,
  parameters: { layout: 'padded' },
};
export default meta;
type Story = StoryObj<typeof SchemaTable>;

const columns = ['rownum', 'clientid', 'sign', 'state', 'createDate', 'cause'];

export const Filled: Story = {
  args: {
    entity: 'entities/sign',
    columns,
    dataSource: rows,
    pagination: { current: 1, pageSize: 15, total: 40 },
    extraColumns: [{ key: 'op', title: '操作', render: () => <Button type="link">删除</Button> }],
  },
  play: async ({ canvas: c }) => {
    await expect(c.getByRole('columnheader', { name: '签名' })).toBeInTheDocument(); // schema label
    await expect(c.getAllByText('审核通过').length).toBeGreaterThan(0); // enum label
    await expect(c.getByText('共 40 条')).toBeInTheDocument();
  },
};

/**
 * Issue 41: the key columns of the schema (`x-table.key`: the sign's 状态 and 创建时间) come right
 * after the row number whatever the screen's order, a status before the times.
 */
export const KeyColumnsFirst: Story = {
  args: {
    entity: 'entities/sign',
    columns: ['rownum', 'clientid', 'clientName', 'sign', 'createDate', 'cause', 'state'],
    dataSource: rows.slice(0, 3),
  },
  play: async ({ canvas: c }) => {
    const titles = c.getAllByRole('columnheader').map((th) => th.textContent?.trim());
    await expect(titles.slice(0, 4)).toEqual(['序号', '状态', '创建时间', '子账户']);
    await expect(c.getByRole('columnheader', { name: '状态' })).toHaveClass('schema-table-key');
  },
};

/**
 * Issue 41 item 2: a list adds its own key columns (`isKey`: here the cause) and drops one of the
 * entity's (the time): after the row number, the status first, then the list's own.
 */
export const ListOwnKeyColumns: Story = {
  args: {
    entity: 'entities/sign',
    columns: [
      'rownum',
      'clientid',
      'sign',
      { field: 'createDate', isKey: false },
      { field: 'cause', isKey: true },
      'state',
    ],
    dataSource: rows.slice(0, 3),
  },
  play: async ({ canvas: c }) => {
    const titles = c.getAllByRole('columnheader').map((th) => th.textContent?.trim());
    await expect(titles).toEqual(['序号', '状态', '驳回原因', '子账户', '签名', '创建时间']);
    await expect(c.getByRole('columnheader', { name: '驳回原因' })).toHaveClass('schema-table-key');
    await expect(c.getByRole('columnheader', { name: '创建时间' })).not.toHaveClass('schema-table-key');
  },
};

export const SinglePageHidesPager: Story = {
  args: {
    entity: 'entities/sign',
    columns,
    dataSource: rows.slice(0, 3),
    pagination: { current: 1, pageSize: 15, total: 3 },
  },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ant-pagination')).toBeNull();
  },
};

export const Empty: Story = {
  args: { entity: 'entities/sign', columns, dataSource: [], pagination: { current: 1, pageSize: 15, total: 0 } },
  play: async ({ canvasElement }) => expect(canvasElement.querySelector('.ant-empty')).not.toBeNull(),
};

export const Loading: Story = {
  args: { entity: 'entities/sign', columns, dataSource: [], loading: true },
  play: async ({ canvasElement }) => expect(canvasElement.querySelector('.ant-spin')).not.toBeNull(),
};

/** A load failure: its message and 重试 in place of 暂无数据, no pager. */
export const LoadError: Story = {
  args: {
    entity: 'entities/sign',
    columns,
    dataSource: rows,
    pagination: { current: 1, pageSize: 15, total: 40 },
    listError: { message: '接口异常（502）', retry: fn() },
  },
  play: async ({ canvas: c, args, canvasElement }) => {
    await expect(c.getByText('接口异常（502）')).toBeInTheDocument();
    await expect(c.queryByText('暂无数据')).toBeNull();
    await expect(c.queryByText('云讯通')).toBeNull(); // stale rows are not shown as if loaded
    await expect(canvasElement.querySelector('.ant-pagination')).toBeNull();
    await userEvent.click(c.getByRole('button', { name: /重\s*试/ }));
    await expect(args.listError!.retry).toHaveBeenCalledTimes(1);
  },
};

/** The page-size choice (10 / 15 / 20 / 50 / 100) beside the pager. */
export const PageSizeChoice: Story = {
  args: {
    entity: 'entities/sign',
    columns,
    dataSource: rows,
    pagination: { current: 1, pageSize: 15, total: 40, onChange: fn() },
  },
  play: async ({ canvasElement, args }) => {
    const changer = canvasElement.querySelector('.ant-pagination-options-size-changer');
    await expect(changer).not.toBeNull();
    await expect(within(canvasElement).getByText('15 条/页')).toBeInTheDocument();
    await userEvent.click(changer!.querySelector('.ant-select-selector')!);
    const option = await within(document.body).findByText('50 条/页');
    await userEvent.click(option);
    const pagination = args.pagination as { onChange: ReturnType<typeof fn> };
    await waitFor(() => expect(pagination.onChange).toHaveBeenCalledWith(1, 50));
  },
};

/** 合计: the entity's `x-table.sum` columns added up over the rows shown. */
export const Totals: Story = {
  args: {
    entity: 'entities/remain-row',
    columns: ['rownum', 'client_id', 'product_type_str', 'account_balance', 'due_time'],
    rowKey: 'rownum',
    totals: true,
    dataSource: [
      { rownum: 1, client_id: 'b00001', product_type_str: '行业', account_balance: 12000, due_time: '2027-01-01' },
      { rownum: 2, client_id: 'b00002', product_type_str: '营销', account_balance: 8496, due_time: '2027-02-01' },
    ],
    pagination: { current: 1, pageSize: 15, total: 2 },
  },
  play: async ({ canvasElement }) => {
    const totals = within(within(canvasElement).getByTestId('table-totals'));
    await expect(totals.getByText('合计')).toBeInTheDocument();
    await expect(totals.getByText('20,496')).toBeInTheDocument();
  },
};

const wideColumns = ['rownum', 'clientid', 'clientName', 'sign', 'userName', 'state', 'createDate', 'remarks', 'cause'];

/** Column settings on a wide table: a column hidden stays hidden (per entity, localStorage). */
export const ColumnSettings: Story = {
  args: {
    entity: 'entities/sign',
    columns: wideColumns,
    dataSource: rows,
    pagination: { current: 1, pageSize: 15, total: 15 },
  },
  beforeEach: () => localStorage.removeItem('schema-table-hidden:entities/sign'),
  play: async ({ canvas: c }) => {
    await expect(c.getByRole('columnheader', { name: '创建人' })).toBeInTheDocument();
    await userEvent.click(c.getByRole('button', { name: /列设置/ }));
    const panel = within(await within(document.body).findByRole('tooltip'));
    await userEvent.click(panel.getByRole('checkbox', { name: '创建人' }));
    await waitFor(() => expect(c.queryByRole('columnheader', { name: '创建人' })).toBeNull());
    await expect(JSON.parse(localStorage.getItem('schema-table-hidden:entities/sign') ?? '[]')).toEqual(['userName']);
    await userEvent.click(panel.getByRole('checkbox', { name: '创建人' }));
    await waitFor(() => expect(c.getByRole('columnheader', { name: '创建人' })).toBeInTheDocument());
  },
};

/**
 * A phone's width (390 px): no cell wraps (the table scrolls sideways), long names are cut with a
 * tooltip, the key column stays fixed on the left.
 */
export const NarrowWidth: Story = {
  args: {
    entity: 'entities/sign',
    columns: wideColumns,
    dataSource: rows,
    pagination: { current: 1, pageSize: 15, total: 40 },
  },
  beforeEach: () => localStorage.removeItem('schema-table-hidden:entities/sign'),
  decorators: [
    (Story) => (
      <div style={{ width: 358 }} data-testid="narrow">
        <Story />
      </div>
    ),
  ],
  play: async ({ canvasElement }) => {
    const content = canvasElement.querySelector<HTMLElement>('.ant-table-content')!;
    await waitFor(() => expect(content.scrollWidth).toBeGreaterThan(content.clientWidth)); // scrolls sideways
    const cells = [...canvasElement.querySelectorAll<HTMLElement>('.ant-table-tbody td, .ant-table-thead th')];
    const lineHeight = 22;
    for (const cell of cells) await expect(cell.getBoundingClientRect().height).toBeLessThan(lineHeight * 3.2); // one line (tags and padding), never a column of characters
    const long = within(canvasElement).getByText(rows[0].clientName);
    await expect(long.closest('.schema-table-ellipsis')).not.toBeNull();
    await expect(long.closest('.schema-table-ellipsis')!.getBoundingClientRect().width).toBeLessThanOrEqual(240);
    await userEvent.hover(long);
    await expect(await within(document.body).findByRole('tooltip')).toHaveTextContent(rows[0].clientName);
  },
};
