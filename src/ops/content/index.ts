/**
 * 内容 (issue 39, docs/api-operator.md "Content"): the platform's sensitive-word list (the words
 * added here beside SENSITIVE_WORDS_FILE's: add, import a file, remove, test a text; every process
 * reads a change within seconds) and its notices (publish, delete). 运营 and 管理员 (access
 * `operatorAudit`), in the menu group 内容.
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { sensitiveWords, operatorNotices } from './data';

export * from './data';

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

export const screens: Screen[] = [wordsScreen, noticesScreen];
