/**
 * 通道 (issue 39, docs/api-operator.md "Channels"): the carrier channels as 管理员 run them from the
 * console — what `npm run cli -- channel-add / channels / channel-remove / channel-stats` do: the
 * rows of dispatch_channels (the workers read them every few seconds), the channels of the
 * SMPP_CHANNELS file shown read-only, each with the live counters of every worker
 * (dispatch_channel_stats), pause / resume (`enabled`), and a routing preview: which channel a
 * number and SMS type would take now. A channel's URL carries its password: it is never shown
 * (describeSmsc: protocol, login, host, port), and an edit without a new URL keeps the stored one.
 *
 * With no enabled channel (none added, or every one paused) the workers send everything over the
 * default link (SMPP_URL, or the embedded simulator): the list then shows it too, read-only, as
 * the channel '' (source 'default') with its counters, and the preview names it.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { ApiError, errors } from '../../http/errors';
import { formatDateTime } from '../../lib/time';
import channelEntity from '../../../schemas/entities/operator-channel.json';
import channelForm from '../../../schemas/forms/operator-channel.json';
import {
  Carrier,
  type OperatorChannel,
  type OperatorChannelForm,
  type RoutePreview,
  type SmsType,
} from '../../../common/generated/schemas';
import { carrierOf } from '../../../common/sms/segments';
import {
  ChannelConfigError,
  channelRowOf,
  channelServes,
  describeSmsc,
  parseChannel,
  parseChannelTable,
  parseSmppUrl,
  type ChannelSpec,
} from '../smsc';
import { audit, type Actor } from './audit';

export const CHANNEL_MESSAGES = {
  saved: '通道已保存，运行中的工作进程数秒内生效',
  paused: '通道已暂停',
  resumed: '通道已恢复',
  removed: '通道已删除',
  /** entities/operator-channel.json x-messages: the console shows it beside a file channel without asking */
  fromFile: channelEntity['x-messages'].fromFile,
  /** the default link's row (the console shows it above the list) */
  defaultLink: channelEntity['x-messages'].defaultLink,
  /** forms/operator-channel.json: the form asks for it on a new channel, the server on a save without a stored one */
  urlRequired: channelForm.errorMessage.required.url,
  noChannel: '没有可用的通道',
} as const;

interface Row {
  name: string;
  url: string;
  carriers: Carrier[];
  international: boolean;
  sms_types: SmsType[];
  priority: number;
  weight: number;
  max_per_second: number;
  enabled: boolean;
  updated_at: Date | null;
  source: 'db' | 'file' | 'default';
}

/** the default link as a row: serves every carrier and type (pipeline.ts: no enabled channel) */
const DEFAULT_NAME = '';

/** what an audit row keeps of a channel (no URL: it holds the password) */
const auditView = (r: Omit<Row, 'source' | 'updated_at'>) => ({
  where: where(r.name, r.url),
  carriers: r.carriers,
  international: r.international,
  smsTypes: r.sms_types,
  priority: r.priority,
  weight: r.weight,
  maxPerSecond: r.max_per_second,
  enabled: r.enabled,
});

function where(name: string, url: string): string {
  if (name === DEFAULT_NAME) return url;
  try {
    return describeSmsc(parseChannel({ name, url }).cfg);
  } catch {
    return '?';
  }
}

export class ChannelService {
  constructor(private readonly ctx: AppContext) {}

  /** the channels of the SMPP_CHANNELS file (read-only here), [] when none or unreadable */
  private fileChannels(): ChannelSpec[] {
    const file = this.ctx.config.channelsFile;
    if (!file) return [];
    try {
      return parseChannelTable(fs.readFileSync(file, 'utf8')).channels;
    } catch {
      return [];
    }
  }

  private async rows(): Promise<Row[]> {
    const file = this.fileChannels().map((c): Row => ({
      name: c.name,
      url: c.url,
      carriers: c.carriers,
      international: c.international,
      sms_types: c.smsTypes,
      priority: c.priority,
      weight: c.weight,
      max_per_second: c.maxPerSecond,
      enabled: true,
      updated_at: null,
      source: 'file',
    }));
    const db = await this.ctx.db
      .selectFrom('dispatch_channels')
      .selectAll()
      .orderBy('priority')
      .orderBy('name')
      .execute();
    const rows: Row[] = [
      ...file,
      ...db.filter((r) => !file.some((f) => f.name === r.name)).map((r) => ({ ...r, source: 'db' as const })),
    ];
    if (!rows.some((r) => r.enabled)) rows.push(this.defaultRow());
    return rows;
  }

  /** the default link (no enabled channel): SMPP_URL as describeSmsc shows it, else the embedded simulator */
  private defaultRow(): Row {
    let url = '内置模拟器';
    const configured = this.ctx.config.smppUrl.trim();
    if (configured) {
      try {
        url = describeSmsc(parseSmppUrl(configured));
      } catch {
        url = '?';
      }
    }
    return {
      name: DEFAULT_NAME,
      url,
      carriers: [],
      international: true,
      sms_types: [],
      priority: 0,
      weight: 1,
      max_per_second: 0,
      enabled: true,
      updated_at: null,
      source: 'default',
    };
  }

  /** Every channel with the counters of every worker (those seen within the last minute count as live). */
  async list(): Promise<OperatorChannel[]> {
    const [rows, stats] = await Promise.all([
      this.rows(),
      sql<{
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
        updated: Date | string;
      }>`
        select channel, count(*)::int workers, count(*) filter (where bound and updated_at > now() - interval '1 minute')::int bound,
          sum(submitted)::text submitted, sum(accepted)::text accepted, sum(refused)::text refused, sum(retried)::text retried,
          sum(unconfirmed)::text unconfirmed, sum(receipts)::text receipts,
          (sum(latency_ms_sum) / nullif(sum(latency_count), 0))::float8 latency, max(updated_at) updated
        from dispatch_channel_stats group by channel`.execute(this.ctx.db),
    ]);
    const byName = new Map(stats.rows.map((s) => [s.channel, s]));
    return rows.map((r) => {
      const s = byName.get(r.name);
      return {
        name: r.name,
        where: where(r.name, r.url),
        source: r.source,
        carriers: r.carriers,
        international: r.international,
        smsTypes: r.sms_types,
        priority: r.priority,
        weight: r.weight,
        maxPerSecond: r.max_per_second,
        enabled: r.enabled,
        updatedAt: formatDateTime(r.updated_at),
        workers: s?.workers ?? 0,
        bound: s?.bound ?? 0,
        submitted: Number(s?.submitted ?? 0),
        accepted: Number(s?.accepted ?? 0),
        refused: Number(s?.refused ?? 0),
        retried: Number(s?.retried ?? 0),
        unconfirmed: Number(s?.unconfirmed ?? 0),
        receipts: Number(s?.receipts ?? 0),
        latencyMs: s?.latency === null || s?.latency === undefined ? null : Math.round(s.latency),
        statsAt: formatDateTime(s?.updated ? new Date(s.updated) : null),
      };
    });
  }

  private assertNotFile(name: string) {
    if (this.fileChannels().some((c) => c.name === name)) throw new ApiError(400, CHANNEL_MESSAGES.fromFile);
  }

  /** the channels serving a carrier and SMS type (the default link serves everything) */
  private static serves(c: OperatorChannel, carrier: number, smstype: number) {
    return (
      c.source === 'default' ||
      channelServes({ carriers: c.carriers, international: c.international, smsTypes: c.smsTypes }, carrier, smstype)
    );
  }

  /** Adds or edits a channel (an edit without `url` keeps the stored one). */
  async save(who: Actor, f: OperatorChannelForm): Promise<string> {
    this.assertNotFile(f.name);
    const now = this.ctx.now();
    return this.ctx.db.transaction().execute(async (trx) => {
      const cur = await trx
        .selectFrom('dispatch_channels')
        .selectAll()
        .where('name', '=', f.name)
        .forUpdate()
        .executeTakeFirst();
      const url = f.url || cur?.url;
      if (!url) throw new ApiError(400, CHANNEL_MESSAGES.urlRequired);
      let spec: ChannelSpec;
      try {
        spec = parseChannel({
          name: f.name,
          url,
          carriers: f.carriers ?? [],
          international: f.international ?? false,
          sms_types: f.smsTypes ?? [],
          priority: f.priority ?? 0,
          weight: f.weight ?? 1,
          max_per_second: f.maxPerSecond ?? 0,
        });
      } catch (e) {
        if (e instanceof ChannelConfigError) throw new ApiError(400, `通道设置有误：${e.message}`);
        throw e;
      }
      const row = channelRowOf(spec, cur?.enabled ?? true, now);
      await trx
        .insertInto('dispatch_channels')
        .values(row)
        .onConflict((oc) => oc.column('name').doUpdateSet(row))
        .execute();
      await audit(trx, who, {
        action: 'channel.save',
        target: 'dispatch_channels',
        targetId: spec.name,
        before: cur ? auditView(cur) : undefined,
        after: auditView(row),
        at: now,
      });
      return CHANNEL_MESSAGES.saved;
    });
  }

  /** Pauses (out of routing in every worker within seconds) or resumes a channel. */
  async setPaused(who: Actor, name: string, paused: boolean): Promise<string> {
    this.assertNotFile(name);
    const now = this.ctx.now();
    return this.ctx.db.transaction().execute(async (trx) => {
      const cur = await trx
        .selectFrom('dispatch_channels')
        .select(['name', 'enabled'])
        .where('name', '=', name)
        .forUpdate()
        .executeTakeFirst();
      if (!cur) throw errors.notFound('通道');
      if (cur.enabled !== paused) return paused ? CHANNEL_MESSAGES.paused : CHANNEL_MESSAGES.resumed;
      await trx
        .updateTable('dispatch_channels')
        .set({ enabled: !paused, updated_at: now })
        .where('name', '=', name)
        .execute();
      await audit(trx, who, {
        action: paused ? 'channel.pause' : 'channel.resume',
        target: 'dispatch_channels',
        targetId: name,
        before: { enabled: cur.enabled },
        after: { enabled: !paused },
        at: now,
      });
      return paused ? CHANNEL_MESSAGES.paused : CHANNEL_MESSAGES.resumed;
    });
  }

  async remove(who: Actor, name: string): Promise<string> {
    this.assertNotFile(name);
    const now = this.ctx.now();
    return this.ctx.db.transaction().execute(async (trx) => {
      const cur = await trx.deleteFrom('dispatch_channels').where('name', '=', name).returningAll().executeTakeFirst();
      if (!cur) throw errors.notFound('通道');
      await audit(trx, who, {
        action: 'channel.remove',
        target: 'dispatch_channels',
        targetId: name,
        before: auditView(cur),
        at: now,
      });
      return CHANNEL_MESSAGES.removed;
    });
  }

  /**
   * Which channel a number and SMS type would take now: the carrier of the number, the enabled
   * channels serving it by priority, and of those the first priority with a channel bound in some
   * worker (weights share it). A preview of the dispatcher's choice from the shared state; a
   * worker's own back-off and throughput limits may still move single messages.
   */
  async preview(phone: string, smstype: number): Promise<RoutePreview> {
    const carrier = /^\+|^00/.test(phone.trim()) ? Carrier.International : carrierOf(phone.trim());
    const list = (await this.list()).filter((c) => c.enabled && ChannelService.serves(c, carrier, smstype));
    const tiers = [...new Set(list.map((c) => c.priority))].sort((a, b) => a - b);
    const tier = tiers.find((p) => list.some((c) => c.priority === p && c.bound > 0)) ?? tiers[0];
    const chosen = list.filter((c) => c.priority === tier);
    const weights = chosen.reduce((n, c) => n + (c.bound > 0 || !chosen.some((x) => x.bound > 0) ? c.weight : 0), 0);
    return {
      carrier,
      candidates: list.map((c) => ({
        name: c.name,
        priority: c.priority,
        weight: c.weight,
        bound: c.bound > 0,
        share:
          c.priority === tier && weights > 0 && (c.bound > 0 || !chosen.some((x) => x.bound > 0))
            ? Math.round((100 * c.weight) / weights)
            : 0,
      })),
      message: !chosen.length
        ? CHANNEL_MESSAGES.noChannel
        : chosen.some((c) => c.source === 'default')
          ? CHANNEL_MESSAGES.defaultLink
          : '',
    };
  }
}
