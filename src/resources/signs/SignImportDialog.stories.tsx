import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { T, body, withApp } from '@/stories/withApp';
import { consoleApi, msw } from '@/stories/mockApi';
import { SignImportDialog } from './SignImportDialog';
import { importRefused, importResult, signApi } from './signs.mock';

const xlsxFile = (name = '签名.xlsx') =>
  new File([new Uint8Array([0x50, 0x4b, 3, 4, 0, 0])], name, {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
const fileInput = () => document.body.querySelector<HTMLInputElement>('input[type=file]')!;
/** the dialog's page once it shows, after uploading `file` when given */
const opened = async (file?: File, options?: { applyAccept: boolean }) => {
  const b = body();
  await b.findByText('批量导入签名', {}, T);
  if (file) await userEvent.upload(fileInput(), file, options);
  return b;
};

const meta = {
  title: 'Signs/SignImportDialog',
  component: SignImportDialog,
  decorators: [withApp],
  args: { open: true, onClose: fn() },
  parameters: msw(importResult(), ...consoleApi(), ...signApi()),
} satisfies Meta<typeof SignImportDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Initial: Story = {
  name: '初始：模板下载',
  play: async () => {
    const b = await opened();
    await expect(b.getByTestId('sign-template-link')).toHaveAttribute('href', '/api/sign/downloadExcelTemplate');
    await expect(fileInput()).toHaveAttribute('accept', expect.stringContaining('.xlsx'));
    await expect(b.queryByTestId('sign-import-result')).toBeNull();
  },
};

export const ResultWithFailures: Story = {
  name: '导入结果（有失败）',
  play: async () => {
    const b = await opened(xlsxFile());
    const result = await b.findByTestId('sign-import-result', {}, T);
    await expect(result).toHaveTextContent('导入完成：共 9 条，成功 3 条，失败 6 条');
    await expect(b.getByTestId('sign-import-failures')).toHaveAttribute('href', '/api/sign/exportImportResult');
  },
};

export const AllImported: Story = {
  name: '导入结果（全部成功）',
  parameters: msw(importResult({ importSuccess: 5, importTotal: 5, importFall: 0 }), ...consoleApi(), ...signApi()),
  play: async () => {
    const b = await opened(xlsxFile());
    await expect(await b.findByTestId('sign-import-result', {}, T)).toHaveTextContent('成功 5 条，失败 0 条');
    await expect(b.queryByTestId('sign-import-failures')).toBeNull();
  },
};

export const FileRefused: Story = {
  name: '文件被拒绝（表头不正确）',
  parameters: msw(
    importRefused('表头不正确，请下载模板并按模板填写（子账户、签名、备注）'),
    ...consoleApi(),
    ...signApi(),
  ),
  play: async () => {
    const b = await opened(xlsxFile());
    await expect(await b.findByTestId('sign-import-error', {}, T)).toHaveTextContent(
      '表头不正确，请下载模板并按模板填写（子账户、签名、备注）',
    );
  },
};

export const WrongFileType: Story = {
  name: '非 .xlsx 文件',
  play: async () => {
    const b = await opened(new File(['a,b'], '签名.csv', { type: 'text/csv' }), { applyAccept: false });
    await expect(await b.findByTestId('sign-import-error', {}, T)).toHaveTextContent(
      '文件格式不正确，请上传.xlsx格式的Excel文件',
    );
  },
};
