/**
 * The totals row of a consumption report (issue 27 item 11): the server's `totals` (sums over
 * every row of the filter, not only the page: docs/api-reports.md) under the count columns, the
 * success rate beside them. `leading` is the number of columns before the counts (the label spans
 * them), `trailing` the columns after the rate (actions).
 */
import { Table, Typography } from 'antd';
import type { BaseRecord } from '@refinedev/core';
import type { ReportTotals } from '@/generated/schemas';
import { ratePct, REPORT_COUNT_FIELDS } from './tabs';

/** the list's totals from Refine's answer (the data provider keeps `totals` of the page's answer) */
export const totalsOf = (data: BaseRecord | undefined): ReportTotals | undefined =>
  data?.totals && typeof data.totals === 'object' ? (data.totals as ReportTotals) : undefined;

export function reportSummary(totals: ReportTotals | undefined, leading: number, trailing = 0) {
  if (!totals) return undefined;
  return function ReportTotalsRow() {
    let i = leading;
    return (
      <Table.Summary fixed="bottom">
        <Table.Summary.Row data-testid="report-totals">
          <Table.Summary.Cell index={0} colSpan={leading}>
            <Typography.Text strong>合计</Typography.Text>
          </Table.Summary.Cell>
          {REPORT_COUNT_FIELDS.map((f) => (
            <Table.Summary.Cell key={f} index={i++} align="right">
              <Typography.Text strong>{(totals[f] ?? 0).toLocaleString('zh-CN')}</Typography.Text>
            </Table.Summary.Cell>
          ))}
          <Table.Summary.Cell index={i++} align="right">
            <Typography.Text strong data-testid="report-totals-rate">
              {ratePct(totals.success_rate ?? 0)}
            </Typography.Text>
          </Table.Summary.Cell>
          {trailing > 0 && <Table.Summary.Cell index={i} colSpan={trailing} />}
        </Table.Summary.Row>
      </Table.Summary>
    );
  };
}
