import type { Meta, StoryObj } from '@storybook/react-vite';
import { delay, http } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { fail, xlsxReply, msw } from '@/stories/mockApi';
import { NO_EXPORT_DATA, refusedExport } from '@/stories/listStates';
import { ExportButton } from './ExportButton';

const T = { timeout: 10_000 };
let sent: Record<string, string> | undefined;

const xlsx = http.post('/api/demo/export', async ({ request }) => {
  sent = Object.fromEntries(new URLSearchParams(await request.text()));
  await delay(600);
  return xlsxReply('演示.xlsx');
});

const meta = {
  title: '组件/导出按钮',
  component: ExportButton,
  parameters: { layout: 'centered', ...msw(xlsx) },
  args: { url: '/demo/export', params: { sign: '好易购', state: '', clientid: undefined }, fileName: '演示.xlsx' },
} satisfies Meta<typeof ExportButton>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Exports: Story = {
  name: '导出：发送查询条件（空值不发），导出中按钮忙',
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: /导\s*出/ });
    await userEvent.click(button);
    await waitFor(() => expect(button).toHaveClass('ant-btn-loading'), T);
    await waitFor(() => expect(button).not.toHaveClass('ant-btn-loading'), T);
    await expect(sent).toEqual({ sign: '好易购' });
  },
};

export const Refused: Story = {
  name: '导出：服务器拒绝时提示其原因',
  parameters: msw(http.post('/api/demo/export', () => fail(500, '当前条件没有数据，无法导出'))),
  play: refusedExport(NO_EXPORT_DATA),
};
