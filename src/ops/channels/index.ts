/**
 * 通道 (issue 39, docs/api-operator.md "Channels"): the carrier channels as a 管理员 runs them — the
 * rows of dispatch_channels, the SMPP_CHANNELS file's (read-only) and, while no channel is
 * enabled, the default link (read-only) — with every worker's live counters (GET
 * /operator/channels/list, unpaged, asked again every few seconds), 新增 / 编辑 / 暂停 / 恢复 / 删除,
 * and a routing preview (POST /operator/channels/route). 管理员 only (access `operatorAdmin`).
 */
import { lazy } from 'react';
import type { DataResource, Screen } from '@/layout/declarations';

export const operatorChannels = {
  name: 'operatorChannels',
  list: { url: '/operator/channels/list', method: 'get', paging: 'none' },
  entity: 'entities/operator-channel',
} satisfies DataResource;

/** the actions (POST, JSON): forms/operator-channel.json, params/operator-channel-ref.json, forms/route-preview.json */
export const CHANNEL_URLS = {
  save: '/operator/channels/save',
  pause: '/operator/channels/pause',
  resume: '/operator/channels/resume',
  remove: '/operator/channels/remove',
  route: '/operator/channels/route',
} as const;

/** how often the list is asked again: the workers write their counters every 10 s */
export const CHANNELS_REFRESH_MS = 10_000;

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
