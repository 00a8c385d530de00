/**
 * 黑名单 (/sms/blacklist): the screen and its data, declared here for src/screens.tsx and the data
 * provider. Marketing SMS never goes to these numbers (docs/api-blacklist.md); an unsubscribe
 * reply (TD / T / 退订) adds its number by itself.
 */
import { lazy } from 'react';
import type { DataResource, Screen } from '@/layout/declarations';

/** The blacklist: POST /blacklist/list, add POST /blacklist/add, delete POST /blacklist/delete. */
export const blacklist = {
  name: 'blacklist',
  list: { url: '/blacklist/list', method: 'form' },
  create: { url: '/blacklist/add' },
  deleteOne: { url: '/blacklist/delete', idParam: 'id' },
  entity: 'entities/blacklist',
  filter: 'filters/blacklist',
} satisfies DataResource;

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
