import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import { opsApi, opsAt } from '@/stories/opsApi';
import { columns, dialogNamed, expectNoRows, fieldOf, popconfirmButton, rowWith, type Scope } from '@/stories/play';
import { enumLabel } from '@/schema';
import { SignState } from '@/generated/schemas';
import SignReview from './SignReview';
import { reviewApi, signRows } from './review.mock';
import { reviewSigns } from './data';

const calls: Record<string, Record<string, unknown>[]> = {};
/** the reason's text area, once its code has loaded (a disabled input holds its place until then) */
const reasonField = (dialog: Scope) => fieldOf(dialog, /驳回原因/);

const meta = {
  title: 'Ops/审核/签名',
  component: SignReview,
  decorators: [withApp],
  parameters: { app: opsAt('ops_review_signs'), ...msw(...reviewApi({ calls }), ...opsApi()) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof SignReview>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Pending: Story = {
  name: '待审核列表',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('云讯优选', {}, T)).toBeInTheDocument();
    await expect(calls['signs/list']?.[0]).toMatchObject({ pending: true });
    await expect(c.getAllByText(enumLabel('sign-state', SignState.Pending)!)).toHaveLength(2);
    await expect(columns(c)).toEqual(
      expect.arrayContaining(['账户', '签名', '备注', '状态', '提交时间', '审核人', '操作']),
    );
  },
};

export const All: Story = {
  name: '全部（含已审核）',
  parameters: { app: opsAt('ops_review_signs', '?pending=false') },
  play: async ({ canvas: c }) => {
    // the address bar's filter (a reload keeps it)
    await expect(await c.findByText('易购优选', {}, T)).toBeInTheDocument();
    await expect(c.getByRole('switch', { name: '只看待审核' })).not.toBeChecked();
    await expect(calls['signs/list']?.[0]).toMatchObject({ pending: false });
    await expect(c.getByTestId('review-reason')).toHaveTextContent(
      '原因：签名与企业名称不符，请补充商标注册证或授权书',
    );
  },
};

export const Approve: Story = {
  name: '通过',
  play: async ({ canvas: c }) => {
    await userEvent.click(within(await rowWith(c, '云讯优选')).getByRole('button', { name: /通\s*过/ }));
    await expect(await body().findByText('确定通过签名【云讯优选】吗？', {}, T)).toBeInTheDocument();
    await userEvent.click(await popconfirmButton(/通\s*过/));
    await waitFor(() => expect(calls['signs/decide']?.[0]).toEqual({ id: 112, approve: true }), T);
    await expect(await body().findByText('已通过', {}, T)).toBeInTheDocument();
  },
};

/** The server refuses 通过 (another operator rejected it meanwhile): its message is toasted, the list asked again. */
export const ApproveRefused: Story = {
  name: '通过被拒绝（已被他人审核）',
  parameters: msw(...reviewApi({ calls, refuse: { code: 409, msg: '已审核（operator1）' } }), ...opsApi()),
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '云讯优选');
    const before = calls['signs/list']?.length ?? 0;
    await userEvent.click(within(row).getByRole('button', { name: /通\s*过/ }));
    await userEvent.click(await popconfirmButton(/通\s*过/));
    await expect(await body().findByText('已审核（operator1）', {}, T)).toBeInTheDocument();
    await waitFor(() => expect(calls['signs/list']?.length).toBeGreaterThan(before), T);
  },
};

export const Reject: Story = {
  name: '驳回（填写原因）',
  play: async ({ canvas: c }) => {
    await userEvent.click(within(await rowWith(c, '云讯优选')).getByRole('button', { name: /驳\s*回/ }));
    const dialog = await dialogNamed('驳回签名【云讯优选】');
    await expect(dialog.getByText('账户 client1：云讯优选')).toBeInTheDocument();
    await userEvent.type(await reasonField(dialog), '  签名须与企业名称或商标一致  ');
    await userEvent.click(dialog.getByRole('button', { name: /驳\s*回/ }));
    // trimmed (x-trim)
    await waitFor(
      () =>
        expect(calls['signs/decide']?.[0]).toEqual({ id: 112, approve: false, reason: '签名须与企业名称或商标一致' }),
      T,
    );
    await expect(await body().findByText('已驳回', {}, T)).toBeInTheDocument();
  },
};

export const Empty: Story = {
  name: '无待审核',
  parameters: msw(...reviewApi({ signs: signRows.filter((r) => r.state !== SignState.Pending) }), ...opsApi()),
  play: ({ canvasElement }) => expectNoRows(canvasElement),
};

const states = listStates(reviewSigns, opsApi());
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
