/**
 * 监控 (issue 39, docs/api-metrics.md "Per-minute series", docs/api-operator.md "Console"): the
 * platform's per-minute series over the last hour or day, every process together (GET
 * /operator/monitor?range=hour|day, entities/monitor-series.json), as charts, asked again every
 * minute. 运营 and 管理员 (access `operatorAudit`).
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';

export * from './data';

export const monitorScreen: Screen = {
  name: 'ops_monitor',
  path: '/ops/monitor',
  label: '监控',
  icon: 'monitor',
  access: 'operatorAudit',
  menu: true,
  home: true,
  page: lazy(() => import('./Monitor')),
};

export const screens: Screen[] = [monitorScreen];
