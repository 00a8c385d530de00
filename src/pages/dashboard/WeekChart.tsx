/**
 * 近 7 天发送量 (POST /WeekSubmitNumber): submitted / success / fail per day with echarts. This file
 * is loaded lazily (Home imports it with React.lazy), so echarts ships only with pages that chart.
 */
import { useEffect, useRef } from 'react';
import { Card, Empty } from 'antd';
import { useCustom } from '@refinedev/core';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { WeekData } from './api';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export function WeekChartView({ data }: { data: WeekData }) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const chart = echarts.init(el.current);
    chart.setOption({
      tooltip: { trigger: 'axis' },
      // the legend in its own band above the plot: the grid starts below it and holds the axis labels
      // (containLabel), so neither the legend nor a wide axis label covers the other (issue 27 item 12)
      legend: { data: ['提交', '成功', '失败'], top: 0, left: 'center', itemGap: 24 },
      grid: { left: 8, right: 24, top: 44, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: data.dates.map((d) => d.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: '提交', type: 'bar', data: data.submitTotal, itemStyle: { color: '#1677ff' } },
        { name: '成功', type: 'line', data: data.sendSuccess, itemStyle: { color: '#52c41a' } },
        { name: '失败', type: 'line', data: data.sendFail, itemStyle: { color: '#ff4d4f' } },
      ],
    });
    const ro = new ResizeObserver(() => chart.resize());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      chart.dispose();
    };
  }, [data]);
  const total = data.submitTotal.reduce((s, n) => s + n, 0);
  return (
    <div
      ref={el}
      role="img"
      aria-label={`近7天提交 ${total} 条`}
      data-testid="week-chart"
      data-today={data.submitTotal[data.submitTotal.length - 1] ?? 0}
      data-total={total}
      style={{ width: '100%', height: 280 }}
    />
  );
}

export function WeekChart() {
  const { result, query } = useCustom<WeekData>({ url: '/WeekSubmitNumber', method: 'post', meta: { silent: true } });
  const data = result.data as WeekData | undefined;
  return (
    <Card title="近7天发送量" style={{ marginTop: 16 }} loading={query.isLoading}>
      {data?.dates?.length ? <WeekChartView data={data} /> : <Empty description="暂无数据" />}
    </Card>
  );
}

export default WeekChart;
