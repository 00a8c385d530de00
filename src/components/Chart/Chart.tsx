/**
 * One echarts chart in a div, for the pages that chart (the accounts' delivery analysis, the
 * operators' 监控): echarts' core with the charts and components they use, the canvas renderer,
 * the chart resized with its box and disposed with the component; a new `option` replaces the
 * previous one (`notMerge`) on the same instance, so a page that refreshes its data does not
 * rebuild the canvas. Import it only from lazily loaded pages: echarts then ships with them, never
 * with /login or a console's first chunk (bench/login-bundle.ts checks).
 *
 * The div is `role="img"` with `label` as its name (what the chart says, for screen readers and
 * tests); `data` adds data-* attributes (figures a test or a person can read without the canvas).
 */
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = echarts.EChartsCoreOption;

export interface ChartProps {
  option: ChartOption;
  /** px (default 260) */
  height?: number;
  /** the accessible name: what the chart shows */
  label: string;
  testId?: string;
  /** data-* attributes of the chart's box (`{ total: 12 }` → data-total="12") */
  data?: Record<string, string | number>;
}

export function Chart({ option, height = 260, label, testId, data }: ChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!el.current) return;
    const c = (chart.current = echarts.init(el.current));
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);
  const attrs = Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [`data-${k}`, String(v)]));
  return (
    <div ref={el} role="img" aria-label={label} data-testid={testId} {...attrs} style={{ width: '100%', height }} />
  );
}

export default Chart;
