/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';
import { SignState } from '@/generated/schemas';

/** The signs: POST /sign/list, add POST /sign/add, delete is POST /sign/update with state 4. */
export const signs = {
  name: 'signs',
  list: { url: '/sign/list', method: 'form' },
  create: { url: '/sign/add' },
  deleteOne: { url: '/sign/update', idParam: 'id', params: { state: SignState.Deleted } },
  entity: 'entities/sign',
  filter: 'filters/sign',
} satisfies DataResource;
