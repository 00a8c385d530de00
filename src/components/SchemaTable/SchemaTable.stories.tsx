import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
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
}));

const meta: Meta<typeof SchemaTable> = { title: 'Components/SchemaTable', component: SchemaTable, parameters: { layout: 'padded' } };
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
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('columnheader', { name: '签名' })).toBeInTheDocument(); // schema label
    await expect(c.getAllByText('审核通过').length).toBeGreaterThan(0); // enum label
    await expect(c.getByText('共 40 条')).toBeInTheDocument();
  },
};

export const SinglePageHidesPager: Story = {
  args: { entity: 'entities/sign', columns, dataSource: rows.slice(0, 3), pagination: { current: 1, pageSize: 15, total: 3 } },
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
