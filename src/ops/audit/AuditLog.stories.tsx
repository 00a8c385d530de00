import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { msw } from '@/stories/mockApi';
import { listStates } from '@/stories/listStates';
import { columns, rowWith } from '@/stories/play';
import { operations, opsApi, opsAt } from '@/stories/opsApi';
import { enumLabel, schemas } from '@/schema';
import { AuditAction, AuthStatus, OauthStatus, SignState } from '@/generated/schemas';
import AuditLog from './AuditLog';
import { auditApi } from './audit.mock';
import { auditLog } from './data';

const calls: Record<string, unknown>[] = [];
const shell = opsApi({ operator: operations });

const meta = {
  title: 'Ops/审计日志',
  component: AuditLog,
  decorators: [withApp],
  parameters: { app: opsAt('ops_audit'), ...msw(...auditApi({ calls }), ...shell) },
  beforeEach: () => {
    calls.length = 0;
  },
} satisfies Meta<typeof AuditLog>;
export default meta;
type Story = StoryObj<typeof meta>;

const targetTitle = (t: string) =>
  (schemas.get('entities/audit-entry')['x-targets'] as Record<string, { title: string }>)[t].title;

export const List: Story = {
  name: '列表',
  play: async ({ canvas: c }) => {
    await expect(
      await c.findByText(enumLabel('audit-action', AuditAction.CertificationApprove)!, {}, T),
    ).toBeInTheDocument();
    // the last 30 days first (filters/audit-log.json x-default-days)
    await expect(calls[0]).toMatchObject({
      start_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      end_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      currentPage: 1,
    });
    await expect(columns(c)).toEqual(['', '时间', '操作人', '操作', '对象', '账户', '备注']);
    // 对象: the table's name and the row's number
    const row = c.getByText('2026-11-24 10:18:44').closest('tr') as HTMLElement;
    await expect(row).toHaveTextContent(`${targetTitle('signs')} #112`);
    // a login has no values: nothing to open
    const login = c.getByText('10.0.3.17').closest('tr') as HTMLElement;
    await expect(login.querySelector('.ant-table-row-expand-icon-spaced')).not.toBeNull();
  },
};

/** A row opens onto its fields before and after, the codes as their labels, the changed ones marked. */
export const BeforeAfter: Story = {
  name: '操作前后（展开）',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '2026-11-24 10:21:05');
    await userEvent.click(within(row).getByRole('button', { name: /展开行|Expand row/ }));
    const diff = within(await c.findByTestId('audit-diff', {}, T));
    await expect(columns(diff)).toEqual(['字段', '操作前', '操作后']);
    const state = diff.getByText('状态').closest('tr') as HTMLElement;
    await expect(state).toHaveTextContent(enumLabel('auth-status', AuthStatus.Pending)!);
    await expect(state).toHaveTextContent(enumLabel('auth-status', AuthStatus.Certified)!);
    await expect(state).toHaveTextContent('已变更');
    // recorded before, not written by the action: shown, not marked
    const oauth = diff.getByText('账户认证状态').closest('tr') as HTMLElement;
    await expect(oauth).toHaveTextContent(enumLabel('oauth-status', OauthStatus.Pending)!);
    await expect(oauth).not.toHaveTextContent('已变更');
  },
};

export const SignRejected: Story = {
  name: '驳回签名的前后',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '2026-11-24 10:18:44');
    await userEvent.click(within(row).getByRole('button', { name: /展开行|Expand row/ }));
    const diff = within(await c.findByTestId('audit-diff', {}, T));
    await expect(diff.getByText('状态').closest('tr')).toHaveTextContent(enumLabel('sign-state', SignState.Rejected)!);
    await expect(diff.getByText('驳回原因').closest('tr')).toHaveTextContent('签名须与企业名称或商标一致');
  },
};

/** 新增运营人员: only the values after. */
export const OperatorAdded: Story = {
  name: '新增运营人员（只有操作后）',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '2026-11-24 09:58:31');
    await userEvent.click(within(row).getByRole('button', { name: /展开行|Expand row/ }));
    const diff = within(await c.findByTestId('audit-diff', {}, T));
    await expect(columns(diff)).toEqual(['字段', '操作后']);
    await expect(diff.getByText('登录名').closest('tr')).toHaveTextContent('reviewer2');
    await expect(diff.getByText('角色').closest('tr')).toHaveTextContent('审核员');
  },
};

export const FilterByAction: Story = {
  name: '按操作、操作人、账户查询',
  play: async ({ canvas: c }) => {
    await c.findByText('2026-11-24 10:21:05', {}, T);
    await userEvent.click(c.getByRole('combobox'));
    await userEvent.click(
      await within(document.body).findByTitle(enumLabel('audit-action', AuditAction.SignReject)!, {}, T),
    );
    await userEvent.type(c.getByPlaceholderText('操作人'), 'reviewer1');
    await userEvent.type(c.getByPlaceholderText('账户'), 'client1');
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await waitFor(
      () =>
        expect(calls.at(-1)).toMatchObject({
          action: AuditAction.SignReject,
          operator: 'reviewer1',
          clientid: 'client1',
        }),
      T,
    );
    await waitFor(() => expect(c.queryByText('2026-11-24 10:21:05')).toBeNull(), T);
    await expect(c.getByText('2026-11-24 10:18:44')).toBeInTheDocument();
  },
};

const states = listStates(auditLog, shell);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = { ...states.empty, name: '无记录' };
