/** The report tabs per operation mode and what each asks the server (docs/api-reports.md). */
import { ReportClickType } from '@/generated/schemas';
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
export const REPORT_COUNT_COLUMNS = ['send_num', 'chargeTotal', 'success_num', 'not_known_num', 'fail_num', 'wait_send_num', 'intercept_num'];
