/**
 * Carrier channels (issue 25; docs/api-dispatch.md "Channels"): the rows of dispatch_channels
 * beside the SMPP_CHANNELS file (running workers read both every 2 s: a change is routed by within seconds), and the channels' counters
 * of every worker process (dispatch_channel_stats, written by each worker every 10 s).
 */
import { sql } from 'kysely';
import { ChannelConfigError, channelRowOf, describeSmsc, parseChannel } from '../modules/smsc/config';
import { formatDateTime } from '../lib/time';
import { CommandError, defineCommands, enumLabel, table, UsageError } from './registry';

const OPTIONS = new Set(['carriers', 'international', 'sms_types', 'priority', 'weight', 'max_per_second']);

/** key=value options of channel-add → the channel object of the file format */
function channelObject(name: string, url: string, opts: string[]): Record<string, unknown> {
  const o: Record<string, unknown> = { name, url };
  for (const a of opts) {
    const eq = a.indexOf('=');
    const k = eq > 0 ? a.slice(0, eq) : '';
    const v = a.slice(eq + 1);
    if (!OPTIONS.has(k)) throw new UsageError(`未知选项: ${a.slice(0, 40)}`);
    if (k === 'carriers' || k === 'sms_types')
      o[k] = v ? v.split(',').map((x) => (/^\d+$/.test(x.trim()) ? Number(x) : x.trim())) : [];
    else if (k === 'international') o[k] = ['1', 'true', 'yes', '是'].includes(v.toLowerCase());
    else if (/^\d{1,9}$/.test(v)) o[k] = Number(v);
    else throw new UsageError(`${k} 必须是整数: ${v.slice(0, 20)}`);
  }
  return o;
}

export const channelCommands = defineCommands(
  {
    name: 'channel-add',
    usage:
      'channel-add <name> <smpp://system_id:password@host:port?… | cmpp://sp_id:secret@host:port?version=3&… | smgp://client_id:secret@host:port?sp_id=…&src=…&service_id=… | sgip://login:password@host:port?corp_id=…&callback_port=…> [carriers=移动,联通] [international=1] [sms_types=验证码,通知] [priority=0] [weight=1] [max_per_second=0]',
    description: '添加或修改一个通道（数据库中的通道表，运行中的工作进程数秒内生效）',
    async run({ db, out, now }, [name, url, ...opts]) {
      if (!name || !url) throw new UsageError('缺少通道名或地址');
      let spec;
      try {
        spec = parseChannel(channelObject(name, url, opts));
      } catch (e) {
        if (e instanceof ChannelConfigError) throw new CommandError(e.message);
        throw e;
      }
      const row = channelRowOf(spec, true, now());
      await db
        .insertInto('dispatch_channels')
        .values(row)
        .onConflict((oc) => oc.column('name').doUpdateSet(row))
        .execute();
      out(`通道 ${spec.name}（${describeSmsc(spec.cfg)}）已保存；运行中的工作进程数秒内生效`);
    },
  },
  {
    name: 'channel-remove',
    usage: 'channel-remove <name>',
    description: '删除数据库中的一个通道（运行中的工作进程数秒内生效）',
    async run({ db, out }, [name]) {
      if (!name) throw new UsageError('缺少通道名');
      const r = await db.deleteFrom('dispatch_channels').where('name', '=', name).executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw new CommandError(`通道 ${name} 不存在`);
      out(`通道 ${name} 已删除；运行中的工作进程数秒内生效`);
    },
  },
  {
    name: 'channels',
    usage: 'channels',
    description: '列出数据库中的通道（SMPP_CHANNELS 文件中的通道见该文件）',
    async run({ db, out, schemas }) {
      const rows = await db.selectFrom('dispatch_channels').selectAll().orderBy('priority').orderBy('name').execute();
      const labels = (name: string, vs: number[]) =>
        vs.length ? vs.map((v) => enumLabel(schemas, name, v)).join(',') : '全部';
      out(
        table([
          ['通道', '地址', '运营商', '国际', '短信类型', '优先级', '权重', '限速/秒', '更新时间'],
          ...rows.map((r) => {
            let where = '?';
            try {
              where = describeSmsc(parseChannel({ name: r.name, url: r.url }).cfg);
            } catch {
              /* shown as ? */
            }
            return [
              r.name,
              where,
              r.international && !r.carriers.length ? '-' : labels('carrier', r.carriers),
              r.international ? '是' : '否',
              labels('sms-type', r.sms_types),
              String(r.priority),
              String(r.weight),
              r.max_per_second ? String(r.max_per_second) : '不限',
              formatDateTime(r.updated_at),
            ];
          }),
        ]).join('\n'),
      );
      out(`共 ${rows.length} 个通道`);
    },
  },
  {
    name: 'channel-stats',
    usage: 'channel-stats',
    description: '各通道的计数（所有工作进程合计）：提交、接受、拒绝、重试、未确认、回执、平均时延',
    async run({ db, out }) {
      const r = await sql<{
        channel: string;
        workers: number;
        bound: number;
        submitted: string;
        accepted: string;
        refused: string;
        retried: string;
        unconfirmed: string;
        receipts: string;
        latency: number | null;
        updated: Date;
      }>`
        select channel, count(*)::int workers, count(*) filter (where bound)::int bound, sum(submitted)::text submitted, sum(accepted)::text accepted,
          sum(refused)::text refused, sum(retried)::text retried, sum(unconfirmed)::text unconfirmed, sum(receipts)::text receipts,
          (sum(latency_ms_sum) / nullif(sum(latency_count), 0))::float8 latency, max(updated_at) updated
        from dispatch_channel_stats group by channel order by channel`.execute(db);
      out(
        table([
          ['通道', '进程', '已连接', '提交', '接受', '拒绝', '重试', '未确认', '回执', '平均时延', '更新时间'],
          ...r.rows.map((x) => [
            x.channel || '(SMPP_URL)',
            String(x.workers),
            String(x.bound),
            x.submitted,
            x.accepted,
            x.refused,
            x.retried,
            x.unconfirmed,
            x.receipts,
            x.latency === null ? '-' : `${Math.round(x.latency)} ms`,
            formatDateTime(new Date(x.updated)),
          ]),
        ]).join('\n'),
      );
    },
  },
);
