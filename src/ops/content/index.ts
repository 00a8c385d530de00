/**
 * 内容 (issue 39, docs/api-operator.md "Content"): the platform's sensitive-word list (the words
 * added here beside SENSITIVE_WORDS_FILE's: add, import a file, remove, test a text; every process
 * reads a change within seconds) and its notices (publish, delete). 运营 and 管理员 (access
 * `operatorAudit`), in the menu group 内容.
 */
import { lazy } from 'react';
import type { DataResource, MenuGroup, Screen } from '@/layout/declarations';

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

export const wordsScreen: Screen = {
  name: 'ops_content_words',
  path: '/ops/content/words',
  label: '敏感词',
  icon: 'content',
  access: 'operatorAudit',
  menu: 'content',
  home: true,
  page: lazy(() => import('./SensitiveWords')),
  data: [sensitiveWords],
};

export const noticesScreen: Screen = {
  name: 'ops_content_notices',
  path: '/ops/content/notices',
  label: '平台公告',
  icon: 'notice',
  access: 'operatorAudit',
  menu: 'content',
  page: lazy(() => import('./NoticeAdmin')),
  data: [operatorNotices],
};

export const groups: MenuGroup[] = [contentGroup];
export const screens: Screen[] = [wordsScreen, noticesScreen];
