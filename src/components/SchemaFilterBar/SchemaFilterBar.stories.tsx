import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within, waitFor } from 'storybook/test';
import { SchemaFilterBar } from './SchemaFilterBar';

const meta: Meta<typeof SchemaFilterBar> = { title: 'Components/SchemaFilterBar', component: SchemaFilterBar, parameters: { layout: 'padded' } };
export default meta;
type Story = StoryObj<typeof SchemaFilterBar>;

export const AgentSignFilters: Story = {
  args: { filter: 'filters/sign', agent: true, formProps: { onFinish: fn() } },
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    await expect(c.getByText('子账户')).toBeInTheDocument();
    await userEvent.type(c.getByPlaceholderText('签名'), '云讯通');
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(args.formProps.onFinish).toHaveBeenCalledWith(expect.objectContaining({ sign: '云讯通' })));
  },
};

export const SubAccountHidesAgentOnlyFilters: Story = {
  args: { filter: 'filters/sign', agent: false, formProps: {} },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByText('子账户')).toBeNull();
  },
};
