/** Story data and MSW handlers of 通道 (stories only; the app never imports this). */
import type { HttpHandler } from 'msw';
import { Carrier, ChannelSource, SmsType, type OperatorChannel, type RoutePreview } from '@/generated/schemas';
import { ok, type Calls } from '@/stories/mockApi';
import { answering, refusedOr, type Refusal } from '@/stories/pageRows';
import { positional, rowOf } from '@/stories/rows';

const counters = {
  workers: 2,
  bound: 2,
  submitted: 18_452,
  accepted: 18_390,
  refused: 62,
  retried: 15,
  unconfirmed: 3,
  receipts: 18_102,
  latencyMs: 41,
  statsAt: '2026-11-24 10:15:20',
};

const channel = rowOf<OperatorChannel>('operator-channel')({
  source: ChannelSource.Console,
  carriers: [],
  international: false,
  smsTypes: [],
  priority: 0,
  weight: 1,
  maxPerSecond: 0,
  enabled: true,
  ...counters,
});
/** a channel's counters: submitted, accepted, refused, retried, unconfirmed, receipts, latency (ms) */
const counted = positional(channel)(
  'submitted',
  'accepted',
  'refused',
  'retried',
  'unconfirmed',
  'receipts',
  'latencyMs',
);
export const channelRows: OperatorChannel[] = [
  channel({
    name: 'cmcc-main',
    where: 'cmpp://901234@10.0.0.1:7891',
    carriers: [Carrier.Mobile],
    weight: 3,
    maxPerSecond: 500,
    updatedAt: '2026-11-20 09:00:00',
  }),
  counted(7_305, 7_301, 4, 0, 0, 7_240, 57, {
    name: 'unicom-telecom',
    where: 'smpp://sys02@10.0.0.2:2775',
    carriers: [Carrier.Unicom, Carrier.Telecom],
    smsTypes: [SmsType.VerificationCode, SmsType.Notification],
    updatedAt: '2026-11-21 14:30:00',
  }),
  counted(1_204, 1_180, 24, 6, 0, 1_170, 88, {
    name: 'backup',
    where: 'smpp://backup@10.0.0.9:2775',
    priority: 1,
    enabled: false,
    updatedAt: '2026-11-24 08:12:40',
    bound: 0,
    statsAt: '2026-11-24 08:12:30',
  }),
  counted(96, 96, 0, 0, 0, 90, 212, {
    name: 'intl',
    where: 'smpps://intl77@intl.example.com:3550',
    source: ChannelSource.File,
    international: true,
    maxPerSecond: 50,
    bound: 1,
  }),
];

/** a fresh platform: no channel, everything over the embedded simulator */
export const defaultLinkRow: OperatorChannel = counted(12, 12, 0, 0, 0, 11, 6, {
  name: '',
  where: '内置模拟器',
  source: ChannelSource.Default,
  international: true,
  workers: 1,
  bound: 1,
});

export const routeAnswer: RoutePreview = {
  carrier: Carrier.Mobile,
  candidates: [
    { name: 'cmcc-main', priority: 0, weight: 3, bound: true, share: 100 },
    { name: 'backup', priority: 1, weight: 1, bound: false, share: 0 },
  ],
  message: '',
};

export interface ChannelsApiOptions {
  rows?: OperatorChannel[];
  /** each list answer's submitted counters grow by this much (live counters) */
  grow?: number;
  /** an action's refusal ({ code, msg }) instead of its success, by its path's last part ('save', 'pause', 'route', …) */
  refuse?: Record<string, Refusal>;
  /** 路由预览's answer */
  route?: RoutePreview;
  /** the JSON body of each call, by its path's last part ('list', 'save', 'pause', …) */
  calls?: Calls;
}

const SUCCESS: Record<string, string> = {
  save: '通道已保存，运行中的工作进程数秒内生效',
  pause: '通道已暂停',
  resume: '通道已恢复',
  remove: '通道已删除',
};

export function channelsApi(o: ChannelsApiOptions = {}): HttpHandler[] {
  const { get, post } = answering(o.calls);
  let served = 0;
  return [
    get('/operator/channels/list', 'list', () => {
      const grown = (o.grow ?? 0) * served++;
      return (o.rows ?? channelRows).map((r) => ({ ...r, submitted: r.submitted + grown }));
    }),
    ...['save', 'pause', 'resume', 'remove'].map((action) =>
      post(`/operator/channels/${action}`, action, () =>
        refusedOr(o.refuse?.[action], () => ok(null, SUCCESS[action])),
      ),
    ),
    post('/operator/channels/route', 'route', () => refusedOr(o.refuse?.route, () => o.route ?? routeAnswer)),
  ];
}
