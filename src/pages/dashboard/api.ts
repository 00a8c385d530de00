/** The dashboard's calls (docs/api-reports.md, docs/api-subaccounts.md): shapes of their answers. */
import type { IndexData, TodayStats, WeekSubmits } from '@/generated/schemas';

/** GET /index/dataoftoday, GET /index/data */
export type { IndexData, TodayStats };

/** POST /WeekSubmitNumber */
export type WeekData = WeekSubmits;

export type RemainKey = 'hy_remain_num' | 'yzm_remain_num' | 'tz_remain_num' | 'yx_remain_num' | 'gj_remain_amount';

/** what a test account may do (docs/api-subaccounts.md "Test accounts") */
export type TestAccountTerms = NonNullable<IndexData['testAccountTerms']>;

/** POST /account/getAccountInfo (a sub-account: its own): src/resources/subaccounts/InterfaceInfo.tsx */
export type { InterfaceInfoData as AccountInfo } from '@/resources/subaccounts/InterfaceInfo';

/** header keys by product type, in the order shown */
export const REMAIN_KEYS: { key: RemainKey; productType: number }[] = [
  { key: 'hy_remain_num', productType: 0 },
  { key: 'yzm_remain_num', productType: 3 },
  { key: 'tz_remain_num', productType: 4 },
  { key: 'yx_remain_num', productType: 1 },
  { key: 'gj_remain_amount', productType: 2 },
];
