/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

export const recordArchives = {
  name: 'recordArchives',
  list: { url: '/operator/archives/list', method: 'get', paging: 'none' },
  entity: 'entities/record-archive',
} satisfies DataResource;
