/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

export const operators = {
  name: 'operators',
  list: { url: '/operator/operators/list', method: 'get', paging: 'none' },
  entity: 'entities/operator',
} satisfies DataResource;

/** where 新增 and 停用 / 启用 go (POST, JSON) */
export const OPERATOR_ACTIONS = {
  /** forms/operator-add.json, the password as its SHA-256 digest; answers entities/operator-added.json */
  add: '/operator/operators/add',
  /** params/operator-status.json */
  status: '/operator/operators/status',
} as const;
