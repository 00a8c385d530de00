import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { http } from 'msw';
import { T, withApp } from '@/stories/withApp';
import { consoleApi, ok, msw } from '@/stories/mockApi';
import { ClientSelect } from './ClientSelect';

const clients = [
  { clientid: 'b20001', name: '上海优品电商有限公司' },
  { clientid: 'b20002', name: '苏州好易购电子商务有限公司' },
  { clientid: 'b20003', name: '杭州西湖茶业有限公司' },
];

const meta = {
  title: 'Components/ClientSelect',
  component: ClientSelect,
  decorators: [withApp],
  args: { onChange: fn() },
  parameters: {
    layout: 'padded',
    ...msw(
      http.post('/api/send/getclients', () => ok(clients)),
      ...consoleApi(),
    ),
  },
} satisfies Meta<typeof ClientSelect>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Searchable: Story = {
  name: '可搜索',
  play: async ({ canvas: c, args }) => {
    const b = within(document.body);
    await userEvent.click(c.getByRole('combobox'));
    await expect(await b.findByText('b20001-上海优品电商有限公司', {}, T)).toBeInTheDocument();
    await userEvent.type(c.getByRole('combobox'), '西湖');
    await waitFor(() => expect(b.queryByText('b20001-上海优品电商有限公司')).toBeNull(), T);
    await userEvent.click(b.getByText('b20003-杭州西湖茶业有限公司'));
    await expect(args.onChange).toHaveBeenCalledWith('b20003', expect.anything());
  },
};

export const WithAllAccounts: Story = {
  name: '带“全部账户”',
  args: { allOption: true },
  play: async ({ canvas: c }) => {
    await userEvent.click(c.getByRole('combobox'));
    await within(document.body).findByText('b20001-上海优品电商有限公司', {}, T);
    const options = document.body.querySelectorAll('.ant-select-item-option');
    await expect(options[0]).toHaveTextContent('全部账户');
    await expect(options[1]).toHaveTextContent('b20001-上海优品电商有限公司');
  },
};

export const NoSubAccounts: Story = {
  name: '没有子账户',
  parameters: msw(
    http.post('/api/send/getclients', () => ok([])),
    ...consoleApi(),
  ),
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('combobox'));
    await expect(await within(document.body).findByText('暂无子账户', {}, T)).toBeInTheDocument();
  },
};
