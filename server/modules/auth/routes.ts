import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, okEmpty, okOf, request } from '../../http/contract';
import { ipRateLimit } from '../../http/rate-limit';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import type { ProfileService } from '../profile';
import { LOGIN_MESSAGES, type AuthService } from './service';
import type { SessionService } from '../../http/session';
import type { OperatorSessions } from '../../http/operator-session';
import type { Operator } from '../../db/types';
import { OauthStatus, OperationMode, UserType, type CurrentUser } from '../../../common/generated/schemas';

const TAG = '会话与登录';

/** the login answer of an operator (entities/current-user: userType 3 and its role) */
function operatorUser(o: Operator): CurrentUser {
  return {
    userType: UserType.Operator,
    clientid: o.name,
    name: o.name,
    operation_mode: OperationMode.DirectCharge,
    oauth_status: OauthStatus.Certified,
    role: o.role,
  };
}

export function authRoutes(
  ctx: AppContext,
  deps: {
    auth: AuthService;
    sessions: SessionService;
    operatorSessions: OperatorSessions;
    profile: ProfileService;
    operatorLoggedIn?: (o: Operator, ip: string) => Promise<void>;
  },
): FastifyPluginAsync {
  const { auth, sessions, operatorSessions, profile } = deps;
  return async (plugin) => {
    const app = api(plugin);
    // the console asks this before every protected route: one indexed read
    app.get(
      '/login/timeout',
      route({
        tag: TAG,
        summary: '会话检查：data 为 true 表示已登录',
        access: 'public',
        response: okOf(ctx, 'responses/session-alive'),
      }),
      async (req, reply) =>
        // an account's session, else an operator's (the same cookie: operator-session.ts)
        ok((await sessions.isValid(req, reply)) || (await operatorSessions.resolve(req)) !== null),
    );

    app.post(
      '/login',
      route({
        tag: TAG,
        summary: '登录（密码为 SHA-256 十六进制摘要，需先通过滑块验证）',
        access: 'public',
        body: request(ctx, 'forms/login'),
        response: okOf(ctx, 'entities/current-user'),
        with: ipRateLimit(ctx.config),
      }),
      async (req, reply) => {
        const form = req.body;
        const who = await auth.authenticate(form, req.ip);
        if (who.operator) {
          // one kind of session per browser: the account session this browser held ends first
          await sessions.revokeCurrent(req, reply);
          await operatorSessions.open(req, reply, who.operator);
          await deps.operatorLoggedIn?.(who.operator, req.ip);
          req.log.info({ operator: who.operator.name }, 'operator login');
          return ok(operatorUser(who.operator), LOGIN_MESSAGES.ok);
        }
        const account = who.account;
        await operatorSessions.revokeCurrent(req);
        await sessions.open(req, reply, account, form.remember === true);
        req.log.info({ clientid: account.clientid }, 'login');
        return ok(await profile.currentUser(account), LOGIN_MESSAGES.ok);
      },
    );

    app.post(
      '/logout',
      route({ tag: TAG, summary: '退出登录', access: 'public', response: okEmpty }),
      async (req, reply) => {
        await operatorSessions.revokeCurrent(req);
        await sessions.revokeCurrent(req, reply);
        return ok(undefined, '已退出登录');
      },
    );
  };
}
