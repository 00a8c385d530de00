/**
 * 黑名单 (/sms/blacklist): the screen and its data, declared here for src/screens.tsx and the data
 * provider. Marketing SMS never goes to these numbers (docs/api-blacklist.md); an unsubscribe
 * reply (TD / T / 退订) adds its number by itself.
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { blacklist } from './data';

export * from './data';

export const blacklistScreen: Screen = {
  name: 'sms_blacklist',
  path: '/sms/blacklist',
  label: '黑名单',
  access: 'domesticSending',
  page: lazy(() => import('./BlacklistList')),
  menu: 'send',
  data: [blacklist],
};

export const screens: Screen[] = [blacklistScreen];
