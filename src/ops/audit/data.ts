/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

export const auditLog = {
  name: 'auditLog',
  list: { url: '/operator/audit/list', method: 'json' },
  entity: 'entities/audit-entry',
  filter: 'filters/audit-log',
} satisfies DataResource;
