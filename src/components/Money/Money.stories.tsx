import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Money } from './Money';

const meta: Meta<typeof Money> = { title: 'Components/Money', component: Money, parameters: { layout: 'padded' } };
export default meta;
type Story = StoryObj<typeof Money>;

export const Balance: Story = {
  args: { value: '1234567.5' },
  play: async ({ canvasElement }) => expect(within(canvasElement).getByText('1,234,567.50 元')).toBeInTheDocument(),
};
export const UnitPrice: Story = {
  args: { value: '0.0345', scale: 4 },
  play: async ({ canvasElement }) => expect(within(canvasElement).getByText('0.0345 元')).toBeInTheDocument(),
};
export const Negative: Story = {
  args: { value: '-20', signed: true },
  play: async ({ canvasElement }) => expect(within(canvasElement).getByText('-20.00 元')).toBeInTheDocument(),
};
export const Empty: Story = {
  args: { value: null },
  play: async ({ canvasElement }) => expect(within(canvasElement).getByText('-')).toBeInTheDocument(),
};
