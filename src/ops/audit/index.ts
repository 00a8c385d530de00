/**
 * 审计日志 (issue 39, docs/api-operator.md "Audit log"): every operator action, newest first, with
 * the filter bar of filters/audit-log.json (操作人, 操作, 账户, dates: the last 30 days first) and
 * the values before and after. 运营 and 管理员 (access `operatorAudit`).
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { auditLog } from './data';

export * from './data';

export const auditLogScreen: Screen = {
  name: 'ops_audit',
  path: '/ops/audit',
  label: '审计日志',
  icon: 'audit',
  access: 'operatorAudit',
  menu: true,
  home: true,
  page: lazy(() => import('./AuditLog')),
  data: [auditLog],
};

export const screens: Screen[] = [auditLogScreen];
