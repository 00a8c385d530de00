/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

/** The blacklist: POST /blacklist/list, add POST /blacklist/add, delete POST /blacklist/delete. */
export const blacklist = {
  name: 'blacklist',
  list: { url: '/blacklist/list', method: 'form' },
  create: { url: '/blacklist/add' },
  deleteOne: { url: '/blacklist/delete', idParam: 'id' },
  entity: 'entities/blacklist',
  filter: 'filters/blacklist',
} satisfies DataResource;
