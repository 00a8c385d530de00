/**
 * Sub-account management routes (agents only, except /index/data, /client/ledger, the
 * own-account branch of /account/updateClient and the log-in-as redemption). Every call answers
 * { code, msg, data }; who may call a route is its `access` (server/http/route.ts).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { errors } from '../../http/errors';
import { ok } from '../../http/reply';
import { clientId, CURRENT_PAGE, listParams, params as paramSchema, text } from '../../http/params';
import { route, type RouteDecl } from '../../http/route';
import { formSchema } from '../../http/validation';
import { sessionOf, type SessionService } from '../auth/session';
import type { OpenAccountForm, PriceForm, RechargeForm, SubAccountService } from './service';
import { AccountStatus, UserType } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

type Body = Record<string, unknown>;
/** query and body together (the console posts forms; older callers put parameters in the query) */
const params = (req: FastifyRequest): Body => ({ ...((req.query as Body) ?? {}), ...((req.body as Body) ?? {}) });

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
function sendXlsx(reply: FastifyReply, buf: Buffer, name: string) {
  return reply
    .header('content-type', XLSX)
    .header('content-disposition', `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('cache-control', 'no-store')
    .send(buf);
}

/** the self-edit branch of POST /account/updateClient (built by the own-account area) */
export type SelfUpdateHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const TAG = '子账户';
const FINANCE = '客户财务';

export function subaccountRoutes(ctx: AppContext, sessions: SessionService, svc: SubAccountService, opts: { selfUpdate?: SelfUpdateHandler } = {}): FastifyPluginAsync {
  const { schemas } = ctx;
  /** a POST whose parameters may come in the body or the query: both follow `s` */
  const post = (d: Omit<RouteDecl, 'body' | 'querystring'>, s: Body) => route({ ...d, body: s, querystring: s });
  const get = (d: Omit<RouteDecl, 'body' | 'querystring'>, s?: Body) => route({ ...d, ...(s ? { querystring: s } : {}) });
  const one = paramSchema({ clientId: clientId() });
  const accounts = listParams(schemas, 'sub-account');
  const finance = listParams(schemas, 'sub-account-finance');
  const me = (req: FastifyRequest) => sessionOf(req).account;
  return async (app) => {
    // lists and stats
    app.post('/client/accounts', post({ tag: TAG, summary: '子账户列表', access: 'agent' }, accounts), async (req) => ok(await svc.managerList(me(req), params(req))));
    app.get('/client/stat', get({ tag: TAG, summary: '子账户统计（总数、本月新增、冻结、认证、余额）', access: 'agent' }), async (req) => ok(await svc.stat(me(req))));
    app.get('/index/clients', get({ tag: TAG, summary: '子账户选择列表（分页）', access: 'agent' }, listParams(schemas, undefined, CURRENT_PAGE)), async (req) =>
      ok(await svc.clients(me(req), params(req))),
    );
    app.get('/index/data', get({ tag: '账户', summary: '首页数据', access: 'session' }), async (req) => ok(await svc.indexData(me(req))));
    app.post('/recharge/rollback/getAccounts', post({ tag: FINANCE, summary: '客户财务列表', access: 'agent' }, finance), async (req) => ok(await svc.financeList(me(req), params(req))));

    // one sub-account
    app.get('/client/account/detail', get({ tag: TAG, summary: '子账户详情', access: 'agent' }, paramSchema({ client_id: clientId(), clientId: clientId() })), async (req) =>
      ok(await svc.detail(me(req), params(req).client_id ?? params(req).clientId)),
    );
    app.post('/client/account/freeze', post({ tag: TAG, summary: '冻结子账户', access: 'agent' }, one), async (req) => {
      const { accountId, ...r } = await svc.setStatus(me(req), params(req).clientId, AccountStatus.Frozen);
      // its sessions are gone: the session check's cache of this process forgets them at once
      sessions.forgetAccount(accountId);
      return ok(r, MESSAGES.frozen);
    });
    app.post('/client/account/unfreeze', post({ tag: TAG, summary: '解冻子账户', access: 'agent' }, one), async (req) => {
      const { accountId: _id, ...r } = await svc.setStatus(me(req), params(req).clientId, AccountStatus.Active);
      return ok(r, MESSAGES.unfrozen);
    });
    app.post('/client/account/remark', post({ tag: TAG, summary: '修改子账户备注（forms/sub-account-remark）', access: 'agent' }, paramSchema({ clientId: clientId(), remarks: { title: '备注' } })), async (req) =>
      ok(await svc.remark(me(req), params(req)), MESSAGES.remarkSaved),
    );
    app.post('/account/getAccountInfo', post({ tag: TAG, summary: '接入信息（协议、端口、接入号）：代理商查名下子账户，子账户查自己', access: 'session' }, one), async (req) =>
      ok(await svc.accountInfo(me(req), params(req).clientId, req.hostname)),
    );
    app.post(
      '/client/account/resetPsd',
      post(
        { tag: TAG, summary: '重置子账户密码：邮件发送新密码或直接设置（forms/sub-account-password）', access: 'agent' },
        paramSchema({ clientId: clientId(), way: { title: '方式（email / password）' }, email: { title: '邮箱' }, password: { title: '新密码' }, confirmPassword: { title: '确认密码' } }),
      ),
      async (req) => {
        const r = await svc.resetPassword(me(req), params(req));
        return ok({ sent: r.sent }, r.msg);
      },
    );
    // which numbers belong to accounts is not public: the check is limited per account (and, by the
    // per-address limit, per address) to what opening accounts by hand needs
    const mobileCheck = {
      config: {
        rateLimit: {
          max: ctx.config.mobileCheckPerHour,
          timeWindow: 3600_000,
          hook: 'preHandler' as const,
          keyGenerator: (req: FastifyRequest) => `mobile-check:${sessionOf(req).account.id}`,
        },
      },
    };
    app.get('/client/account/validate/mobile', get({ tag: TAG, summary: '开户：检查手机号码是否可用（每账户每小时有限次）', access: 'agent', with: mobileCheck }, paramSchema({ mobile: text('手机号码', 32) })), async (req) => {
      await svc.mobileAvailable(params(req).mobile);
      return ok(true, '手机号码可用');
    });
    app.post<{ Body: OpenAccountForm }>('/client/account/addUser', route({ tag: TAG, summary: '开户（新建子账户）', access: 'agent', body: formSchema(schemas, 'forms/open-account') }), async (req) =>
      ok(await svc.open(me(req), req.body), MESSAGES.opened),
    );
    app.post('/client/account/export', post({ tag: TAG, summary: '导出子账户列表（Excel）', access: 'agent' }, accounts), async (req, reply) =>
      sendXlsx(reply, await svc.exportXlsx(me(req), params(req)), '子账户列表.xlsx'),
    );
    app.post('/recharge/rollback/export', post({ tag: FINANCE, summary: '导出客户财务（Excel）', access: 'agent' }, finance), async (req, reply) =>
      sendXlsx(reply, await svc.exportXlsx(me(req), params(req), true), '客户财务.xlsx'),
    );

    // POST /account/updateClient: with a clientid from an agent, the agent edits its sub-account
    // (forms/sub-account-edit); otherwise the caller edits itself (forms/enterprise-base-info, own-account area)
    app.post(
      '/account/updateClient',
      route({
        tag: TAG,
        summary: '修改企业信息：代理商带 clientid 修改其子账户（forms/sub-account-edit），子账户修改自己（forms/enterprise-base-info）',
        access: 'session',
      }),
      async (req, reply) => {
        const body = params(req);
        const raw = body.clientid ?? body.clientId;
        const target = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
        const agent = me(req).user_type === UserType.Agent;
        // a sub-account may edit only itself
        if (!agent && target && target !== me(req).clientid) throw errors.forbidden();
        if (agent && target) return ok(await svc.updateByAgent(me(req), { ...body, clientid: body.clientid ?? body.clientId }), MESSAGES.updated);
        if (opts.selfUpdate) return opts.selfUpdate(req, reply);
        throw errors.notFound('接口');
      },
    );

    // money
    app.post<{ Body: RechargeForm }>('/client/recharge', route({ tag: FINANCE, summary: '给子账户充值', access: 'agent', body: formSchema(schemas, 'forms/recharge') }), async (req) =>
      ok(await svc.transfer('recharge', me(req), req.body), MESSAGES.recharged),
    );
    app.post<{ Body: RechargeForm }>('/client/rollback', route({ tag: FINANCE, summary: '从子账户回退余额', access: 'agent', body: formSchema(schemas, 'forms/recharge') }), async (req) =>
      ok(await svc.transfer('rollback', me(req), req.body), MESSAGES.rolledBack),
    );
    app.post<{ Body: PriceForm }>('/client/price', route({ tag: FINANCE, summary: '设置子账户价格', access: 'agent', body: formSchema(schemas, 'forms/sub-account-price') }), async (req) =>
      ok(await svc.setPrice(me(req), req.body), MESSAGES.priceSet),
    );
    app.post(
      '/client/remind',
      post({ tag: FINANCE, summary: '设置余额提醒（forms/balance-reminder）', access: 'agent' }, paramSchema({ clientId: clientId(), balanceAlarm: { title: '提醒阈值（元）' }, alarmMobile: { title: '提醒手机号' } })),
      async (req) => ok(await svc.setReminder(me(req), params(req)), MESSAGES.reminderSet),
    );
    app.post('/client/expire', post({ tag: TAG, summary: '设置子账户到期日期', access: 'agent' }, paramSchema({ clientId: clientId(), expireDate: { title: '到期日期（YYYY-MM-DD，空为不限）' } })), async (req) =>
      ok(await svc.setExpiration(me(req), params(req)), MESSAGES.expirySet),
    );
    app.get('/client/ledger', get({ tag: FINANCE, summary: '本账户余额与最近流水', access: 'session' }), async (req) => ok(await svc.ownLedger(me(req))));

    // log in as a sub-account: the agent gets a one-time token, the console posts it back
    app.post('/client/loginAs', post({ tag: TAG, summary: '登录子账户：取一次性令牌（60 秒）', access: 'agent' }, one), async (req) => ok(await svc.loginAsToken(me(req), params(req).clientId)));
    app.post('/client/loginAs/enter', post({ tag: TAG, summary: '以一次性令牌登录子账户', access: 'public' }, paramSchema({ token: text('一次性令牌', 200) })), async (req, reply) => {
      const account = await svc.redeemLoginAs(params(req).token);
      await sessions.open(req, reply, account, false);
      return ok({ clientid: account.clientid }, MESSAGES.loggedIn);
    });
  };
}
