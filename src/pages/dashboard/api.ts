/** The dashboard's calls (docs/api-reports.md, docs/api-subaccounts.md): shapes of their answers. */
import type { TodayStats, WeekSubmits } from '@/generated/schemas';

export type { TodayStats };

/** POST /WeekSubmitNumber */
export type WeekData = WeekSubmits;

export type RemainKey = 'hy_remain_num' | 'yzm_remain_num' | 'tz_remain_num' | 'yx_remain_num' | 'gj_remain_amount';

/** GET /index/data */
export interface IndexData {
  userType: number;
  clientid: string;
  balance: string;
  paytype?: number;
  agent_account_data: { available_line: string; balance: string };
  data: Record<RemainKey, number>;
  agent_pool_due_time_data: Record<RemainKey, number>;
  smsGivePoolData: {
    isShow: number;
    smstypeStr: string;
    remainNumber: number;
    dueTime: string;
    list?: { smstypeStr: string; remainNumber: number; dueTime: string }[];
  };
  expiringDays?: number;
  /** agents: whether 创建测试账户 is offered, and what a test account may do (docs/api-subaccounts.md "Test accounts") */
  canCreateTestAccount?: boolean;
  testAccountTerms?: TestAccountTerms;
}

export interface TestAccountTerms {
  giftPieces: number;
  days: number;
  perAgent: number;
}

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
