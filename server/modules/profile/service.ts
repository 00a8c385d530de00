/**
 * The logged-in user's views: current user (GET /admin/info, also the login answer), agent base
 * info (GET /admin/baseinfo) and certification status (GET /client/oauth).
 */
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { formatDateTime } from '../../lib/time';
import { AccountStatus, UserType } from '../../../common/generated/schemas';
import { phoneInoutTypeOf } from '../../../common/send';

/** schemas/entities/current-user.json */
export interface CurrentUser {
  userType: string;
  clientid: string;
  agent_id: string;
  operation_mode: string;
  email: string;
  realname: string;
  mobile: string;
  name: string;
  province: string;
  city: string;
  area: string;
  address: string;
  deliveryurl: string;
  mourl: string;
  oauth_status: number;
  status: number;
  phone_inout_type: number;
  paytype: number;
}

/** schemas/entities/agent-base-info.json */
export interface AgentBaseInfo {
  agent_id: string;
  agent_name: string;
  status: number;
  oauth_status: string | number;
  oauth_date: string;
  oauth_remark: string;
  address: string;
  id_type?: number;
  id_nbr: string;
  mobile: string;
  email: string;
  create_time: string;
  update_time: string;
  auto_template_callback_url: string;
}

/** The API's encoding of oauth_status on base info: 1 and 2 as text, 3 and 4 as numbers. */
export function oauthStatusForApi(s: number): string | number {
  if (s === 1) return '未认证';
  if (s === 2) return '待认证';
  return s;
}

/** A locked account whose lock has run out is shown active again. */
export function effectiveStatus(a: Pick<Account, 'status' | 'locked_until'>, now: Date): AccountStatus {
  if (a.status === AccountStatus.Locked && a.locked_until && new Date(a.locked_until) <= now) return 1;
  return a.status;
}

export class ProfileService {
  constructor(private readonly ctx: AppContext) {}

  async currentUser(a: Account): Promise<CurrentUser> {
    let agentClientid = a.clientid;
    let operationMode = a.operation_mode;
    if (a.user_type === UserType.SubAccount && a.agent_id !== null) {
      const agent = await this.ctx.db
        .selectFrom('accounts')
        .select(['clientid', 'operation_mode'])
        .where('id', '=', a.agent_id)
        .executeTakeFirst();
      if (agent) {
        agentClientid = agent.clientid;
        operationMode = agent.operation_mode;
      }
    }
    return {
      userType: a.user_type,
      clientid: a.clientid,
      agent_id: agentClientid,
      operation_mode: operationMode,
      email: a.email,
      realname: a.realname,
      mobile: a.mobile,
      name: a.name,
      province: a.province,
      city: a.city,
      area: a.area,
      address: a.address,
      deliveryurl: a.deliveryurl,
      mourl: a.mourl,
      oauth_status: a.oauth_status,
      status: effectiveStatus(a, this.ctx.now()),
      // a raw bit mask stored for an imported account reads as its 0 / 1 / 2 (common/send/scope.ts)
      phone_inout_type: phoneInoutTypeOf(a.phone_inout_type),
      paytype: a.paytype,
    };
  }

  baseInfo(a: Account): AgentBaseInfo {
    return {
      agent_id: a.clientid,
      agent_name: a.name,
      status: effectiveStatus(a, this.ctx.now()),
      oauth_status: oauthStatusForApi(a.oauth_status),
      oauth_date: formatDateTime(a.oauth_date),
      oauth_remark: a.oauth_remark,
      address: a.address,
      ...(a.id_type !== null ? { id_type: a.id_type } : {}),
      id_nbr: a.id_nbr,
      mobile: a.mobile,
      email: a.email,
      create_time: formatDateTime(a.create_time),
      update_time: formatDateTime(a.update_time),
      auto_template_callback_url: a.auto_template_callback_url,
    };
  }
}
