/** The report tabs per operation mode and what each asks the server (docs/api-reports.md). */
import { ReportClickType, type ReportRow } from '@/generated/schemas';
import type { SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import type { ReportTab } from './reportDates';

export function reportTabs(packageMode: boolean): { key: ReportTab; label: string }[] {
  return packageMode
    ? [
        { key: 'pre', label: '子账户(预付费)' },
        { key: 'post', label: '子账户(后付费)' },
      ]
    : [
        { key: 'pre', label: '普通短信' },
        { key: 'post', label: '国际短信' },
      ];
}

/** the fixed parameters of a tab: direct mode sends its clickType (package mode: the endpoint says the paytype) */
export function tabQuery(tab: ReportTab, packageMode: boolean): { clickType?: string } {
  if (packageMode) return {};
  return { clickType: tab === 'pre' ? ReportClickType.Normal : ReportClickType.International };
}

/** the count columns of a report row */
export const REPORT_COUNT_FIELDS = [
  'send_num',
  'chargeTotal',
  'success_num',
  'not_known_num',
  'fail_num',
  'wait_send_num',
  'intercept_num',
] as const;
/** a success rate (percent, two decimals) as shown */
export const ratePct = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `${v.toFixed(2)}%` : '-');
/** the count columns and the success rate of a report row */
export const REPORT_COUNT_COLUMNS: (string | SchemaColumn<ReportRow>)[] = [
  ...REPORT_COUNT_FIELDS.map((field) => ({ field, align: 'right' as const })),
  { field: 'success_rate', align: 'right', render: (v: unknown) => ratePct(v) },
];
