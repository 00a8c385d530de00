import type { FastifyPluginAsync, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../../context';
import type { JsonSchema } from '../../../common/schema';
import { api, dataPageOf, okEmpty, okOf, request } from '../../http/contract';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { MESSAGES } from '../../../common/schema/messages';
import { sessionOf } from '../../http/session';
import { money2 } from '../../lib/money';
import type { PayProvider } from './providers';
import type { PayService } from './service';
import { sandboxPage } from './sandbox-page';

const TAG = '在线充值';
const SANDBOX_TAG = '在线充值：支付渠道回调与沙箱';

declare module 'fastify' {
  interface FastifyRequest {
    /** the notify routes: the body exactly as received (WeChat Pay signs it) */
    rawBody?: string;
  }
}

/** Online recharge and pay orders (docs/api-pay.md). */
export function payRoutes(ctx: AppContext, pay: PayService): FastifyPluginAsync {
  const byId = request(ctx, 'params/pay-order-ref');
  const order = okOf(ctx, 'entities/pay-order');
  const configReply = okOf(ctx, 'responses/pay-config');
  // the providers' acknowledgement (their own text), or {code, msg} when refused
  const ackReply: JsonSchema = {
    description: '渠道要求的应答（文本 / JSON）',
    content: { 'text/plain': { schema: { type: 'string' } }, 'application/json': { schema: okEmpty } },
  };
  const htmlPage: JsonSchema = {
    description: '沙箱扫码页（HTML）',
    content: { 'text/html': { schema: { type: 'string' } } },
  };
  const notifyOpts = { config: { csrf: false } } as RouteShorthandOptions;

  const answer = async (provider: PayProvider | null, req: FastifyRequest, reply: FastifyReply) => {
    if (!provider) return reply.status(404).send({ code: 404, msg: '支付渠道未配置' });
    const r = await pay.notify(provider, { body: req.body, raw: req.rawBody ?? '', headers: req.headers });
    // a verified notification that is handled (or can never be) is acknowledged, so the provider stops repeating it
    if (
      r.credited ||
      r.reason === MESSAGES.payOrderNotFound ||
      r.reason === '金额不符' ||
      r.reason === '支付渠道不符'
    ) {
      if (!r.credited) req.log.warn({ reason: r.reason }, 'pay notification not credited');
      return reply
        .status(r.credited ? 200 : 400)
        .header('content-type', provider.ack.contentType)
        .send(r.credited ? provider.ack.body : JSON.stringify({ code: 400, msg: r.reason }));
    }
    return reply.status(400).send({ code: 400, msg: r.reason });
  };

  return async (plugin) => {
    const app = api(plugin);
    app.get(
      '/onlinePay/config',
      route({
        tag: TAG,
        summary: '在线充值设置：isOpenPay（1 开通）、订单有效秒数、金额范围、沙箱渠道',
        access: 'session',
        response: configReply,
      }),
      async (req) => ok(pay.config(sessionOf(req).account)),
    );
    app.post(
      '/onlinePay/createPay',
      route({
        tag: TAG,
        summary:
          '创建充值订单（amount 元，paymentMode 0 支付宝 / 1 微信支付），返回订单与二维码内容；同金额同支付方式且剩余一分钟以上的待支付订单直接返回该订单',
        access: 'session',
        body: request(ctx, 'forms/online-recharge'),
        response: order,
      }),
      async (req) =>
        ok(
          await pay.create(sessionOf(req).account, {
            amount: money2(req.body.amount),
            paymentMode: req.body.paymentMode,
          }),
        ),
    );
    app.post(
      '/onlinePay/payStatus',
      route({ tag: TAG, summary: '支付订单状态（支付弹窗轮询）', access: 'session', body: byId, response: order }),
      async (req) => ok(await pay.status(sessionOf(req).account, req.body.paymentId)),
    );
    app.post(
      '/onlinePay/queryPayOrder',
      route({
        tag: TAG,
        summary: '支付订单列表（page、rows，默认每页 15）',
        access: 'session',
        body: request(ctx, 'filters/pay-order', { paging: 'page' }),
        response: dataPageOf(ctx, 'entities/pay-order'),
      }),
      async (req) => ok(await pay.list(sessionOf(req).account, req.body)),
    );
    app.post(
      '/onlinePay/cancelPay',
      route({ tag: TAG, summary: '取消待支付的订单', access: 'session', body: byId, response: okEmpty }),
      async (req) => {
        await pay.cancel(sessionOf(req).account, req.body.paymentId);
        return ok(undefined, MESSAGES.payOrderCancelled);
      },
    );

    // ---- provider notifications (no session, no CSRF token: their signature authenticates them)
    app.post(
      '/onlinePay/notify/sandbox',
      route({
        tag: SANDBOX_TAG,
        summary: '沙箱渠道的支付通知（HMAC-SHA256 签名）',
        access: 'public',
        body: request(ctx, 'params/pay-sandbox-notice'),
        response: ackReply,
        with: notifyOpts,
      }),
      async (req, reply) => answer(pay.providers.sandbox, req, reply),
    );
    app.post(
      '/onlinePay/notify/alipay',
      route({
        tag: SANDBOX_TAG,
        summary: '支付宝异步通知（表单，RSA2 签名，由 alipay-sdk 验签）',
        access: 'public',
        body: request(ctx, 'params/pay-provider-notice'),
        response: ackReply,
        with: notifyOpts,
      }),
      async (req, reply) => answer(pay.providers.alipay, req, reply),
    );
    await app.register(async (wxPlugin) => {
      const wx = api(wxPlugin);
      // WeChat Pay signs the body text: keep it as received
      wx.removeContentTypeParser('application/json');
      wx.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (req, body, done) => {
        const raw = body as string;
        req.rawBody = raw;
        try {
          const v: unknown = JSON.parse(raw);
          if (!v || typeof v !== 'object' || Array.isArray(v))
            return done(new ApiError(400, MESSAGES.badParam), undefined);
          done(null, v);
        } catch {
          done(new ApiError(400, MESSAGES.badParam), undefined);
        }
      });
      wx.post(
        '/onlinePay/notify/wechat',
        route({
          tag: SANDBOX_TAG,
          summary: '微信支付通知（JSON，平台证书签名，由 wechatpay-node-v3 验签并解密）',
          access: 'public',
          body: request(ctx, 'params/pay-provider-notice'),
          response: ackReply,
          with: notifyOpts,
        }),
        async (req, reply) => answer(pay.providers.wechat, req, reply),
      );
    });

    // ---- the sandbox provider's pay page (what the QR code opens)
    app.get(
      '/onlinePay/sandbox/scan',
      route({
        tag: SANDBOX_TAG,
        summary: '沙箱扫码支付页（HTML：确认支付 / 取消）',
        access: 'public',
        querystring: request(ctx, 'params/pay-sandbox-scan'),
        response: htmlPage,
      }),
      async (req, reply) => {
        const q = req.query;
        const o = await pay.sandboxOrder(q.paymentId, q.token, { open: true });
        return reply.header('content-type', 'text/html; charset=utf-8').send(
          sandboxPage({
            order: o,
            token: q.token ?? '',
            now: ctx.now(),
            label: (e, v) => ctx.schemas.registry.enumLabel(e, v) ?? '',
          }),
        );
      },
    );
    app.post(
      '/onlinePay/sandbox/pay',
      route({
        tag: SANDBOX_TAG,
        summary: '沙箱扫码页的确认支付 / 取消（表单）：确认时沙箱签发支付通知并入账',
        access: 'public',
        body: request(ctx, 'params/pay-sandbox-action'),
        response: htmlPage,
        with: notifyOpts,
      }),
      async (req, reply) => {
        const b = req.body;
        const r = await pay.sandboxPay(b.paymentId, b.token, b.action === 'cancel' ? 'cancel' : 'confirm');
        const o = r.order ? await pay.sandboxOrder(b.paymentId, b.token) : null;
        return reply.header('content-type', 'text/html; charset=utf-8').send(
          sandboxPage({
            order: o,
            token: b.token ?? '',
            now: ctx.now(),
            label: (e, v) => ctx.schemas.registry.enumLabel(e, v) ?? '',
            result: r,
          }),
        );
      },
    );
  };
}
