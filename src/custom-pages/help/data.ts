/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

/** 在线客服联系人 (GET /supportInfo, not paged): the layout's support panel */
export const supportContacts = {
  name: 'supportContacts',
  list: { url: '/supportInfo', method: 'get', paging: 'none' },
} satisfies DataResource;

/** data resources of this folder that no screen owns */
export const data: DataResource[] = [supportContacts];
