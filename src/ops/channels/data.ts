/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

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
