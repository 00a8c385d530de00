import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import { opsApi, opsAt } from '@/stories/opsApi';
import { dialogNamed, eventually, fieldOf, popconfirmButton, rowWith, type Scope, shows } from '@/stories/play';
import { enumLabel } from '@/schema';
import { AuthStatus } from '@/generated/schemas';
import CertificationReview from './CertificationReview';
import { certificationRows, reviewApi } from './review.mock';
import { reviewCertifications } from './data';

const calls: Record<string, Record<string, unknown>[]> = {};
/** the reason's text area, once its code has loaded (a disabled input holds its place until then) */
const reasonField = (dialog: Scope) => fieldOf(dialog, /驳回原因/);
const PENDING = enumLabel('auth-status', AuthStatus.Pending)!;
const REJECTED = enumLabel('auth-status', AuthStatus.Rejected)!;

const meta = {
  title: 'Ops/审核/资质认证',
  component: CertificationReview,
  decorators: [withApp],
  parameters: { app: opsAt('ops_review_certifications'), ...msw(...reviewApi({ calls }), ...opsApi()) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof CertificationReview>;
export default meta;
type Story = StoryObj<typeof meta>;

/** What waits, oldest first (只看待审核 on by default), with the document images as thumbnails. */
export const Pending: Story = {
  name: '待审核列表',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('深圳市张伟网络科技有限公司', {}, T)).toBeInTheDocument();
    await expect(calls['certifications/list']?.[0]).toMatchObject({ pending: true, currentPage: 1, pageRowCount: 15 });
    await expect(c.getByRole('switch', { name: '只看待审核' })).toBeChecked();
    await expect(c.getAllByText(PENDING)).toHaveLength(2);
    await expect(c.queryByText(REJECTED)).toBeNull();
    // the two images of newagent's submission, from the operators' file route
    const row = within(c.getByText('newagent').closest('tr')!);
    const images = row.getAllByRole('img', { name: /证件图片/ });
    await expect(images).toHaveLength(2);
    await expect(images[0]).toHaveAttribute('src', '/api/operator/files/2026/11/front.png');
    await expect(row.getByRole('button', { name: /通\s*过/ })).toBeInTheDocument();
    await expect(row.getByRole('button', { name: /驳\s*回/ })).toBeInTheDocument();
    // the pending count of the menu's badge, beside the title
    await expect(await c.findByTestId('pending-count', {}, T)).toHaveTextContent('待审核 3');
  },
};

/** 只看待审核 off: every submission, newest first, a rejection with its reason, no actions on decided ones. */
export const All: Story = {
  name: '全部（含已审核）',
  play: async ({ canvas: c }) => {
    await c.findByText('深圳市张伟网络科技有限公司', {}, T);
    await userEvent.click(c.getByRole('switch', { name: '只看待审核' }));
    await eventually(() => expect(calls['certifications/list']?.at(-1)).toMatchObject({ pending: false }));
    await expect(await c.findByText('杭州信达网络科技有限公司', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('review-reason')).toHaveTextContent('原因：营业执照图片不清晰，请上传原件照片');
    const decided = await rowWith(c, '上海优品电商有限公司');
    await expect(within(decided).getByText('operator1')).toBeInTheDocument();
    await expect(within(decided).queryByRole('button', { name: /通\s*过/ })).toBeNull();
  },
};

export const ByAccount: Story = {
  name: '按账户查询',
  play: async ({ canvas: c }) => {
    await c.findByText('深圳市张伟网络科技有限公司', {}, T);
    await userEvent.type(c.getByPlaceholderText('账户'), ' b20031 ');
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await eventually(() =>
      expect(calls['certifications/list']?.at(-1)).toMatchObject({ pending: true, clientid: 'b20031' }),
    );
    await eventually(() => expect(c.queryByText('深圳市张伟网络科技有限公司')).toBeNull());
    await expect(c.getByText('陈晓明')).toBeInTheDocument();
  },
};

/** A thumbnail opens the preview; the submission's images are one group. */
export const ImagePreview: Story = {
  name: '证件图片预览',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '深圳市张伟网络科技有限公司'); // newagent's
    await userEvent.click(within(row).getAllByText('预览')[0]);
    await eventually(() => expect(document.querySelector('.ant-image-preview-img')).not.toBeNull());
    await expect(document.querySelector('.ant-image-preview-img')).toHaveAttribute(
      'src',
      '/api/operator/files/2026/11/front.png',
    );
    await expect(body().getByText('1 / 2')).toBeInTheDocument();
  },
};

export const Approve: Story = {
  name: '通过',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '深圳市张伟网络科技有限公司'); // newagent's
    await userEvent.click(within(row).getByRole('button', { name: /通\s*过/ }));
    await shows('确定通过newagent 的资质认证吗？');
    const before = calls['certifications/list']?.length ?? 0;
    await userEvent.click(await popconfirmButton(/通\s*过/));
    await eventually(() => expect(calls['certifications/decide']?.[0]).toEqual({ id: 31, approve: true }));
    await shows('已通过');
    // the list is asked again (and the menu's counts)
    await eventually(() => expect(calls['certifications/list']?.length).toBeGreaterThan(before));
  },
};

/** 驳回: the reason is required (at most 200 characters, the account sees it), then sent. */
export const RejectDialog: Story = {
  name: '驳回对话框',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '深圳市张伟网络科技有限公司'); // newagent's
    await userEvent.click(within(row).getByRole('button', { name: /驳\s*回/ }));
    const dialog = await dialogNamed('驳回newagent 的资质认证');
    await expect(dialog.getByText('深圳市张伟网络科技有限公司，91440300MA5G1234XY')).toBeInTheDocument();
    await expect(dialog.getAllByRole('img', { name: /证件图片/ })).toHaveLength(2);
    await userEvent.click(dialog.getByRole('button', { name: /驳\s*回/ }));
    await expect(await dialog.findByText('请填写驳回原因', {}, T)).toBeInTheDocument();
    const reason = await reasonField(dialog);
    await userEvent.type(reason, '长'.repeat(201));
    await userEvent.click(dialog.getByRole('button', { name: /驳\s*回/ }));
    await expect(await dialog.findByText('驳回原因不能超过200个字符', {}, T)).toBeInTheDocument();
    await expect(calls['certifications/decide']).toBeUndefined();
    await userEvent.clear(reason);
    await userEvent.type(reason, '营业执照已过有效期，请上传最新的营业执照');
    await userEvent.click(dialog.getByRole('button', { name: /驳\s*回/ }));
    await waitFor(
      () =>
        expect(calls['certifications/decide']?.[0]).toEqual({
          id: 31,
          approve: false,
          reason: '营业执照已过有效期，请上传最新的营业执照',
        }),
      T,
    );
    await shows('已驳回');
    await eventually(() => expect(body().queryByRole('dialog', { name: '驳回newagent 的资质认证' })).toBeNull());
  },
};

/** Another operator took it first: the server's answer stays in the dialog, the list refreshes behind it. */
export const RejectRefused: Story = {
  name: '驳回被拒绝（已被他人审核）',
  parameters: msw(...reviewApi({ calls, refuse: { code: 409, msg: '已审核（operator1）' } }), ...opsApi()),
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '深圳市张伟网络科技有限公司'); // newagent's
    await userEvent.click(within(row).getByRole('button', { name: /驳\s*回/ }));
    const dialog = await dialogNamed('驳回newagent 的资质认证');
    await userEvent.type(await reasonField(dialog), '资料不全');
    const before = calls['certifications/list']?.length ?? 0;
    await userEvent.click(dialog.getByRole('button', { name: /驳\s*回/ }));
    await expect(await dialog.findByTestId('reject-refusal', {}, T)).toHaveTextContent('已审核（operator1）');
    await eventually(() => expect(calls['certifications/list']?.length).toBeGreaterThan(before));
  },
};

export const Empty: Story = {
  name: '无待审核',
  parameters: msw(
    ...reviewApi({ certifications: certificationRows.filter((r) => r.state !== AuthStatus.Pending) }),
    ...opsApi({ counts: { certifications: 0, signs: 0, templates: 0, invoices: 0 } }),
  ),
  play: async ({ canvas: c }) => {
    await expect((await c.findAllByText('暂无数据', {}, T))[0]).toBeVisible();
    await expect(await c.findByTestId('pending-count', {}, T)).toHaveTextContent('待审核 0');
  },
};

const states = listStates(reviewCertifications, opsApi());
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
