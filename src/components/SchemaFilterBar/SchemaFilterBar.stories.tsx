import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within, waitFor } from 'storybook/test';
import { http } from 'msw';
import { withApp } from '@/stories/withApp';
import { consoleApi, ok, msw } from '@/stories/mockApi';
import { SchemaFilterBar } from './SchemaFilterBar';

// the client-select widget (ClientSelect) reads /send/getclients through Refine
const meta: Meta<typeof SchemaFilterBar> = {
  title: 'Components/SchemaFilterBar',
  component: SchemaFilterBar,
  decorators: [withApp],
  parameters: {
    layout: 'padded',
    ...msw(
      http.post('/api/send/getclients', () => ok([{ clientid: 'b20001', name: '上海优品电商有限公司' }])),
      ...consoleApi(),
    ),
  },
};
export default meta;
type Story = StoryObj<typeof SchemaFilterBar>;

export const AgentSignFilters: Story = {
  args: { filter: 'filters/sign', agent: true, formProps: { onFinish: fn() } },
  play: async ({ canvas: c, args }) => {
    await expect(c.getByText('子账户')).toBeInTheDocument();
    await userEvent.type(c.getByPlaceholderText('签名'), '云讯通');
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(args.formProps.onFinish).toHaveBeenCalledWith(expect.objectContaining({ sign: '云讯通' })),
    );
  },
};

export const SubAccountHidesAgentOnlyFilters: Story = {
  args: { filter: 'filters/sign', agent: false, formProps: {} },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByText('子账户')).toBeNull();
  },
};

/** 重置: the form back to its first values, then the list's onReset (useSchemaList searches again). */
export const Reset: Story = {
  args: { filter: 'filters/sign', agent: false, formProps: { onFinish: fn(), onReset: fn() } },
  play: async ({ canvas: c, args }) => {
    const input = c.getByPlaceholderText('签名');
    await userEvent.type(input, '云讯通');
    await expect(input).toHaveValue('云讯通');
    await userEvent.click(c.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(args.formProps.onReset).toHaveBeenCalled());
    // (the reset field is drawn anew: ask for the input again)
    await waitFor(() => expect(c.getByPlaceholderText('签名')).toHaveValue(''));
  },
};

// the phone layout (< 576 px, a media query: one filter a line, the exports wrap) is checked at 390 px
// by tests/e2e/lists.spec.ts, where the viewport is a phone's
