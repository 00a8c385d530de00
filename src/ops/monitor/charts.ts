/**
 * The 监控 charts' echarts options, from the series as the server answers them
 * (entities/monitor-series.json): every array is one value a minute, oldest first, the same length
 * as `minutes`. Counts are 0 where nothing happened; a gauge (waiting, unconfirmed, sessions) and a
 * rate are null where nothing was sampled or no outcome came: the lines break there instead of
 * falling to 0. Series titles are the entity's. Pure: no React.
 */
import type { ChartOption } from '@/components/Chart/Chart';
import type { MonitorSeries } from '@/generated/schemas';
import { enumLabel, schemas } from '@/schema';

const ENTITY = 'entities/monitor-series';
/** a property's title (entities/monitor-series.json) */
export const seriesTitle = (field: string) => schemas.field(ENTITY, field)?.title ?? field;

/** the x axis: HH:mm of each minute (the tooltip shows the date too) */
const timeAxis = (s: MonitorSeries) => ({
  type: 'category' as const,
  data: s.minutes.map((m) => m.slice(11)),
  boundaryGap: false,
  axisLabel: { hideOverlap: true },
});

const tooltip = (s: MonitorSeries, unit = '') => ({
  trigger: 'axis' as const,
  formatter: (items: { dataIndex: number; marker: string; seriesName: string; value: number | null }[]) => {
    const i = items[0]?.dataIndex ?? 0;
    const lines = items.map(
      (p) =>
        `${p.marker}${p.seriesName}：${p.value === null || p.value === undefined ? '-' : `${p.value.toLocaleString('zh-CN')}${unit}`}`,
    );
    return [s.minutes[i], ...lines].join('<br/>');
  },
});

const legend = { top: 0, type: 'scroll' as const };
const grid = { left: 8, right: 24, top: 36, bottom: 8, containLabel: true };
/**
 * A line; `dots`: a series with gaps (a gauge, a rate) marks each value, or a minute between two
 * gaps would not show at all.
 */
const line = (name: string, data: (number | null)[], color?: string, dots = false) => ({
  name,
  type: 'line' as const,
  data,
  showSymbol: dots,
  symbolSize: 4,
  connectNulls: false,
  ...(color ? { itemStyle: { color }, lineStyle: { color } } : {}),
});

export const COLOURS = {
  accepted: '#1677ff',
  submitted: '#722ed1',
  delivered: '#52c41a',
  failed: '#ff4d4f',
  waiting: '#faad14',
  unconfirmed: '#eb2f96',
};

/** 每分钟短信量: accepted, submitted, delivered, failed */
export function flowOption(s: MonitorSeries): ChartOption {
  return {
    tooltip: tooltip(s, ' 条'),
    legend,
    grid,
    xAxis: timeAxis(s),
    yAxis: { type: 'value', minInterval: 1 },
    series: (['accepted', 'submitted', 'delivered', 'failed'] as const).map((k) =>
      line(seriesTitle(k), s[k], COLOURS[k]),
    ),
  };
}

/** 等待与未确认: the database's gauges, sampled once a minute */
export function backlogOption(s: MonitorSeries): ChartOption {
  return {
    tooltip: tooltip(s, ' 条'),
    legend,
    grid,
    xAxis: timeAxis(s),
    yAxis: { type: 'value', minInterval: 1 },
    series: (['waiting', 'unconfirmed'] as const).map((k) => line(seriesTitle(k), s[k], COLOURS[k], true)),
  };
}

const pct = (v: number | null) => (v === null ? '-' : `${v.toFixed(2)}%`);
/** a carrier's name (enums/carrier) */
export const carrierName = (c: number) => enumLabel('carrier', c) ?? String(c);

/** a rate chart: one line a row, named with its range's rate */
function ratesOption(
  s: MonitorSeries,
  rows: { name: string; rate: (number | null)[]; deliveryRate: number | null }[],
): ChartOption {
  return {
    tooltip: tooltip(s, '%'),
    legend,
    grid,
    xAxis: timeAxis(s),
    yAxis: {
      type: 'value',
      min: (v: { min: number }) => Math.max(0, Math.floor(v.min / 10) * 10),
      max: 100,
      axisLabel: { formatter: '{value}%' },
    },
    series: rows.map((r) => line(`${r.name}（${pct(r.deliveryRate)}）`, r.rate, undefined, true)),
  };
}

export const carrierRatesOption = (s: MonitorSeries, name: (carrier: number) => string = carrierName) =>
  ratesOption(
    s,
    s.carriers.map((c) => ({ name: name(c.carrier), rate: c.rate, deliveryRate: c.deliveryRate })),
  );

export const channelRatesOption = (s: MonitorSeries, name: (channel: string) => string) =>
  ratesOption(
    s,
    s.channels.map((c) => ({ name: name(c.channel), rate: c.rate, deliveryRate: c.deliveryRate })),
  );

/** a refusal row's name */
export type RefusalName = (r: MonitorSeries['refusals'][number]) => string;

/** 拒绝原因: refused submits a minute, stacked by protocol, code and reason */
export function refusalsOption(s: MonitorSeries, name: RefusalName): ChartOption {
  return {
    tooltip: tooltip(s, ' 次'),
    legend,
    grid,
    xAxis: { ...timeAxis(s), boundaryGap: true },
    yAxis: { type: 'value', minInterval: 1 },
    series: s.refusals.map((r) => ({
      name: name(r),
      type: 'bar' as const,
      stack: 'refused',
      data: r.counts,
      barMaxWidth: 16,
    })),
  };
}

/** 接入会话: bound sessions of the doors, by protocol */
export function sessionsOption(s: MonitorSeries, name: (protocol: string) => string): ChartOption {
  return {
    tooltip: tooltip(s, ' 个'),
    legend,
    grid,
    xAxis: timeAxis(s),
    yAxis: { type: 'value', minInterval: 1 },
    series: s.sessions.map((x) => line(name(x.protocol), x.counts, undefined, true)),
  };
}

/** the last sampled value of a gauge (null: none in the range) */
export const lastSample = (xs: (number | null)[]) => {
  for (let i = xs.length - 1; i >= 0; i--) if (xs[i] !== null) return xs[i];
  return null;
};

/** whether any minute has a value other than 0 / null */
export const anyValue = (...series: (number | null)[][]) => series.some((xs) => xs.some((x) => x !== null && x !== 0));
