/** Story data and MSW handlers of 监控 (stories only; the app never imports this). */
import { delay, http, type HttpHandler } from 'msw';
import { AccessProtocol, Carrier, type MonitorSeries } from '@/generated/schemas';
import { fail, ok } from '@/stories/mockApi';

type Range = MonitorSeries['range'];
const N: Record<Range, number> = { hour: 60, day: 1440 };
/** the stories' "now": the series end at this minute */
const END = Date.UTC(2026, 10, 24, 2, 15); // 2026-11-24 10:15 北京时间

const pad = (n: number) => String(n).padStart(2, '0');
/** 北京时间 YYYY-MM-DD HH:mm */
const beijing = (ms: number) => {
  const d = new Date(ms + 8 * 3600_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
};
/** a repeatable wobble in [0, 1) */
const noise = (i: number, seed: number) => {
  const x = Math.sin(i * 12.9898 + seed * 78.233) * 43758.5453;
  return x - Math.floor(x);
};
const rate = (ok: number, bad: number) => (ok + bad ? Math.round((ok / (ok + bad)) * 10_000) / 100 : null);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** A busy platform's last hour or day: traffic with a daily swell, two channels, three carriers, a few refusals, two doors. */
export function monitorSeries(range: Range = 'hour'): MonitorSeries {
  const n = N[range];
  const first = END - (n - 1) * 60_000;
  const minutes = Array.from({ length: n }, (_, i) => beijing(first + i * 60_000));
  const swell = (i: number) => 0.6 + 0.4 * Math.sin((i / n) * Math.PI * (range === 'day' ? 2 : 1));
  const accepted = minutes.map((_, i) => Math.round(240 * swell(i) + 60 * noise(i, 1)));
  const submitted = accepted.map((a, i) => Math.max(0, a - 3 + Math.round(6 * noise(i, 2))));
  const failed = submitted.map((x, i) => Math.round(x * (0.01 + 0.03 * noise(i, 3))));
  const delivered = submitted.map((x, i) => x - failed[i] - Math.round(2 * noise(i, 4)));
  const share = { [Carrier.Mobile]: 0.55, [Carrier.Unicom]: 0.27, [Carrier.Telecom]: 0.18 };
  const carriers = ([Carrier.Mobile, Carrier.Unicom, Carrier.Telecom] as const).map((carrier, k) => {
    const ok = delivered.map((x) => Math.round(x * share[carrier]));
    const bad = failed.map((x, i) => Math.round(x * share[carrier] * (0.6 + noise(i, 10 + k))));
    return {
      carrier,
      delivered: ok,
      failed: bad,
      rate: ok.map((x, i) => rate(x, bad[i])),
      deliveryRate: rate(sum(ok), sum(bad)),
    };
  });
  const channels = (['cmcc-main', 'unicom-telecom'] as const).map((channel, k) => {
    const part = k === 0 ? 0.55 : 0.45;
    const sub = submitted.map((x) => Math.round(x * part));
    const ok = delivered.map((x) => Math.round(x * part));
    const bad = failed.map((x, i) => Math.round(x * part * (k === 0 ? 0.7 : 1.3 + noise(i, 20))));
    return {
      channel,
      submitted: sub,
      delivered: ok,
      failed: bad,
      rate: ok.map((x, i) => rate(x, bad[i])),
      deliveryRate: rate(sum(ok), sum(bad)),
    };
  });
  const refusal = (
    protocol: AccessProtocol,
    code: string,
    reason: string,
    label: string,
    every: number,
    seed: number,
  ) => {
    const counts = minutes.map((_, i) => (noise(i, seed) < 1 / every ? 1 + Math.round(4 * noise(i, seed + 1)) : 0));
    return { protocol, code, reason, label, counts, total: sum(counts) };
  };
  const refusals = [
    refusal(AccessProtocol.Smpp, '0x58', 'accessSpeed', '超过账户的发送速率', 6, 30),
    refusal(AccessProtocol.Cmpp, '8', 'window', '未应答的提交过多（窗口已满）', 15, 40),
    refusal(AccessProtocol.Smpp, '0x45', 'refusal', '受理拒绝（余额、签名、号码等）', 25, 50),
    refusal(AccessProtocol.Http, '40003', 'SIGN_MISSING', '短信内容须以【签名】开头或结尾', 20, 70),
    refusal(AccessProtocol.Console, '500', 'notEnoughBalance', '账户余额不足，无法发送', 30, 80),
  ];
  const gauge = (base: number, seed: number) =>
    minutes.map((_, i) =>
      i === n - 1 && noise(i, seed) < 0.3 ? null : Math.round(base * swell(i) * (0.5 + noise(i, seed))),
    );
  return {
    range,
    start: `${minutes[0]}:00`,
    end: `${minutes[n - 1]}:00`,
    stepSeconds: 60,
    minutes,
    accepted,
    submitted,
    delivered,
    failed,
    waiting: gauge(120, 60),
    unconfirmed: gauge(35, 61),
    totals: {
      accepted: sum(accepted),
      submitted: sum(submitted),
      delivered: sum(delivered),
      failed: sum(failed),
      deliveryRate: rate(sum(carriers.map((c) => sum(c.delivered))), sum(carriers.map((c) => sum(c.failed)))),
    },
    carriers,
    channels,
    refusals,
    sessions: [
      { protocol: AccessProtocol.Cmpp, counts: minutes.map(() => 2) },
      { protocol: AccessProtocol.Smpp, counts: minutes.map((_, i) => (i < n / 3 ? 3 : 4)) },
    ],
    budgets,
  };
}

/** today's budgets: the alarms near theirs, a number and an address at their caps */
export const budgets: MonitorSeries['budgets'] = {
  alarms: {
    day: '2026-11-24',
    budget: 500,
    sms: 412,
    left: 88,
    alarmsSent: 203,
    skippedCooldown: 57,
    skippedBudget: 0,
    skippedNoPhone: 3,
    pending: 1,
  },
  codes: {
    day: '2026-11-24',
    sms: 1_284,
    mail: 96,
    globalCap: 20_000,
    perTargetCap: 10,
    perIpCap: 20,
    targetsAtCap: 2,
    ipsAtCap: 1,
    maxPerTarget: 10,
    maxPerIp: 23,
    countries: [
      { countryCode: '86', sms: 1_270, cap: 5_000 },
      { countryCode: '852', sms: 14, cap: 200 },
    ],
  },
};

/** a fresh platform's budgets: nothing used */
export const freshBudgets: MonitorSeries['budgets'] = {
  alarms: { ...budgets.alarms, sms: 0, left: 500, alarmsSent: 0, skippedCooldown: 0, skippedNoPhone: 0, pending: 0 },
  codes: {
    ...budgets.codes,
    sms: 0,
    mail: 0,
    targetsAtCap: 0,
    ipsAtCap: 0,
    maxPerTarget: 0,
    maxPerIp: 0,
    countries: [],
  },
};

/** A fresh platform: every minute 0, no gauge sampled yet, no carrier, channel, refusal or session. */
export function emptySeries(range: Range = 'hour'): MonitorSeries {
  const s = monitorSeries(range);
  const zeros = s.minutes.map(() => 0);
  const gaps = s.minutes.map(() => null);
  return {
    ...s,
    accepted: zeros,
    submitted: zeros,
    delivered: zeros,
    failed: zeros,
    waiting: gaps,
    unconfirmed: gaps,
    totals: { accepted: 0, submitted: 0, delivered: 0, failed: 0, deliveryRate: null },
    carriers: [],
    channels: [],
    refusals: [],
    sessions: [],
    budgets: freshBudgets,
  };
}

export interface MonitorApiOptions {
  /** the answer by range (default: monitorSeries), 'loading' never answers, 'error' refuses */
  series?: ((range: Range) => MonitorSeries) | 'loading' | 'error';
  /** the query of each call */
  calls?: Record<string, string>[];
}

export function monitorApi(o: MonitorApiOptions = {}): HttpHandler[] {
  return [
    http.get('/api/operator/monitor', async ({ request }) => {
      const q = Object.fromEntries(new URL(request.url).searchParams);
      o.calls?.push(q);
      if (o.series === 'loading') await delay('infinite');
      if (o.series === 'error') return fail(500, '服务器繁忙，请稍后再试');
      const range: Range = q.range === 'day' ? 'day' : 'hour';
      return ok((typeof o.series === 'function' ? o.series : monitorSeries)(range));
    }),
  ];
}
