/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource, MenuGroup } from '@/layout/declarations';

export const sensitiveWords = {
  name: 'sensitiveWords',
  list: { url: '/operator/words/list', method: 'json' },
  entity: 'entities/sensitive-word',
  filter: 'filters/sensitive-word',
} satisfies DataResource;

export const operatorNotices = {
  name: 'operatorNotices',
  list: { url: '/operator/notices/list', method: 'json' },
  entity: 'entities/operator-notice',
} satisfies DataResource;

/** the calls the pages make beside the lists */
export const CONTENT_URLS = {
  addWords: '/operator/words/add',
  removeWord: '/operator/words/remove',
  testText: '/operator/words/test',
  publishNotice: '/operator/notices/publish',
  deleteNotice: '/operator/notices/delete',
} as const;

export const contentGroup: MenuGroup = { key: 'content', label: '内容', icon: 'content' };

export const groups: MenuGroup[] = [contentGroup];
