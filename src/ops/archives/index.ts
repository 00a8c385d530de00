/**
 * 发送记录归档 (issue 40, docs/api-records.md "Archive", docs/api-operator.md "Archives"): the
 * send-record months written to files before retention dropped them (GET
 * /operator/archives/list, unpaged, newest month first), with their rows, size, time, file and
 * SHA-256, and whether the file is still there at its size. 运营 and 管理员 (access `operatorAudit`).
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { recordArchives } from './data';

export * from './data';

export const archivesScreen: Screen = {
  name: 'ops_archives',
  path: '/ops/archives',
  label: '发送记录归档',
  icon: 'archive',
  access: 'operatorAudit',
  menu: true,
  page: lazy(() => import('./ArchiveList')),
  data: [recordArchives],
};

export const screens: Screen[] = [archivesScreen];
