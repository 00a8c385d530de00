import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Typography } from 'antd';
import { SchemaDescriptions } from './SchemaDescriptions';

const record = {
  clientid: 'client1',
  name: '苏州好易购电子商务有限公司',
  status: 1,
  balance: '1200.00',
  realname: '张三',
  mobile: '13800138000',
  email: '',
  needreport: 1,
  deliveryurl: 'https://example.com/report',
  needmo: 0,
  mourl: '',
  paytype: 0,
  create_time: '2026-11-01 10:00:00',
  remarks: '',
};

const meta: Meta<typeof SchemaDescriptions> = {
  title: 'Components/SchemaDescriptions',
  component: SchemaDescriptions,
  parameters: { layout: 'padded' },
};
export default meta;
type Story = StoryObj<typeof SchemaDescriptions>;

/** Labels are the entity's titles, enums their tags, money and empty values formatted. */
export const Filled: Story = {
  args: {
    entity: 'entities/sub-account-detail',
    record,
    fields: ['clientid', 'name', 'status', 'balance', 'email', 'needreport', 'deliveryurl'],
    column: 1,
  },
  play: async ({ canvas: c }) => {
    await expect(c.getByText('账户名称')).toBeInTheDocument(); // schema title
    await expect(c.getByText('注册完成')).toBeInTheDocument(); // enum label of status 1
    await expect(c.getByText('https://example.com/report')).toBeInTheDocument();
    await expect(c.getByText('邮箱').closest('tr')?.textContent).toContain('-'); // empty shown as -
  },
};

/** A screen adds only what the schema cannot say, through `render`. */
export const CustomRender: Story = {
  args: {
    entity: 'entities/sub-account-detail',
    record,
    fields: ['clientid', 'remarks'],
    column: 1,
    render: { remarks: () => <Typography.Text type="secondary">暂无备注</Typography.Text> },
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无备注')).toBeInTheDocument();
  },
};
