import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import { columns, dialogNamed, eventually, expectNoRows, popconfirmButton, rowWith, shows } from '@/stories/play';
import { operations, opsApi, opsAt } from '@/stories/opsApi';
import SensitiveWords from './SensitiveWords';
import { contentApi, FILE_COUNT } from './content.mock';
import { sensitiveWords } from './data';

const calls: Record<string, Record<string, unknown>[]> = {};
const shell = opsApi({ operator: operations });
/** the dialog's text area, once its code has loaded */
const wordsField = (dialog: ReturnType<typeof within>) =>
  waitFor(() => dialog.getByLabelText(/敏感词/, { selector: 'textarea' }), T);

const meta = {
  title: 'Ops/内容/敏感词',
  component: SensitiveWords,
  decorators: [withApp],
  parameters: { app: opsAt('ops_content_words'), ...msw(...contentApi({ calls }), ...shell) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof SensitiveWords>;
export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = {
  name: '列表（另有词表文件中的词）',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '刷单返利');
    await expect(row).toHaveTextContent('operator1');
    await expect(c.getByTestId('words-file')).toHaveTextContent(
      `词表文件中另有 ${FILE_COUNT.toLocaleString('zh-CN')} 个敏感词`,
    );
    await expect(columns(c)).toEqual(['敏感词', '添加人', '添加时间', '操作']);
  },
};

export const Filtered: Story = {
  name: '按敏感词筛选',
  parameters: { app: opsAt('ops_content_words', '?word=兼职') },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('高额兼职', {}, T)).toBeInTheDocument();
    await expect(c.queryByText('私彩')).toBeNull();
    await expect(calls['words/list']?.[0]).toMatchObject({ word: '兼职' });
  },
};

export const Add: Story = {
  name: '添加（每行一个）',
  play: async ({ canvas: c }) => {
    await c.findByText('刷单返利', {}, T);
    const before = calls['words/list']?.length ?? 0;
    await userEvent.click(c.getByRole('button', { name: /添加敏感词/ }));
    const dialog = await dialogNamed('添加敏感词');
    await userEvent.type(await wordsField(dialog), '网络赌博{enter}刷单返利{enter}# 以下为诈骗类{enter}冒充客服');
    await userEvent.click(dialog.getByRole('button', { name: /添\s*加/ }));
    await eventually(() =>
      expect(calls['words/add']?.[0]).toEqual({ words: '网络赌博\n刷单返利\n# 以下为诈骗类\n冒充客服' }),
    );
    await shows('已添加 2 个，1 个已存在');
    await eventually(() => expect(calls['words/list']?.length).toBeGreaterThan(before));
  },
};

export const AddEmpty: Story = {
  name: '添加：未填写',
  play: async ({ canvas: c }) => {
    await c.findByText('刷单返利', {}, T);
    await userEvent.click(c.getByRole('button', { name: /添加敏感词/ }));
    const dialog = await dialogNamed('添加敏感词');
    await wordsField(dialog);
    await userEvent.click(dialog.getByRole('button', { name: /添\s*加/ }));
    await expect(await dialog.findByText('请输入敏感词', {}, T)).toBeInTheDocument();
    await expect(calls['words/add']).toBeUndefined();
  },
};

export const AddRefused: Story = {
  name: '添加被拒绝（词过长）',
  parameters: msw(...contentApi({ calls, refuse: { code: 400, msg: '敏感词不能超过50个字符' } }), ...shell),
  play: async ({ canvas: c }) => {
    await c.findByText('刷单返利', {}, T);
    await userEvent.click(c.getByRole('button', { name: /添加敏感词/ }));
    const dialog = await dialogNamed('添加敏感词');
    await userEvent.type(await wordsField(dialog), '很长的一句话');
    await userEvent.click(dialog.getByRole('button', { name: /添\s*加/ }));
    await expect(await dialog.findByTestId('words-refusal', {}, T)).toHaveTextContent('敏感词不能超过50个字符');
    // the dialog stays open with the text, to be corrected
    await expect(dialog.getByLabelText(/敏感词/, { selector: 'textarea' })).toHaveValue('很长的一句话');
  },
};

/** A GB18030 word list (how Chinese lists are often saved): read into the dialog to look over, then added. */
export const ImportFile: Story = {
  name: '导入文件（GB18030 编码）',
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByText('刷单返利', {}, T);
    // 贷款 / 套现 in GB18030, one a line (CRLF)
    const gb = new Uint8Array([0xb4, 0xfb, 0xbf, 0xee, 0x0d, 0x0a, 0xcc, 0xd7, 0xcf, 0xd6, 0x0d, 0x0a]);
    await userEvent.upload(
      canvasElement.querySelector('input[type=file]') as HTMLInputElement,
      new File([gb], 'words.txt', { type: 'text/plain' }),
    );
    const dialog = await dialogNamed('添加敏感词');
    await waitFor(async () => expect(await wordsField(dialog)).toHaveValue('贷款\n套现\n'), T);
    await userEvent.click(dialog.getByRole('button', { name: /添\s*加/ }));
    await eventually(() => expect(calls['words/add']?.[0]).toEqual({ words: '贷款\n套现\n' }));
    await shows('已添加 2 个');
  },
};

export const ImportTooLarge: Story = {
  name: '导入文件过大',
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByText('刷单返利', {}, T);
    await userEvent.upload(
      canvasElement.querySelector('input[type=file]') as HTMLInputElement,
      new File(['词\n'.repeat(300_000)], 'big.txt', { type: 'text/plain' }),
    );
    await shows('内容过长，请分批添加');
    await expect(body().queryByRole('dialog')).toBeNull();
  },
};

export const Remove: Story = {
  name: '删除',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '私彩');
    await userEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    await shows('确定删除敏感词“私彩”吗？');
    await userEvent.click(await popconfirmButton(/删\s*除/));
    await eventually(() => expect(calls['words/remove']?.[0]).toEqual({ id: 9 }));
    await shows('删除成功');
  },
};

export const TestHits: Story = {
  name: '检测文字：命中',
  play: async ({ canvas: c }) => {
    await c.findByText('刷单返利', {}, T);
    const check = within(c.getByTestId('content-check'));
    await userEvent.type(
      await waitFor(() => check.getByLabelText(/短信内容/, { selector: 'textarea' }), T),
      '诚聘高额兼职，刷单返利日结',
    );
    await userEvent.click(check.getByRole('button', { name: /检\s*测/ }));
    const hits = await c.findByTestId('content-check-hits', {}, T);
    await expect(hits).toHaveTextContent('检测到 2 处敏感内容');
    await expect([...hits.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['高额兼职', '刷单返利']);
    await expect(calls['words/test']?.[0]).toEqual({ content: '诚聘高额兼职，刷单返利日结' });
  },
};

export const TestClean: Story = {
  name: '检测文字：未命中',
  play: async ({ canvas: c }) => {
    await c.findByText('刷单返利', {}, T);
    const check = within(c.getByTestId('content-check'));
    await userEvent.type(
      await waitFor(() => check.getByLabelText(/短信内容/, { selector: 'textarea' }), T),
      '您的验证码为 123456',
    );
    await userEvent.click(check.getByRole('button', { name: /检\s*测/ }));
    await expect(await c.findByTestId('content-check-clean', {}, T)).toHaveTextContent('未检测到敏感词');
  },
};

export const Empty: Story = {
  name: '无数据',
  parameters: msw(...contentApi({ words: [] }), ...shell),
  play: ({ canvasElement }) => expectNoRows(canvasElement),
};

const states = listStates(sensitiveWords, [...contentApi(), ...shell]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
