/**
 * Blacklists (黑名单, docs/api-blacklist.md): an account's own numbers (added by unsubscribe
 * replies or by hand on the console) and the platform's (account_id null, operators' CLI). The
 * list, add, remove and export of the console; the uplink hook that blacklists unsubscribe replies;
 * the operator commands' platform list. The acceptance's look-up is ./lookup.ts.
 *
 * Authorization: every query is limited to the accounts the session reaches (ClientsService.scope):
 * an agent sees its own and its sub-accounts' blacklists, any other account only its own. The
 * platform's list is never shown to accounts (an operator's list; its numbers are only skipped).
 */
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Account, Database } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { listPage, pagingOf } from '../../http/paging';
import { pageOf } from '../../db/page';
import { keysetPages, mapPages, xlsxStream } from '../../lib/xlsx-export';
import { formatDateTime } from '../../lib/time';
import { whereFrom } from '../../db/filters';
import type { CurrentPaging } from '../../http/contract';
import type { ClientsService, ScopedAccount } from '../clients';
import { checkNumbers } from '../../../common/sms/numbers';
import {
  BlacklistSource,
  UserType,
  type BlacklistAddForm,
  type BlacklistEntry,
  type BlacklistFilter,
} from '../../../common/generated/schemas';
import addForm from '../../../schemas/forms/blacklist-add.json';
import { isUnsubscribe } from './words';

export const BLACKLIST_MSG = {
  ...addForm['x-messages'],
  clientRequired: addForm.properties.clientid.errorMessage.minLength,
  exportNoData: '当前条件没有数据，无法导出',
  exportTooMany: '导出记录数不能大于500万。',
} as const;

/** most numbers one add takes */
export const ADD_MAX = 10_000;
/** most rows one export writes */
export const EXPORT_MAX = 5_000_000;

type Row = {
  id: number;
  account_id: number | null;
  phone: string;
  source: BlacklistSource;
  remark: string;
  created_by: string;
  created_at: Date;
};

/**
 * The uplink hook (dispatch/mo.ts `storeMo`, in the transaction that stores the uplinks): the
 * numbers that replied an unsubscribe word go on the blacklist of the account the uplink belongs to.
 * One statement for the batch; a number already there stays as it was. Returns how many were added.
 */
export async function blacklistUnsubscribes(
  trx: Transaction<Database>,
  rows: readonly { account_id: number; phone: string; content: string; received_at: Date | string }[],
): Promise<number> {
  const hits = rows.filter((r) => r.phone && isUnsubscribe(r.content));
  if (!hits.length) return 0;
  const r = await sql<{ id: number }>`
    insert into blacklist (account_id, phone, source, created_at)
    select * from unnest(${hits.map((h) => h.account_id)}::int[], ${hits.map((h) => h.phone)}::text[],
      ${hits.map(() => BlacklistSource.Unsubscribe)}::smallint[], ${hits.map((h) => new Date(h.received_at).toISOString())}::timestamptz[])
    on conflict (account_id, phone) do nothing
    returning id`.execute(trx);
  return r.rows.length;
}

export class BlacklistService {
  constructor(
    private readonly ctx: AppContext,
    private readonly clients: ClientsService,
  ) {}

  private async scopeOf(me: Account): Promise<ScopedAccount[]> {
    return this.clients.scope(me);
  }

  private filtered(me: Account, scope: ScopedAccount[], f: BlacklistFilter) {
    return whereFrom(this.ctx.db.selectFrom('blacklist as b'), this.ctx, 'filters/blacklist', f, {
      scope,
      agent: me.user_type === UserType.Agent,
    });
  }

  private rowsQuery(me: Account, scope: ScopedAccount[], f: BlacklistFilter) {
    return this.rowsOf(this.filtered(me, scope, f));
  }

  /** a list's columns and order over its filtered query */
  private rowsOf(q: ReturnType<BlacklistService['filtered']>) {
    return q
      .select(['b.id', 'b.account_id', 'b.phone', 'b.source', 'b.remark', 'b.created_by', 'b.created_at'])
      .orderBy('b.created_at', 'desc')
      .orderBy('b.id', 'desc');
  }

  private toRow(r: Row, rownum: number, accounts: Map<number, ScopedAccount>): Required<BlacklistEntry> {
    const a = r.account_id === null ? undefined : accounts.get(r.account_id);
    return {
      rownum,
      id: r.id,
      clientid: a?.clientid ?? '',
      clientName: a?.name ?? '',
      phone: r.phone,
      source: r.source,
      remark: r.remark,
      createdBy: r.created_by,
      createDate: formatDateTime(r.created_at),
    };
  }

  /** POST /blacklist/list: the page and its total in one query. */
  async list(me: Account, f: BlacklistFilter & CurrentPaging) {
    const paging = pagingOf(f);
    const scope = await this.scopeOf(me);
    const byId = new Map(scope.map((a) => [a.id, a]));
    const { rows, total } = await pageOf(this.filtered(me, scope, f), (q) => this.rowsOf(q), paging);
    return listPage(
      rows.map((r, i) => this.toRow(r, paging.offset + i + 1, byId)),
      total,
      paging,
    );
  }

  /** The account an add is for: an agent's chosen sub-account or itself; anyone else itself. */
  private async ownerFor(me: Account, clientid: string | undefined): Promise<ScopedAccount> {
    if (me.user_type !== UserType.Agent || !clientid || clientid === me.clientid)
      return { id: me.id, clientid: me.clientid, name: me.name };
    const owner = await this.clients.ownSubAccount(me, clientid);
    if (!owner) throw errors.forbidden();
    return owner;
  }

  /** POST /blacklist/add: the valid numbers of the text, those not yet there added (one statement). */
  async add(me: Account, f: BlacklistAddForm): Promise<{ added: number; existing: number; invalid: number }> {
    const owner = await this.ownerFor(me, f.clientid);
    const c = checkNumbers(f.phones);
    if (c.unique.length > ADD_MAX) throw new ApiError(400, BLACKLIST_MSG.tooMany);
    if (!c.unique.length) throw new ApiError(400, BLACKLIST_MSG.noValid);
    const now = this.ctx.now().toISOString();
    const r = await sql<{ id: number }>`
      insert into blacklist (account_id, phone, source, remark, created_by, created_at)
      select ${owner.id}::int, p, ${BlacklistSource.Manual}::smallint, ${f.remark ?? ''}, ${me.clientid}, ${now}::timestamptz
      from unnest(${c.unique}::text[]) as u(p)
      on conflict (account_id, phone) do nothing
      returning id`.execute(this.ctx.db);
    return { added: r.rows.length, existing: c.unique.length - r.rows.length, invalid: c.invalid };
  }

  /** POST /blacklist/delete: a number of the session's scope off its blacklist. */
  async remove(me: Account, id: number): Promise<void> {
    const ids = (await this.scopeOf(me)).map((a) => a.id);
    const r = await this.ctx.db
      .deleteFrom('blacklist')
      .where('id', '=', id)
      .where('account_id', 'in', ids)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw errors.notFound('黑名单号码');
  }

  /** POST /blacklist/export: every matching row as .xlsx, in batches by (created_at, id). */
  async exportStream(me: Account, f: BlacklistFilter): Promise<NodeJS.ReadableStream> {
    const scope = await this.scopeOf(me);
    const byId = new Map(scope.map((a) => [a.id, a]));
    const { n } = await this.filtered(me, scope, f)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(n);
    if (total > EXPORT_MAX) throw errors.refused(BLACKLIST_MSG.exportTooMany);
    if (total === 0) throw errors.refused(BLACKLIST_MSG.exportNoData);
    const agent = me.user_type === UserType.Agent;
    let rownum = 0;
    const pages = keysetPages(
      (after: { t: Date; id: number } | undefined, limit) => {
        let q = this.rowsQuery(me, scope, f).limit(limit);
        if (after) q = q.where((eb) => eb(eb.refTuple('b.created_at', 'b.id'), '<', eb.tuple(after.t, after.id)));
        return q.execute();
      },
      (last) => ({ t: last.created_at, id: last.id }),
      { batch: 5000 },
    );
    return xlsxStream(this.ctx, 'blacklist', {
      sheet: '黑名单',
      entity: 'entities/blacklist',
      columns: [
        { key: 'rownum', width: 8 },
        ...(agent
          ? [
              { key: 'clientid', width: 12 },
              { key: 'clientName', width: 28 },
            ]
          : []),
        { key: 'phone', width: 16 },
        { key: 'sourceStr', field: 'source', width: 12 },
        { key: 'remark', width: 30 },
        { key: 'createdBy', width: 12 },
        { key: 'createDate', width: 20 },
      ],
      rows: mapPages(pages, (r) => {
        const row = this.toRow(r, ++rownum, byId);
        return { ...row, sourceStr: this.ctx.schemas.registry.enumLabel('blacklist-source', row.source) ?? '' };
      }),
    });
  }
}

// ------------------------------------------------------------ the platform's list (operators' CLI: server/cli/blacklist.ts)

type AnyDb = AppContext['db'];

/** `blacklist [number prefix]`: the platform's numbers (newest first), at most `limit`. */
export async function platformList(db: AnyDb, search = '', limit = 200) {
  let q = db
    .selectFrom('blacklist')
    .select(['id', 'phone', 'remark', 'created_by', 'created_at'])
    .where('account_id', 'is', null);
  const prefix = search.replace(/[^0-9]/g, '');
  if (prefix) q = q.where('phone', 'like', `${prefix}%`);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** `blacklist-add <numbers> [remark]`: valid numbers onto the platform's list (one statement). */
export async function platformAdd(db: AnyDb, now: Date, phones: string, remark = '') {
  const c = checkNumbers(phones);
  if (!c.unique.length) return { added: 0, existing: 0, invalid: c.invalid };
  const r = await sql<{ id: number }>`
    insert into blacklist (account_id, phone, source, remark, created_by, created_at)
    select null, p, ${BlacklistSource.Platform}::smallint, ${remark.slice(0, 50)}, 'cli', ${now.toISOString()}::timestamptz
    from unnest(${c.unique}::text[]) as u(p)
    on conflict (account_id, phone) do nothing
    returning id`.execute(db);
  return { added: r.rows.length, existing: c.unique.length - r.rows.length, invalid: c.invalid };
}

/** `blacklist-remove <numbers>`: numbers off the platform's list. */
export async function platformRemove(db: AnyDb, phones: string) {
  const c = checkNumbers(phones);
  if (!c.unique.length) return { removed: 0 };
  const r = await db
    .deleteFrom('blacklist')
    .where('account_id', 'is', null)
    .where('phone', 'in', c.unique)
    .executeTakeFirst();
  return { removed: Number(r.numDeletedRows) };
}
