import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, okOf, request } from '../../http/contract';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import { MESSAGES } from '../../../common/schema/messages';
import type { InterfacePasswordService } from './interface-password';

const TAG = '接口信息';

/** POST /client/account/resetInterfacePassword (docs/api-smpp.md "Interface password"). */
export function smppServerRoutes(ctx: AppContext, passwords: InterfacePasswordService): FastifyPluginAsync {
  const params = request(ctx, 'params/interface-password-reset');
  const answer = okOf(ctx, 'responses/interface-password');
  return async (plugin) => {
    const app = api(plugin);
    app.post(
      '/client/account/resetInterfacePassword',
      route({
        tag: TAG,
        summary: '重置接口密码（SMPP 绑定密码）：账户自己，或代理商为名下子账户；新密码只在本次回答中出现',
        access: 'session',
        body: params,
        response: answer,
      }),
      async (req) =>
        ok(await passwords.reset(sessionOf(req).account, req.body?.clientId), MESSAGES.interfacePasswordReset),
    );
  };
}
