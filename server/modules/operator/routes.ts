/**
 * /operator/*: the operators' routes (issue 39, docs/api-operator.md). Every one is access
 * 'operator' (server/http/route.ts: an operator session, never an account's) with the roles that
 * may call it: the review lists and decisions to every role, the audit log and the operators to
 * 管理员 (the audit log to 运营 as well).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, arrayOf, listOf, okOf, pagingOnly, request } from '../../http/contract';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { errors } from '../../http/errors';
import { operatorOf } from '../../http/operator-session';
import { OperatorRole } from '../../../common/generated/schemas';
import type { UploadService } from '../upload';
import type { MonitorService } from '../metrics';
import type { RetentionService } from '../retention';
import { OperatorService } from './service';
import type { ReviewService } from './review';
import type { CustomerService } from './customers';
import type { ChannelService } from './channels';
import type { WordService } from './words';
import type { OperatorNoticeService } from './notices';
import { contentTestAnswer } from '../content';
import { MESSAGES } from '../../../common/schema/messages';
import { auditList } from './audit';

const TAG = '运营人员';
const ALL = [OperatorRole.Reviewer, OperatorRole.Operations, OperatorRole.Admin] as const;
const OPS = [OperatorRole.Operations, OperatorRole.Admin] as const;
const ADMIN = [OperatorRole.Admin] as const;

const actor = (req: Parameters<typeof operatorOf>[0]) => {
  const o = operatorOf(req);
  return { id: o.id, name: o.name };
};

export function operatorRoutes(
  ctx: AppContext,
  deps: {
    operators: OperatorService;
    review: ReviewService;
    customers: CustomerService;
    channels: ChannelService;
    words: WordService;
    notices: OperatorNoticeService;
    monitor: MonitorService;
    uploads: UploadService;
    retention: RetentionService;
  },
): FastifyPluginAsync {
  const { operators, review, customers, channels, words, notices, monitor, uploads, retention } = deps;
  return async (plugin) => {
    const app = api(plugin);
    app.get(
      '/operator/me',
      route({
        tag: TAG,
        summary: '当前运营人员',
        access: 'operator',
        roles: ALL,
        response: okOf(ctx, 'entities/operator'),
      }),
      async (req) => ok(OperatorService.toEntity(operatorOf(req))),
    );

    // ---- 审核
    app.get(
      '/operator/review/counts',
      route({
        tag: TAG,
        summary: '待审核数量（菜单角标）',
        access: 'operator',
        roles: ALL,
        response: okOf(ctx, 'entities/review-counts'),
      }),
      async () => ok(await review.counts()),
    );
    const list = request(ctx, 'filters/review', { paging: 'currentPage' });
    app.post(
      '/operator/review/certifications/list',
      route({
        tag: TAG,
        summary: '审核：资质认证列表',
        access: 'operator',
        roles: ALL,
        body: list,
        response: listOf(ctx, 'entities/review-certification'),
      }),
      async (req) => ok(await review.certifications(req.body)),
    );
    app.post(
      '/operator/review/signs/list',
      route({
        tag: TAG,
        summary: '审核：签名列表',
        access: 'operator',
        roles: ALL,
        body: list,
        response: listOf(ctx, 'entities/review-sign'),
      }),
      async (req) => ok(await review.signs(req.body)),
    );
    app.post(
      '/operator/review/templates/list',
      route({
        tag: TAG,
        summary: '审核：模板列表',
        access: 'operator',
        roles: ALL,
        body: list,
        response: listOf(ctx, 'entities/review-template'),
      }),
      async (req) => ok(await review.templates(req.body)),
    );
    app.post(
      '/operator/review/invoices/list',
      route({
        tag: TAG,
        summary: '审核：发票申请列表',
        access: 'operator',
        roles: ALL,
        body: list,
        response: listOf(ctx, 'entities/review-invoice'),
      }),
      async (req) => ok(await review.invoices(req.body)),
    );
    const decision = request(ctx, 'params/review-decision');
    app.post(
      '/operator/review/certifications/decide',
      route({
        tag: TAG,
        summary: '审核：通过或驳回资质认证',
        access: 'operator',
        roles: ALL,
        body: decision,
        response: okOf(ctx, 'responses/no-data'),
      }),
      async (req) => ok(null, await review.decideCertification(actor(req), req.body)),
    );
    app.post(
      '/operator/review/signs/decide',
      route({
        tag: TAG,
        summary: '审核：通过或驳回签名',
        access: 'operator',
        roles: ALL,
        body: decision,
        response: okOf(ctx, 'responses/no-data'),
      }),
      async (req) => ok(null, await review.decideSign(actor(req), req.body)),
    );
    app.post(
      '/operator/review/templates/decide',
      route({
        tag: TAG,
        summary: '审核：通过或驳回模板（结果按模板审核回调推送）',
        access: 'operator',
        roles: ALL,
        body: decision,
        response: okOf(ctx, 'responses/no-data'),
      }),
      async (req) => ok(null, await review.decideTemplate(actor(req), req.body)),
    );
    app.post(
      '/operator/review/invoices/status',
      route({
        tag: TAG,
        summary: '审核：变更发票状态',
        access: 'operator',
        roles: ALL,
        body: request(ctx, 'params/invoice-status-change'),
        response: okOf(ctx, 'responses/no-data'),
      }),
      async (req) => ok(null, await review.invoiceStatus(actor(req), req.body)),
    );
    // a certification's images (only those: an operator reads no other customer file)
    app.get<{ Params: { '*': string } }>(
      '/operator/files/*',
      route({ tag: TAG, summary: '资质认证的证件图片', access: 'operator', roles: ALL }),
      async (req, reply) => {
        let p: string;
        try {
          p = decodeURIComponent(req.params['*'] ?? '');
        } catch {
          throw errors.notFound('文件');
        }
        if (!(await review.isCertificationImage(p))) throw errors.notFound('文件');
        const f = await uploads.open(p);
        if (!f) throw errors.notFound('文件');
        return reply
          .header('content-type', f.mime)
          .header('cache-control', 'private, max-age=3600')
          .header('x-content-type-options', 'nosniff')
          .send(f.stream);
      },
    );

    // ---- 客户
    app.post(
      '/operator/customers/list',
      route({
        tag: TAG,
        summary: '客户：代理商与子账户（账户、名称、手机、邮箱搜索，状态，认证，余额，登录锁定）',
        access: 'operator',
        roles: OPS,
        body: request(ctx, 'filters/operator-customer', { paging: 'currentPage' }),
        response: listOf(ctx, 'entities/operator-customer'),
      }),
      async (req) => ok(await customers.list(req.body)),
    );
    const action = request(ctx, 'forms/operator-customer-action');
    const done = okOf(ctx, 'responses/no-data');
    app.post(
      '/operator/customers/freeze',
      route({
        tag: TAG,
        summary: '客户：冻结账户（结束其所有登录）',
        access: 'operator',
        roles: OPS,
        body: action,
        response: done,
      }),
      async (req) => ok(null, await customers.setFrozen(actor(req), req.body.clientid, true, req.body.remark)),
    );
    app.post(
      '/operator/customers/unfreeze',
      route({ tag: TAG, summary: '客户：解冻账户', access: 'operator', roles: OPS, body: action, response: done }),
      async (req) => ok(null, await customers.setFrozen(actor(req), req.body.clientid, false, req.body.remark)),
    );
    app.post(
      '/operator/customers/unlock',
      route({ tag: TAG, summary: '客户：解除登录锁定', access: 'operator', roles: OPS, body: action, response: done }),
      async (req) => ok(null, await customers.unlock(actor(req), req.body.clientid, req.body.remark)),
    );
    app.post(
      '/operator/customers/reset-password',
      route({
        tag: TAG,
        summary: '客户：重置密码（新密码发送至账户邮箱，结束其所有登录）',
        access: 'operator',
        roles: OPS,
        body: action,
        response: done,
      }),
      async (req) => ok(null, await customers.resetPassword(actor(req), req.body.clientid, req.body.remark)),
    );
    app.post(
      '/operator/customers/credit',
      route({
        tag: TAG,
        summary: '客户：调整代理商额度（经账本记账，备注必填）',
        access: 'operator',
        roles: OPS,
        body: request(ctx, 'forms/operator-credit'),
        response: done,
      }),
      async (req) => ok(null, await customers.credit(actor(req), req.body)),
    );

    app.post(
      '/operator/customers/login-as',
      route({
        tag: TAG,
        summary:
          '客户：以该账户身份登录（取一次性令牌，60 秒内由 POST /client/loginAs/enter 兑换；登录原因必填，记入审计日志）',
        access: 'operator',
        roles: OPS,
        body: request(ctx, 'forms/operator-login-as'),
        response: okOf(ctx, 'responses/login-as-token'),
      }),
      async (req) => ok(await customers.loginAs(actor(req), req.body.clientid, req.body.remark)),
    );

    // ---- 通道 (管理员)
    app.get(
      '/operator/channels/list',
      route({
        tag: TAG,
        summary: '通道：设置与所有工作进程的计数',
        access: 'operator',
        roles: ADMIN,
        response: arrayOf(ctx, 'entities/operator-channel'),
      }),
      async () => ok(await channels.list()),
    );
    app.post(
      '/operator/channels/save',
      route({
        tag: TAG,
        summary: '通道：添加或修改（运行中的工作进程数秒内生效）',
        access: 'operator',
        roles: ADMIN,
        body: request(ctx, 'forms/operator-channel'),
        response: done,
      }),
      async (req) => ok(null, await channels.save(actor(req), req.body)),
    );
    const channelRef = request(ctx, 'params/operator-channel-ref');
    app.post(
      '/operator/channels/pause',
      route({
        tag: TAG,
        summary: '通道：暂停（不再分配消息）',
        access: 'operator',
        roles: ADMIN,
        body: channelRef,
        response: done,
      }),
      async (req) => ok(null, await channels.setPaused(actor(req), req.body.name, true)),
    );
    app.post(
      '/operator/channels/resume',
      route({ tag: TAG, summary: '通道：恢复', access: 'operator', roles: ADMIN, body: channelRef, response: done }),
      async (req) => ok(null, await channels.setPaused(actor(req), req.body.name, false)),
    );
    app.post(
      '/operator/channels/remove',
      route({ tag: TAG, summary: '通道：删除', access: 'operator', roles: ADMIN, body: channelRef, response: done }),
      async (req) => ok(null, await channels.remove(actor(req), req.body.name)),
    );
    app.post(
      '/operator/channels/route',
      route({
        tag: TAG,
        summary: '通道：路由预览（号码与短信类型此刻会走哪个通道）',
        access: 'operator',
        roles: ADMIN,
        body: request(ctx, 'forms/route-preview'),
        response: okOf(ctx, 'entities/route-preview'),
      }),
      async (req) => ok(await channels.preview(req.body.phone, req.body.smstype)),
    );

    // ---- 内容: sensitive words (运营, 管理员)
    app.post(
      '/operator/words/list',
      route({
        tag: TAG,
        summary: '内容：控制台添加的敏感词（fileCount：词表文件中的词数）',
        access: 'operator',
        roles: OPS,
        body: request(ctx, 'filters/sensitive-word', { paging: 'currentPage' }),
        response: listOf(ctx, 'entities/sensitive-word', { fileCount: { type: 'integer', title: '词表文件中的词数' } }),
      }),
      async (req) => ok(await words.list(req.body)),
    );
    app.post(
      '/operator/words/add',
      route({
        tag: TAG,
        summary: '内容：添加敏感词（每行一个；导入文件即提交其文本），各进程数秒内生效',
        access: 'operator',
        roles: OPS,
        body: request(ctx, 'forms/sensitive-words-add'),
        response: done,
      }),
      async (req) => ok(null, await words.add(actor(req), req.body.words)),
    );
    app.post(
      '/operator/words/remove',
      route({
        tag: TAG,
        summary: '内容：删除控制台添加的敏感词',
        access: 'operator',
        roles: OPS,
        body: request(ctx, 'params/sensitive-word-ref'),
        response: done,
      }),
      async (req) => ok(null, await words.remove(actor(req), req.body.id)),
    );
    app.post(
      '/operator/words/test',
      route({
        tag: TAG,
        summary: '内容：检测一段文字（与用户的内容检测相同的回答）',
        access: 'operator',
        roles: OPS,
        body: request(ctx, 'forms/content-test'),
        response: okOf(ctx, 'responses/sensitive-ranges'),
      }),
      async (req) => {
        const ranges = ctx.words.find(req.body.content);
        return ok(contentTestAnswer(ranges), ranges.length ? '检测到敏感内容' : MESSAGES.noSensitiveWords);
      },
    );

    // ---- 内容: the platform's notices (运营, 管理员)
    app.post(
      '/operator/notices/list',
      route({
        tag: TAG,
        summary: '内容：平台公告',
        access: 'operator',
        roles: OPS,
        body: pagingOnly('currentPage'),
        response: listOf(ctx, 'entities/operator-notice'),
      }),
      async (req) => ok(await notices.list(req.body)),
    );
    app.post(
      '/operator/notices/publish',
      route({
        tag: TAG,
        summary: '内容：发布公告（HTML 按公告的白名单清理）',
        access: 'operator',
        roles: OPS,
        body: request(ctx, 'forms/notice-publish'),
        response: done,
      }),
      async (req) => ok(null, await notices.publish(actor(req), req.body)),
    );
    app.post(
      '/operator/notices/delete',
      route({
        tag: TAG,
        summary: '内容：删除公告',
        access: 'operator',
        roles: OPS,
        body: request(ctx, 'params/notice-ref'),
        response: done,
      }),
      async (req) => ok(null, await notices.remove(actor(req), req.body.id)),
    );

    // ---- 监控 (运营, 管理员): the per-minute series every process writes (server/modules/metrics)
    app.get(
      '/operator/monitor',
      route({
        tag: TAG,
        summary:
          '监控：最近一小时或一天每分钟的接收、提交、成功、失败，等待与未确认，各运营商与通道的成功率，拒绝原因，接入会话',
        access: 'operator',
        roles: OPS,
        querystring: request(ctx, 'params/monitor-range'),
        response: okOf(ctx, 'entities/monitor-series'),
      }),
      async (req) => ok(await monitor.series(req.query.range === 'day' ? 'day' : 'hour')),
    );

    // ---- 发送记录归档
    app.get(
      '/operator/archives/list',
      route({
        tag: TAG,
        summary: '发送记录归档：保留期满的月份删除前写入的文件（新的月份在前；读回用 npm run cli -- archive-restore）',
        access: 'operator',
        roles: OPS,
        response: arrayOf(ctx, 'entities/record-archive'),
      }),
      async () => ok(await retention.archives()),
    );

    // ---- 审计日志
    app.post(
      '/operator/audit/list',
      route({
        tag: TAG,
        summary: '审计日志',
        access: 'operator',
        roles: OPS,
        body: request(ctx, 'filters/audit-log', { paging: 'currentPage' }),
        response: listOf(ctx, 'entities/audit-entry'),
      }),
      async (req) => ok(await auditList(ctx, req.body)),
    );

    // ---- 运营人员
    app.get(
      '/operator/operators/list',
      route({
        tag: TAG,
        summary: '运营人员列表',
        access: 'operator',
        roles: ADMIN,
        response: arrayOf(ctx, 'entities/operator'),
      }),
      async () => ok(await operators.list()),
    );
    app.post(
      '/operator/operators/add',
      route({
        tag: TAG,
        summary: '新增运营人员（动态验证码密钥只在回答中出现一次）',
        access: 'operator',
        roles: ADMIN,
        body: request(ctx, 'forms/operator-add'),
        response: okOf(ctx, 'entities/operator-added'),
      }),
      async (req) => {
        const r = await operators.addWithDigest(
          { name: req.body.name, digest: req.body.password.toLowerCase(), role: req.body.role, totp: req.body.totp },
          actor(req),
        );
        return ok(
          {
            operator: OperatorService.toEntity(r.operator),
            ...(r.totp ? { totpSecret: r.totp.secret, totpUri: r.totp.uri } : {}),
          },
          '新增成功',
        );
      },
    );
    app.post(
      '/operator/operators/status',
      route({
        tag: TAG,
        summary: '停用或启用运营人员（停用即结束其登录）',
        access: 'operator',
        roles: ADMIN,
        body: request(ctx, 'params/operator-status'),
        response: done,
      }),
      async (req) => ok(null, await operators.setStatus(actor(req), req.body.id, req.body.status)),
    );
  };
}
