import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, clearCalls, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import { opsApi, opsAt } from '@/stories/opsApi';
import { dialogNamed, expectNoRows, fieldOf, popconfirmButton, rowWith, type Scope } from '@/stories/play';
import { enumLabel } from '@/schema';
import { TemplateAuditState, TemplateType } from '@/generated/schemas';
import TemplateReview from './TemplateReview';
import { reviewApi, templateRows } from './review.mock';
import { reviewTemplates } from './data';

const calls: Record<string, Record<string, unknown>[]> = {};
/** the reason's text area, once its code has loaded (a disabled input holds its place until then) */
const reasonField = (dialog: Scope) => fieldOf(dialog, /驳回原因/);

const meta = {
  title: 'Ops/审核/模板',
  component: TemplateReview,
  decorators: [withApp],
  parameters: { app: opsAt('ops_review_templates'), ...msw(...reviewApi({ calls }), ...opsApi()) },
  beforeEach: clearCalls(calls),
} satisfies Meta<typeof TemplateReview>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Pending: Story = {
  name: '待审核列表',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('您的订单{1}已发货，快递单号{2}，请注意查收。', {}, T)).toBeInTheDocument();
    await expect(c.getAllByText(enumLabel('template-audit-state', TemplateAuditState.Pending)!)).toHaveLength(2);
    await expect(c.getAllByText(enumLabel('template-type', TemplateType.Variable)!).length).toBeGreaterThan(0);
  },
};

export const All: Story = {
  name: '全部（含已审核）',
  parameters: { app: opsAt('ops_review_templates', '?pending=false') },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('点击领取百万红包 http://bit.ly/xxxx', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('review-reason')).toHaveTextContent('原因：含短链接且未标明退订方式');
  },
};

export const Reject: Story = {
  name: '驳回（填写原因）',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '双十二大促，全场满300减50，点击 t.cn/abc 立即抢购，回T退订');
    await userEvent.click(within(row).getByRole('button', { name: /驳\s*回/ }));
    const dialog = await dialogNamed('驳回模板 59');
    await expect(dialog.getByText(/账户 client1：【好易购】双十二大促/)).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: /驳\s*回/ }));
    await expect(await dialog.findByText('请填写驳回原因', {}, T)).toBeInTheDocument();
    await userEvent.type(await reasonField(dialog), '营销短信须标明退订方式，短链接须报备');
    await userEvent.click(dialog.getByRole('button', { name: /驳\s*回/ }));
    await waitFor(
      () =>
        expect(calls['templates/decide']?.[0]).toEqual({
          id: 59,
          approve: false,
          reason: '营销短信须标明退订方式，短链接须报备',
        }),
      T,
    );
    await expect(await body().findByText('已驳回', {}, T)).toBeInTheDocument();
  },
};

export const Approve: Story = {
  name: '通过',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '您的订单{1}已发货，快递单号{2}，请注意查收。');
    await userEvent.click(within(row).getByRole('button', { name: /通\s*过/ }));
    await userEvent.click(await popconfirmButton(/通\s*过/));
    await waitFor(() => expect(calls['templates/decide']?.[0]).toEqual({ id: 58, approve: true }), T);
  },
};

export const Empty: Story = {
  name: '无待审核',
  parameters: msw(
    ...reviewApi({ templates: templateRows.filter((r) => r.state !== TemplateAuditState.Pending) }),
    ...opsApi(),
  ),
  play: ({ canvasElement }) => expectNoRows(canvasElement),
};

const states = listStates(reviewTemplates, opsApi());
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
