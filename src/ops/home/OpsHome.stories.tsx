import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { operations, opsApi, opsAt } from '@/stories/opsApi';
import OpsHome from './OpsHome';

const meta = {
  title: 'Ops/工作台',
  component: OpsHome,
  decorators: [withApp],
  parameters: { layout: 'padded', app: opsAt('ops_home'), msw: { handlers: opsApi() } },
} satisfies Meta<typeof OpsHome>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Reviewer: Story = {
  name: '审核员：待审核',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('欢迎您，reviewer1', {}, T)).toBeInTheDocument();
    const cards = within(c.getByTestId('review-counts'));
    await expect(await cards.findByText('4', {}, T)).toBeInTheDocument();
    await expect(cards.getByText('资质认证').closest('a')).toHaveAttribute('href', '/ops/review/certifications');
    await expect(cards.getByText('发票').closest('a')).toHaveAttribute('href', '/ops/review/invoices');
    await expect(c.queryByTestId('quick-links')).toBeNull();
  },
};

export const Operations: Story = {
  name: '运营：审计日志入口',
  parameters: { msw: { handlers: opsApi({ operator: operations }) } },
  play: async ({ canvas: c }) => {
    const links = within(await c.findByTestId('quick-links', {}, T));
    await expect(links.getByText('审计日志').closest('a')).toHaveAttribute('href', '/ops/audit');
  },
};

export const CountsLoading: Story = {
  name: '数量加载中',
  parameters: { msw: { handlers: opsApi({ counts: 'loading' }) } },
  play: async ({ canvas: c }) => {
    await c.findByText('欢迎您，reviewer1', {}, T);
    await expect(within(c.getByTestId('review-counts')).getAllByText('-')).toHaveLength(4);
  },
};
