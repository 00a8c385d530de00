import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { CountdownButton } from './CountdownButton';
import { ApiError } from '../../providers/http';

const meta = {
  title: '组件/倒计时按钮',
  component: CountdownButton,
  parameters: { layout: 'centered' },
  args: { onSend: async () => undefined },
} satisfies Meta<typeof CountdownButton>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Ready: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '获取验证码' })).toBeEnabled();
  },
};

export const CountingDown: Story = {
  play: async ({ canvas: c }) => {
    await userEvent.click(c.getByRole('button', { name: '获取验证码' }));
    const button = await c.findByRole('button', { name: /(60|59|58)秒后重新发送$/ });
    await expect(button).toBeDisabled();
  },
};

export const Resend: Story = {
  args: { seconds: 2, resendText: '点击重新发送' },
  play: async ({ canvas: c }) => {
    await userEvent.click(c.getByRole('button', { name: '获取验证码' }));
    await expect(await c.findByRole('button', { name: /秒后重新发送/ })).toBeDisabled();
    await waitFor(() => expect(c.getByRole('button', { name: /点击重新发送$/ })).toBeEnabled(), { timeout: 10000 });
  },
};

export const SendFails: Story = {
  args: {
    onSend: async () => {
      throw new ApiError({ code: 500, msg: '今日发送次数已达上限' });
    },
  },
  play: async ({ canvas: c }) => {
    await userEvent.click(c.getByRole('button', { name: '获取验证码' }));
    await waitFor(() => expect(within(document.body).getByText('今日发送次数已达上限')).toBeVisible());
    await waitFor(() => expect(c.getByRole('button', { name: /获取验证码/ })).toBeEnabled());
  },
};
