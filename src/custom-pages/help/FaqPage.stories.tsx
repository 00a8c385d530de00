import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { consoleApi } from '@/stories/mockApi';
import FaqPage from './FaqPage';
import { FAQ } from './faq';

const meta = {
  title: 'Help/FaqPage',
  component: FaqPage,
  decorators: [withApp],
  parameters: { layout: 'padded', app: { path: '/help/faq' }, msw: { handlers: consoleApi() } },
} satisfies Meta<typeof FaqPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  name: '常见问题',
  play: async ({ canvas: c }) => {
    for (const g of FAQ) await expect(c.getAllByText(g.title).length).toBeGreaterThan(0);
    // the first answer is open
    await waitFor(() => expect(c.getByText(/三大运营商的全部手机号段/)).toBeVisible(), T);
    // open the signature question
    await userEvent.click(c.getByText('短信签名有什么要求？'));
    await waitFor(() => expect(c.getByText(/格式为【签名】/)).toBeVisible(), T);
    await expect(c.getByText(/2-12 个字符/)).toBeInTheDocument();
  },
};
