/**
 * 审计日志's before / after (src/ops/audit/AuditDiff.tsx): fields read through
 * entities/audit-entry.json `x-targets` (titles and enums of the target's entity, `fields` for
 * what it lacks); changed is what the action wrote and differs, empty values alike.
 */
import { describe, expect, it } from 'vitest';
import { diffRows, fieldOf, hasValues, targetTitle } from '@/ops/audit/AuditDiff';

describe('audit values before and after', () => {
  it('names the targets and their fields from the schemas', () => {
    expect(targetTitle('signs')).toBe('签名');
    expect(targetTitle('certifications')).toBe('资质认证');
    expect(targetTitle('no_such_table')).toBe('no_such_table');
    expect(fieldOf('signs', 'state')).toEqual({ title: '状态', enumName: 'sign-state' });
    expect(fieldOf('certifications', 'state')).toEqual({ title: '状态', enumName: 'auth-status' });
    expect(fieldOf('certifications', 'oauth_status')).toEqual({ title: '账户认证状态', enumName: 'oauth-status' });
    expect(fieldOf('invoices', 'status')).toEqual({ title: '状态', enumName: 'invoice-status' });
    expect(fieldOf('operators', 'role')).toEqual({ title: '角色', enumName: 'operator-role' });
    expect(fieldOf('signs', 'mystery')).toEqual({ title: 'mystery' });
  });

  it('marks what the action wrote and changed', () => {
    const rows = diffRows({
      target: 'certifications',
      before: { state: 0, oauth_status: 2 },
      after: { state: 1, remark: '' },
    });
    expect(rows.map((r) => [r.key, r.changed])).toEqual([
      ['state', true],
      // not written by the action: shown, not changed
      ['oauth_status', false],
      // nothing before, '' after: the same
      ['remark', false],
    ]);
    expect(
      diffRows({ target: 'signs', before: { state: 0, cause: '' }, after: { state: 2, cause: '不符' } }).every(
        (r) => r.changed,
      ),
    ).toBe(true);
  });

  it('a row without values has nothing to open', () => {
    expect(hasValues({})).toBe(false);
    expect(hasValues({ after: { id: 5 } })).toBe(true);
  });
});
