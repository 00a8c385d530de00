/**
 * Sub-account management routes (agents only, except /index/data and the log-in-as redemption).
 * See docs in the final report / README: every call answers { code, msg, data }.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../http/errors';
import { ok } from '../../http/reply';
import { sessionOf, type SessionService } from '../auth/session';
import type { SubAccountService } from './service';
import { AccountStatus, UserType } from '../../../common/generated/schemas';

type Body = Record<string, unknown>;
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

export function subaccountRoutes(sessions: SessionService, svc: SubAccountService, opts: { selfUpdate?: SelfUpdateHandler } = {}): FastifyPluginAsync {
  return async (app) => {
    const agent = { preHandler: sessions.requireAgent() };
    const session = { preHandler: sessions.requireSession() };
    const me = (req: FastifyRequest) => sessionOf(req).account;

    // lists and stats
    app.post('/client/accounts', agent, async (req) => ok(await svc.managerList(me(req), params(req))));
    app.get('/client/stat', agent, async (req) => ok(await svc.stat(me(req))));
    app.get('/index/clients', agent, async (req) => ok(await svc.clients(me(req), params(req))));
    app.get('/index/data', session, async (req) => ok(await svc.indexData(me(req))));
    app.post('/recharge/rollback/getAccounts', agent, async (req) => ok(await svc.financeList(me(req), params(req))));

    // one sub-account
    app.get('/client/account/detail', agent, async (req) => ok(await svc.detail(me(req), params(req).client_id ?? params(req).clientId)));
    app.post('/client/account/freeze', agent, async (req) => ok(await svc.setStatus(me(req), params(req).clientId, AccountStatus.Frozen), '冻结成功'));
    app.post('/client/account/unfreeze', agent, async (req) => ok(await svc.setStatus(me(req), params(req).clientId, AccountStatus.Active), '解冻成功'));
    app.post('/client/account/remark', agent, async (req) => ok(await svc.remark(me(req), params(req)), '备注已保存'));
    app.post('/account/getAccountInfo', agent, async (req) => ok(await svc.accountInfo(me(req), params(req).clientId, req.hostname)));
    app.post('/client/account/resetPsd', agent, async (req) => {
      const r = await svc.resetPassword(me(req), params(req));
      return ok({ sent: r.sent }, r.msg);
    });
    app.get('/client/account/validate/mobile', agent, async (req) => {
      await svc.mobileAvailable(params(req).mobile);
      return ok(true, '手机号码可用');
    });
    app.post('/client/account/addUser', agent, async (req) => ok(await svc.open(me(req), req.body), '开户成功'));
    app.post('/client/account/export', agent, async (req, reply) => sendXlsx(reply, await svc.exportXlsx(me(req), params(req)), '子账户列表.xlsx'));
    app.post('/recharge/rollback/export', agent, async (req, reply) => sendXlsx(reply, await svc.exportXlsx(me(req), params(req), true), '客户财务.xlsx'));

    // POST /account/updateClient: with a clientid from an agent, the agent edits its sub-account;
    // otherwise the caller edits itself (own-account area)
    app.post('/account/updateClient', session, async (req, reply) => {
      const body = params(req);
      const target = String(body.clientid ?? body.clientId ?? '').trim();
      // a sub-account may edit only itself
      if (me(req).user_type !== UserType.Agent && target && target !== me(req).clientid) throw errors.forbidden();
      if (me(req).user_type === UserType.Agent && target) {
        return ok(await svc.updateByAgent(me(req), { ...body, clientid: body.clientid ?? body.clientId }), '修改成功');
      }
      if (opts.selfUpdate) return opts.selfUpdate(req, reply);
      throw errors.notFound('接口');
    });

    // money
    app.post('/client/recharge', agent, async (req) => ok(await svc.transfer('recharge', me(req), req.body), '充值成功'));
    app.post('/client/rollback', agent, async (req) => ok(await svc.transfer('rollback', me(req), req.body), '回退成功'));
    app.post('/client/price', agent, async (req) => ok(await svc.setPrice(me(req), req.body), '价格设置成功'));
    app.post('/client/remind', agent, async (req) => ok(await svc.setReminder(me(req), params(req)), '提醒设置成功'));
    app.post('/client/expire', agent, async (req) => ok(await svc.setExpiration(me(req), params(req)), '到期时间设置成功'));
    app.get('/client/ledger', session, async (req) => ok(await svc.ownLedger(me(req))));

    // log in as a sub-account: the agent gets a one-time token, the console posts it back
    app.post('/client/loginAs', agent, async (req) => ok(await svc.loginAsToken(me(req), params(req).clientId)));
    app.post('/client/loginAs/enter', async (req, reply) => {
      const account = await svc.redeemLoginAs(params(req).token);
      await sessions.open(req, reply, account, false);
      return ok({ clientid: account.clientid }, '登录成功');
    });
  };
}
