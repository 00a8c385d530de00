/**
 * Sub-account management routes (agents only, except /index/data, /client/ledger, the
 * own-account branch of /account/updateClient and the log-in-as redemption). Every call answers
 * { code, msg, data }; who may call a route is its `access` (server/http/route.ts).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { DoorPorts } from './interface-settings';
import type { AppContext } from '../../context';
import { api, fileReply, listOf, okOf, pagingOnly, request, type TypedSchema } from '../../http/contract';
import { sendFile, XLSX_MIME } from '../../http/download';
import { errors } from '../../http/errors';
import { ok } from '../../http/reply';
import { route, type RouteDecl } from '../../http/route';
import { sessionOf, type SessionService } from '../../http/session';
import type { OperatorSessions } from '../../http/operator-session';
import type { AccountService } from '../account';
import type { SubAccountService } from './service';
import { TEST_MSG } from '../clients';
import type { TestAccountService } from './test-accounts';
import { AccountStatus, UserType } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

const TAG = '子账户';
const FINANCE = '客户财务';

export function subaccountRoutes(
  ctx: AppContext,
  sessions: SessionService,
  svc: SubAccountService,
  account: AccountService,
  doorPorts: () => DoorPorts,
  tests: TestAccountService,
  /** the operators' sessions: redeeming a log-in-as token in an operator's browser ends its session (one kind per browser) */
  operatorSessions: Pick<OperatorSessions, 'revokeCurrent'>,
): FastifyPluginAsync {
  /** where the console was reached (接口信息 uses PAY_PUBLIC_URL's origin instead when it is set) */
  const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
  /** a POST whose parameters may come in the body or the query (the console posts forms; older callers use the query): both follow `s` */
  const either = <T>(d: Omit<RouteDecl, 'body' | 'querystring'>, s: TypedSchema<T>) =>
    route({ ...d, body: s, querystring: s });
  /** query and body together, the body's values first */
  const both = <T extends object>(req: { query: T; body: T }): T => ({ ...req.query, ...req.body });
  const me = (req: FastifyRequest) => sessionOf(req).account;

  const accounts = request(ctx, 'filters/sub-account', { paging: 'currentPage' });
  const accountsExport = request(ctx, 'filters/sub-account');
  const finance = request(ctx, 'filters/sub-account-finance', { paging: 'currentPage' });
  const financeExport = request(ctx, 'filters/sub-account-finance');
  const one = request(ctx, 'params/sub-account-ref');
  const financeRow = okOf(ctx, 'entities/sub-account');

  return async (plugin) => {
    const app = api(plugin);

    // lists and stats
    app.post(
      '/client/accounts',
      either(
        {
          tag: TAG,
          summary: '子账户列表',
          access: 'agent',
          cachedSession: true,
          response: listOf(ctx, 'entities/sub-account'),
        },
        accounts,
      ),
      async (req) => ok(await svc.managerList(me(req), both(req))),
    );
    app.get(
      '/client/stat',
      route({
        tag: TAG,
        summary: '子账户统计（总数、本月新增、冻结、认证、余额）',
        access: 'agent',
        response: okOf(ctx, 'responses/sub-account-stats'),
      }),
      async (req) => ok(await svc.stat(me(req))),
    );
    app.get(
      '/index/clients',
      route({
        tag: TAG,
        summary: '子账户选择列表（分页）',
        access: 'agent',
        querystring: pagingOnly('currentPage'),
        response: listOf(ctx, 'responses/client-summary'),
      }),
      async (req) => ok(await svc.clients(me(req), req.query)),
    );
    app.get(
      '/index/data',
      route({ tag: '账户', summary: '首页数据', access: 'session', response: okOf(ctx, 'responses/index-data') }),
      async (req) => ok(await svc.indexData(me(req))),
    );
    app.post(
      '/recharge/rollback/getAccounts',
      either(
        { tag: FINANCE, summary: '客户财务列表', access: 'agent', response: listOf(ctx, 'entities/sub-account') },
        finance,
      ),
      async (req) => ok(await svc.financeList(me(req), both(req))),
    );

    // one sub-account
    app.get(
      '/client/account/detail',
      route({
        tag: TAG,
        summary: '子账户详情',
        access: 'agent',
        querystring: request(ctx, 'params/sub-account-detail'),
        response: okOf(ctx, 'entities/sub-account-detail'),
      }),
      async (req) => ok(await svc.detail(me(req), req.query.client_id ?? req.query.clientId)),
    );
    app.post(
      '/client/account/freeze',
      either(
        { tag: TAG, summary: '冻结子账户', access: 'agent', response: okOf(ctx, 'responses/sub-account-status') },
        one,
      ),
      async (req) => {
        const { accountId, ...r } = await svc.setStatus(me(req), both(req).clientId, AccountStatus.Frozen);
        // its sessions are gone: the session check's cache of this process forgets them at once
        sessions.forgetAccount(accountId);
        return ok(r, MESSAGES.frozen);
      },
    );
    app.post(
      '/client/account/unfreeze',
      either(
        { tag: TAG, summary: '解冻子账户', access: 'agent', response: okOf(ctx, 'responses/sub-account-status') },
        one,
      ),
      async (req) => {
        const { accountId: _id, ...r } = await svc.setStatus(me(req), both(req).clientId, AccountStatus.Active);
        return ok(r, MESSAGES.unfrozen);
      },
    );
    app.post(
      '/client/account/remark',
      either(
        {
          tag: TAG,
          summary: '修改子账户备注（forms/sub-account-remark）',
          access: 'agent',
          response: okOf(ctx, 'responses/sub-account-remark'),
        },
        request(ctx, 'params/sub-account-remark'),
      ),
      async (req) => ok(await svc.remark(me(req), both(req)), MESSAGES.remarkSaved),
    );
    app.post(
      '/account/getAccountInfo',
      either(
        {
          tag: TAG,
          summary:
            '接口信息（真实的接入地址、端口、协议、掩码接口密码、白名单、速率、报告方式）：代理商查名下子账户，子账户查自己',
          access: 'session',
          response: okOf(ctx, 'responses/interface-info'),
        },
        one,
      ),
      async (req) => ok(await svc.accountInfo(me(req), both(req).clientId, originOf(req), doorPorts())),
    );
    app.post(
      '/client/account/interface',
      route({
        tag: TAG,
        summary:
          '修改子账户接口设置：IP白名单、速率、最大连接数、状态报告 / 上行方式、扩展号（forms/sub-account-interface）',
        access: 'agent',
        body: request(ctx, 'forms/sub-account-interface'),
        response: okOf(ctx, 'responses/interface-info'),
      }),
      async (req) =>
        ok(await svc.updateInterface(me(req), req.body, originOf(req), doorPorts()), MESSAGES.interfaceSaved),
    );
    app.post(
      '/client/account/resetPsd',
      either(
        {
          tag: TAG,
          summary: '重置子账户密码：邮件发送新密码或直接设置（forms/sub-account-password）',
          access: 'agent',
          response: okOf(ctx, 'responses/password-mail'),
        },
        request(ctx, 'params/sub-account-reset-password'),
      ),
      async (req) => {
        const r = await svc.resetPassword(me(req), both(req));
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
    app.get(
      '/client/account/validate/mobile',
      route({
        tag: TAG,
        summary: '开户：检查手机号码是否可用（每账户每小时有限次）',
        access: 'agent',
        with: mobileCheck,
        querystring: request(ctx, 'params/sub-account-mobile'),
        response: okOf(ctx, 'responses/mobile-available'),
      }),
      async (req) => {
        await svc.mobileAvailable(req.query.mobile);
        return ok(true, '手机号码可用');
      },
    );
    app.post(
      '/client/account/addUser',
      route({
        tag: TAG,
        summary: '开户（新建子账户）',
        access: 'agent',
        body: request(ctx, 'forms/open-account'),
        response: okOf(ctx, 'entities/opened-account'),
      }),
      async (req) => ok(await svc.open(me(req), req.body), MESSAGES.opened),
    );
    app.post(
      '/client/account/export',
      either(
        { tag: TAG, summary: '导出子账户列表（Excel）', access: 'agent', response: fileReply(XLSX_MIME) },
        accountsExport,
      ),
      async (req, reply) =>
        sendFile(
          reply.header('cache-control', 'no-store'),
          await svc.exportXlsx(me(req), both(req)),
          '子账户列表.xlsx',
        ),
    );
    app.post(
      '/recharge/rollback/export',
      either(
        { tag: FINANCE, summary: '导出客户财务（Excel）', access: 'agent', response: fileReply(XLSX_MIME) },
        financeExport,
      ),
      async (req, reply) =>
        sendFile(
          reply.header('cache-control', 'no-store'),
          await svc.exportXlsx(me(req), both(req), true),
          '客户财务.xlsx',
        ),
    );

    // test accounts (docs/api-subaccounts.md "Test accounts")
    app.post(
      '/client/account/test/add',
      route({
        tag: TAG,
        summary: '创建测试账户：平台赠送少量条数，只能发到代理商本人手机号，到期冻结（forms/test-account）',
        access: 'agent',
        body: request(ctx, 'forms/test-account'),
        response: okOf(ctx, 'entities/test-account-created'),
      }),
      async (req) => ok(await tests.create(me(req), req.body), TEST_MSG.created),
    );
    app.post(
      '/client/account/test/convert',
      route({
        tag: TAG,
        summary: '测试账户转为正式账户（收回剩余赠送条数）',
        access: 'agent',
        body: one,
        response: okOf(ctx, 'responses/account-ref'),
      }),
      async (req) => ok(await tests.convert(me(req), req.body.clientId), TEST_MSG.converted),
    );

    // POST /account/updateClient: with a clientid from an agent, the agent edits its sub-account
    // (forms/sub-account-edit); otherwise the caller edits itself (forms/enterprise-base-info, the account module)
    app.post(
      '/account/updateClient',
      either(
        {
          tag: TAG,
          summary:
            '修改企业信息：代理商带 clientid 修改其子账户（forms/sub-account-edit），子账户修改自己（forms/enterprise-base-info）',
          access: 'session',
          response: okOf(ctx, 'entities/sub-account-detail'),
        },
        request(ctx, 'forms/account-update-client'),
      ),
      async (req) => {
        const body = both(req);
        const target = body.clientid ?? body.clientId ?? '';
        const agent = me(req).user_type === UserType.Agent;
        // a sub-account may edit only itself
        if (!agent && target && target !== me(req).clientid) throw errors.forbidden();
        if (agent && target)
          return ok(await svc.updateByAgent(me(req), { ...body, clientid: target }), MESSAGES.updated);
        await account.updateSelf(me(req), req.body);
        return ok(undefined, MESSAGES.saved);
      },
    );

    // money
    app.post(
      '/client/recharge',
      route({
        tag: FINANCE,
        summary: '给子账户充值',
        access: 'agent',
        body: request(ctx, 'forms/recharge'),
        response: okOf(ctx, 'responses/balance-transfer'),
      }),
      async (req) => ok(await svc.transfer('recharge', me(req), req.body), MESSAGES.recharged),
    );
    app.post(
      '/client/rollback',
      route({
        tag: FINANCE,
        summary: '从子账户回退余额',
        access: 'agent',
        body: request(ctx, 'forms/recharge'),
        response: okOf(ctx, 'responses/balance-transfer'),
      }),
      async (req) => ok(await svc.transfer('rollback', me(req), req.body), MESSAGES.rolledBack),
    );
    app.post(
      '/client/price',
      route({
        tag: FINANCE,
        summary: '设置子账户价格',
        access: 'agent',
        body: request(ctx, 'forms/sub-account-price'),
        response: financeRow,
      }),
      async (req) => ok(await svc.setPrice(me(req), req.body), MESSAGES.priceSet),
    );
    app.post(
      '/client/remind',
      either(
        {
          tag: FINANCE,
          summary: '设置余额提醒（forms/balance-reminder）',
          access: 'agent',
          response: okOf(ctx, 'responses/balance-reminder'),
        },
        request(ctx, 'params/sub-account-reminder'),
      ),
      async (req) => ok(await svc.setReminder(me(req), both(req)), MESSAGES.reminderSet),
    );
    app.post(
      '/client/expire',
      either(
        {
          tag: TAG,
          summary: '设置子账户到期日期',
          access: 'agent',
          response: okOf(ctx, 'responses/sub-account-expiry'),
        },
        request(ctx, 'params/sub-account-expire'),
      ),
      async (req) => ok(await svc.setExpiration(me(req), both(req)), MESSAGES.expirySet),
    );
    app.get(
      '/client/ledger',
      route({
        tag: FINANCE,
        summary: '本账户余额与最近流水',
        access: 'session',
        response: okOf(ctx, 'responses/own-ledger'),
      }),
      async (req) => ok(await svc.ownLedger(me(req))),
    );

    // log in as a sub-account: the agent gets a one-time token, the console posts it back (an
    // operator's token, POST /operator/customers/login-as, is redeemed here too)
    app.post(
      '/client/loginAs',
      either(
        {
          tag: TAG,
          summary: '登录子账户：取一次性令牌（60 秒）',
          access: 'agent',
          response: okOf(ctx, 'responses/login-as-token'),
        },
        one,
      ),
      async (req) => ok(await svc.loginAsToken(me(req), both(req).clientId)),
    );
    app.post(
      '/client/loginAs/enter',
      either(
        {
          tag: TAG,
          summary: '以一次性令牌登录账户（代理商登录其子账户，或运营人员登录任一账户；本浏览器原有的登录随即结束）',
          access: 'public',
          response: okOf(ctx, 'responses/account-ref'),
        },
        request(ctx, 'params/login-as-enter'),
      ),
      async (req, reply) => {
        const sub = await svc.redeemLoginAs(both(req).token);
        // one kind of session per browser: an operator's ends (its login-as), as an account's does
        await operatorSessions.revokeCurrent(req);
        await sessions.open(req, reply, sub, false);
        return ok({ clientid: sub.clientid }, MESSAGES.loggedIn);
      },
    );
  };
}
