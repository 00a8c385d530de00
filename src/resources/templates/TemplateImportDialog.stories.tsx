import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { consoleApi, msw } from '@/stories/mockApi';
import { TemplateImportDialog } from './TemplateImportDialog';
import { importAnswer, importRefusal, templateApi } from './templates.mock';

const meta = {
  title: 'Templates/TemplateImportDialog',
  component: TemplateImportDialog,
  decorators: [withApp],
  args: { open: true, onClose: fn() },
  parameters: { layout: 'padded', ...msw(importAnswer, ...templateApi(), ...consoleApi()) },
} satisfies Meta<typeof TemplateImportDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

const xlsx = () =>
  new File([new Uint8Array([80, 75, 3, 4])], '短信模板.xlsx', {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
const choose = async () => {
  const input = document.querySelector('.ant-modal input[type=file]') as HTMLInputElement;
  await userEvent.upload(input, xlsx());
  await expect(await screen.findByText('短信模板.xlsx', {}, T)).toBeInTheDocument();
};

export const ImportedWithFailures: Story = {
  name: '导入结果（部分失败）',
  play: async () => {
    const d = within(await screen.findByRole('dialog', {}, T));
    await expect(d.getByRole('link', { name: /下载模板/ })).toHaveAttribute(
      'href',
      '/api/autoTemplate/downloadExcelTemplate',
    );
    await choose();
    await userEvent.click(d.getByRole('button', { name: /开始导入/ }));
    await expect(await d.findByTestId('import-result', {}, T)).toHaveTextContent('共5条，成功3条，失败2条');
    await expect(d.getByText('固定模板不能包含变量')).toBeInTheDocument();
    await expect(d.getByText('模板内容包含敏感词：赌博，请修改后再提交')).toBeInTheDocument();
    await expect(await screen.findByText('成功导入3条模板，请等待审核', {}, T)).toBeInTheDocument();
  },
};

export const NoFileChosen: Story = {
  name: '未选择文件',
  play: async () => {
    const d = within(await screen.findByRole('dialog', {}, T));
    await userEvent.click(d.getByRole('button', { name: /开始导入/ }));
    await expect(await d.findByTestId('import-error', {}, T)).toHaveTextContent('请选择要导入的Excel文件');
  },
};

export const BadFile: Story = {
  name: '文件格式错误',
  parameters: msw(importRefusal, ...templateApi(), ...consoleApi()),
  play: async ({ args }) => {
    const d = within(await screen.findByRole('dialog', {}, T));
    await choose();
    await userEvent.click(d.getByRole('button', { name: /开始导入/ }));
    await expect(await d.findByTestId('import-error', {}, T)).toHaveTextContent(
      '文件格式不正确，请使用模板文件（xlsx）',
    );
    await userEvent.click(d.getByRole('button', { name: /关\s*闭/ }));
    await waitFor(() => expect(args.onClose).toHaveBeenCalled(), T);
  },
};
