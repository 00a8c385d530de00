import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, userEvent, waitFor } from 'storybook/test';
import { SliderCaptcha, type SliderResult } from './SliderCaptcha';
import { sliderHandlers } from '../PublicLayout/mocks';

function Demo() {
  const [result, setResult] = useState<SliderResult | null>(null);
  return (
    <div style={{ width: 340, padding: 24 }}>
      <SliderCaptcha onVerified={setResult} />
      <p data-testid="result">{result ? `server=${result.server} token=${result.token}` : '未验证'}</p>
    </div>
  );
}

const meta = {
  title: '组件/滑块验证',
  component: Demo,
  parameters: { layout: 'centered', msw: { handlers: sliderHandlers() } },
} satisfies Meta<typeof Demo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {
  play: async ({ canvas: c }) => {
    await expect(c.getByText('请按住滑块，拖到最右边')).toBeVisible();
    await expect(c.getByRole('slider', { name: '滑块验证' })).toHaveAttribute('aria-valuenow', '0');
  },
};

export const DraggedToTheEnd: Story = {
  play: async ({ canvas: c }) => {
    const handle = c.getByRole('slider', { name: '滑块验证' });
    const track = c.getByTestId('slider-captcha');
    const { left, top } = handle.getBoundingClientRect();
    const end = track.getBoundingClientRect().right + 20;
    await fireEvent.pointerDown(handle, { pointerId: 1, clientX: left + 5, clientY: top + 5, button: 0 });
    for (let x = left + 5; x <= end; x += 30)
      await fireEvent.pointerMove(handle, { pointerId: 1, clientX: x, clientY: top + 5 });
    await fireEvent.pointerUp(handle, { pointerId: 1, clientX: end, clientY: top + 5 });
    await expect(await c.findByText('验证通过')).toBeVisible();
    await expect(c.getByTestId('result')).toHaveTextContent('server=challenge-1 token=token-1');
  },
};

export const ReleasedHalfway: Story = {
  play: async ({ canvas: c }) => {
    const handle = c.getByRole('slider', { name: '滑块验证' });
    const { left, top } = handle.getBoundingClientRect();
    await fireEvent.pointerDown(handle, { pointerId: 1, clientX: left + 5, clientY: top + 5, button: 0 });
    await fireEvent.pointerMove(handle, { pointerId: 1, clientX: left + 120, clientY: top + 5 });
    await fireEvent.pointerUp(handle, { pointerId: 1, clientX: left + 120, clientY: top + 5 });
    await waitFor(() => expect(handle).toHaveAttribute('aria-valuenow', '0'));
    await expect(c.getByTestId('result')).toHaveTextContent('未验证');
  },
};

export const ByKeyboard: Story = {
  play: async ({ canvas: c }) => {
    await userEvent.tab();
    await expect(c.getByRole('slider', { name: '滑块验证' })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{End}');
    await expect(await c.findByText('验证通过')).toBeVisible();
  },
};

export const Refused: Story = {
  parameters: { msw: { handlers: sliderHandlers({ reject: true }) } },
  play: async ({ canvas: c }) => {
    c.getByRole('slider', { name: '滑块验证' }).focus();
    await userEvent.keyboard('{End}');
    await expect(await c.findByRole('alert')).toHaveTextContent('请按住滑块，拖到最右边');
    await waitFor(() => expect(c.getByRole('slider', { name: '滑块验证' })).toHaveAttribute('aria-valuenow', '0'));
    await expect(c.queryByText('验证通过')).toBeNull();
  },
};
