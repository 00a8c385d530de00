/**
 * 通道 (issue 39, docs/api-operator.md "Channels"): the carrier channels as a 管理员 runs them — the
 * rows of dispatch_channels, the SMPP_CHANNELS file's (read-only) and, while no channel is
 * enabled, the default link (read-only) — with every worker's live counters (GET
 * /operator/channels/list, unpaged, asked again every few seconds), 新增 / 编辑 / 暂停 / 恢复 / 删除,
 * and a routing preview (POST /operator/channels/route). 管理员 only (access `operatorAdmin`).
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { operatorChannels } from './data';

export * from './data';

export const channelsScreen: Screen = {
  name: 'ops_channels',
  path: '/ops/channels',
  label: '通道',
  icon: 'channel',
  access: 'operatorAdmin',
  menu: true,
  home: true,
  page: lazy(() => import('./ChannelList')),
  data: [operatorChannels],
};

export const screens: Screen[] = [channelsScreen];
