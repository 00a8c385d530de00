/**
 * Signs (短信签名报备): list, add, delete, export, batch import, operator review.
 *
 * Authorization: every query is limited to the accounts the session reaches (ClientsService.scope):
 * an agent sees the signs of its sub-accounts and its own, a sub-account only its own. Adding a
 * sign: an agent must pick one of its own sub-accounts; a sub-account always adds for itself.
 */
import ExcelJS from 'exceljs';
import { fileTypeFromBuffer } from 'file-type';
import type { AppContext } from '../../context';
import type { SchemaRegistry } from '../../../common/schema';
import type { Db } from '../../db';
import type { Account, SignImportFailure } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { listPage, pagingOf } from '../../http/paging';
import { pageOf } from '../../db/page';
import { fieldTitle, safeRow } from '../../lib/export-columns';
import { keysetPages, mapPages, xlsxStream } from '../../lib/xlsx-export';
import { IMPORT_SHEET_LIMITS, readSheetRows, SpreadsheetError } from '../../lib/spreadsheet';
import { formatDateTime } from '../../lib/time';
import type { ClientsService, ScopedAccount } from '../clients';
import { SignState, UserType, type Sign, type SignAddForm, type SignFilter } from '../../../common/generated/schemas';
import { whereFrom } from '../../db/filters';
import type { CurrentPaging } from '../../http/contract';
import { MESSAGES } from '../../../common/schema/messages';
import signAddForm from '../../../schemas/forms/sign-add.json';
import signFilter from '../../../schemas/filters/sign.json';
import { codeOf } from '../../lib/error-code';

/** a row of the sign list: schemas/entities/sign.json, every property present */
export type SignRow = Required<Sign>;

/** The list's and the export's parameters: schemas/filters/sign.json (validated by the route). */
export type { SignFilter };

export interface ImportResult {
  importSuccess: number;
  importTotal: number;
  importFall: number;
}

export const SIGN_STATES = Object.values(SignState);
export const DELETED = SignState.Deleted;

export const IMPORT_LIMITS = {
  /** largest accepted upload */
  maxBytes: 5 * 1024 * 1024,
  /** most data rows per file */
  maxRows: 5000,
};

export const MSG = {
  clientRequired: signAddForm.errorMessage.required.clientid,
  duplicate: '该账户已存在相同的签名，请勿重复添加',
  duplicateInFile: '文件中存在相同的签名',
  notOwnClient: '子账户不存在或不属于当前账户',
  onlyDelete: '只能删除签名',
  alreadyDeleted: '该签名已删除，请勿重复操作',
  exportTooMany: '导出记录数不能大于500万。',
  exportNoData: '当前条件没有数据，无法导出',
  badState: signFilter.properties.state.errorMessage,
  badDate: signFilter.properties.start_time.errorMessage,
  dateOrder: signFilter.properties.end_time['x-order-error'],
  noFile: MESSAGES.pickExcelFile,
  fileTooLarge: `文件大小不能超过${IMPORT_LIMITS.maxBytes / 1024 / 1024}MB`,
  emptyFile: '上传的文件为空',
  notXlsx: MESSAGES.notXlsx,
  parseFailed: '文件解析失败',
  noRows: '文件中没有签名数据',
  tooManyRows: `单次导入不能超过${IMPORT_LIMITS.maxRows}行`,
  contentTooLarge: '文件内容过大',
  noImportFailures: '没有导入失败的记录',
} as const;

export const badHeaders = (agent: boolean, h: ImportHeaders) =>
  `表头不正确，请下载模板并按模板填写（${(agent ? [h.clientid, h.sign, h.remarks] : [h.sign, h.remarks]).join('、')}）`;

/**
 * The header words of the import template, the reader and the failed-rows workbook: the sign
 * entity's field titles (schemas/entities/sign.json), so a title edit changes the template and
 * what the reader expects together; 失败原因 is the failed-rows workbook's own column.
 */
export interface ImportHeaders {
  clientid: string;
  sign: string;
  remarks: string;
  reason: string;
}

export function importHeaders(registry: SchemaRegistry): ImportHeaders {
  const title = (name: string) => fieldTitle(registry, 'entities/sign', name);
  return { clientid: title('clientid'), sign: title('sign'), remarks: title('remarks'), reason: '失败原因' };
}

type HeaderColumns = Partial<Record<keyof ImportHeaders, number>>;

/** The import file's header row: the column of each known header; null when one is unknown or repeated. */
function headerColumns(cells: string[], H: ImportHeaders): HeaderColumns | null {
  const cols: HeaderColumns = {};
  for (let i = 0; i < cells.length; i++) {
    const name = cells[i].trim();
    if (!name) continue;
    const key = (Object.keys(H) as (keyof ImportHeaders)[]).find((k) => H[k] === name);
    if (!key || cols[key] !== undefined) return null;
    cols[key] = i;
  }
  return cols;
}

const headerOk = (cols: HeaderColumns | null | undefined, agent: boolean): cols is HeaderColumns =>
  !!cols && cols.sign !== undefined && (!agent || cols.clientid !== undefined);

/** A file the spreadsheet reader refused, in this import's words. */
function importMessage(e: SpreadsheetError, looksLikeXlsx: boolean): string {
  switch (e.reason) {
    case 'notXlsx':
      return MSG.notXlsx;
    case 'parseFailed':
      return looksLikeXlsx ? MSG.parseFailed : MSG.notXlsx;
    case 'tooManyRows':
      return MSG.tooManyRows;
    default:
      return MSG.contentTooLarge;
  }
}

/**
 * The payload of POST /sign/add before its schema runs: a sub-account's clientid comes from the
 * session (any posted one is dropped); an agent must choose one.
 */
export function signAddPayload(me: Account, body: unknown): Record<string, unknown> {
  const raw: Record<string, unknown> = body && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {};
  if (me.user_type !== UserType.Agent) delete raw.clientid;
  if (me.user_type === UserType.Agent && typeof raw.clientid === 'string') raw.clientid = raw.clientid.trim();
  if (me.user_type === UserType.Agent && !raw.clientid)
    throw new ApiError(400, MSG.clientRequired, { errors: [{ field: 'clientid', message: MSG.clientRequired }] });
  return raw;
}

export class SignService {
  constructor(
    private readonly ctx: AppContext,
    private readonly clients: ClientsService,
  ) {}

  stateLabel(state: number): string {
    return this.ctx.schemas.registry.enumLabel('sign-state', state) ?? String(state);
  }

  /** The accounts the session reaches (an agent: its sub-accounts and itself; a sub-account: itself). */
  private async scopeOf(me: Account): Promise<ScopedAccount[]> {
    if (me.user_type !== UserType.Agent) return [{ id: me.id, clientid: me.clientid, name: me.name }];
    return this.clients.scope(me);
  }

  /**
   * Signs within the scope matching the filter (schemas/filters/sign.json: its x-column / x-op say
   * how each field filters); one rule of its own: deleted signs only when state 4 is asked.
   */
  private filtered(me: Account, scope: ScopedAccount[], f: SignFilter) {
    const q = whereFrom(this.ctx.db.selectFrom('signs as s'), this.ctx, 'filters/sign', f, {
      scope,
      agent: me.user_type === UserType.Agent,
    });
    return f.state === undefined ? q.where('s.state', '<>', DELETED) : q;
  }

  private toRow(
    r: {
      id: number;
      account_id: number;
      clientid: string;
      sign: string;
      creator_name: string;
      create_time: Date;
      remarks: string;
      state: SignState;
      cause: string;
    },
    rownum: number,
    names: Map<number, string>,
  ): SignRow {
    return {
      rownum,
      id: r.id,
      clientid: r.clientid,
      clientName: names.get(r.account_id) ?? '',
      sign: r.sign,
      userName: r.creator_name,
      createDate: formatDateTime(r.create_time),
      remarks: r.remarks,
      state: r.state,
      stateStr: this.stateLabel(r.state),
      cause: r.cause,
    };
  }

  private rowsQuery(me: Account, scope: ScopedAccount[], f: SignFilter) {
    return this.rowsOf(this.filtered(me, scope, f));
  }

  /** a list's columns and order over its filtered query */
  private rowsOf(q: ReturnType<SignService['filtered']>) {
    return q
      .select([
        's.id',
        's.account_id',
        's.clientid',
        's.sign',
        's.creator_name',
        's.create_time',
        's.remarks',
        's.state',
        's.cause',
      ])
      .orderBy('s.create_time', 'desc')
      .orderBy('s.id', 'desc');
  }

  /** POST /sign/list: one query answers the page and the total (count over the filtered rows). */
  async list(me: Account, f: SignFilter & CurrentPaging) {
    const paging = pagingOf(f);
    const scope = await this.scopeOf(me);
    const names = new Map(scope.map((a) => [a.id, a.name]));
    const { rows, total } = await pageOf(this.filtered(me, scope, f), (q) => this.rowsOf(q), paging);
    return listPage(
      rows.map((r, i) => this.toRow(r, paging.offset + i + 1, names)),
      total,
      paging,
    );
  }

  /** Whether a live sign with this text exists for the account. */
  private async liveExists(accountId: number, sign: string): Promise<boolean> {
    const r = await this.ctx.db
      .selectFrom('signs')
      .select('id')
      .where('account_id', '=', accountId)
      .where('sign', '=', sign)
      .where('state', '<>', DELETED)
      .executeTakeFirst();
    return !!r;
  }

  /** The account a new sign belongs to: the agent's chosen sub-account, or the sub-account itself. */
  private async ownerFor(me: Account, clientid: string | undefined): Promise<ScopedAccount> {
    if (me.user_type !== UserType.Agent) return { id: me.id, clientid: me.clientid, name: me.name };
    if (!clientid)
      throw new ApiError(400, MSG.clientRequired, { errors: [{ field: 'clientid', message: MSG.clientRequired }] });
    const owner = await this.clients.ownSubAccount(me, clientid);
    if (!owner) throw errors.forbidden();
    return owner;
  }

  /** POST /sign/add, with the payload `signAddPayload` prepared and forms/sign-add accepted. */
  async add(me: Account, data: SignAddForm): Promise<{ id: number; state: number }> {
    const owner = await this.ownerFor(me, data.clientid);
    if (await this.liveExists(owner.id, data.sign)) throw errors.refused(MSG.duplicate);
    const now = this.ctx.now();
    const state = this.ctx.config.autoReview ? 1 : 0;
    try {
      const r = await this.ctx.db
        .insertInto('signs')
        .values({
          account_id: owner.id,
          clientid: owner.clientid,
          sign: data.sign,
          remarks: data.remarks ?? '',
          state,
          creator_id: me.id,
          creator_name: me.clientid,
          create_time: now,
          update_time: now,
        })
        .returning(['id', 'state'])
        .executeTakeFirstOrThrow();
      return r;
    } catch (e) {
      if (codeOf(e) === '23505') throw errors.refused(MSG.duplicate);
      throw e;
    }
  }

  /** POST /sign/update: users may only delete (state 4: params/sign-update). */
  async remove(me: Account, id: number): Promise<void> {
    const ids = (await this.clients.scope(me)).map((a) => a.id);
    const sign = await this.ctx.db
      .selectFrom('signs')
      .select(['id', 'state'])
      .where('id', '=', id)
      .where('account_id', 'in', ids)
      .executeTakeFirst();
    if (!sign) throw errors.notFound('签名');
    if (sign.state === DELETED) throw errors.refused(MSG.alreadyDeleted);
    const r = await this.ctx.db
      .updateTable('signs')
      .set({ state: DELETED, update_time: this.ctx.now() })
      .where('id', '=', id)
      .where('state', '<>', DELETED)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw errors.refused(MSG.alreadyDeleted);
  }

  /**
   * POST /sign/export: checks the count first (refusals change nothing and send JSON), then
   * streams every matching row into an .xlsx, in batches by (create_time, id).
   */
  async exportStream(me: Account, f: SignFilter): Promise<NodeJS.ReadableStream> {
    const scope = await this.scopeOf(me);
    const names = new Map(scope.map((a) => [a.id, a.name]));
    const { n } = await this.filtered(me, scope, f)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(n);
    if (total > this.ctx.config.signExportMax) throw errors.refused(MSG.exportTooMany);
    if (total === 0) throw errors.refused(MSG.exportNoData);

    let rownum = 0;
    const pages = keysetPages(
      (after: { t: Date; id: number } | undefined, limit) => {
        let q = this.rowsQuery(me, scope, f).limit(limit);
        if (after) q = q.where((eb) => eb(eb.refTuple('s.create_time', 's.id'), '<', eb.tuple(after.t, after.id)));
        return q.execute();
      },
      (last) => ({ t: last.create_time, id: last.id }),
      { batch: 5000 },
    );
    return xlsxStream(this.ctx, 'sign', {
      sheet: '签名报备',
      entity: 'entities/sign',
      columns: [
        { key: 'rownum', width: 8 },
        { key: 'clientid', width: 12 },
        { key: 'clientName', width: 28 },
        { key: 'sign', width: 16 },
        { key: 'userName', width: 12 },
        { key: 'createDate', width: 20 },
        { key: 'remarks', width: 30 },
        { key: 'stateStr', field: 'state', width: 12 },
        { key: 'cause', width: 30 },
      ],
      rows: mapPages(pages, (r) => this.toRow(r, ++rownum, names)),
    });
  }

  /** GET /sign/downloadExcelTemplate */
  async template(me: Account): Promise<Buffer> {
    const agent = me.user_type === UserType.Agent;
    const H = importHeaders(this.ctx.schemas.registry);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('签名报备');
    ws.columns = [
      ...(agent ? [{ header: H.clientid, key: 'clientid', width: 16 }] : []),
      { header: H.sign, key: 'sign', width: 20 },
      { header: H.remarks, key: 'remarks', width: 40 },
    ];
    ws.getRow(1).font = { bold: true };
    const note = wb.addWorksheet('填写说明');
    note.columns = [{ width: 90 }];
    const lines = [
      '签名报备批量导入说明',
      '1. 请在“签名报备”工作表中填写，第 1 行为表头，请勿修改；从第 2 行起每行一个签名。',
      ...(agent
        ? [`2. ${H.clientid}：必填，填写您名下子账户的账户（clientid）。`]
        : [`2. ${H.sign}归属当前登录账户。`]),
      `3. ${H.sign}：必填，长度为2-12之间（首尾空格会被去掉），不需要加【】。同一账户不能有相同的签名。`,
      `4. ${H.remarks}：选填，最大长度不超过50个字符。`,
      `5. 仅支持 .xlsx 文件，大小不超过 ${IMPORT_LIMITS.maxBytes / 1024 / 1024}MB，每次最多 ${IMPORT_LIMITS.maxRows} 行。`,
      '6. 格式正确的行会被导入，有错误的行不导入；导入后可下载失败记录（含失败原因），修改后重新导入。',
      '',
      '示例：',
    ];
    for (const l of lines) note.addRow([l]);
    note.getRow(1).font = { bold: true, size: 14 };
    const example = note.addRow([
      agent
        ? `${H.clientid}: ${me.clientid === 'agent1' ? 'client1' : 'b00001'}    ${H.sign}: 云讯科技    ${H.remarks}: 公司官网会员通知`
        : `${H.sign}: 云讯科技    ${H.remarks}: 公司官网会员通知`,
    ]);
    example.font = { color: { argb: 'FF666666' } };
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  /**
   * POST /api/sign/addsignBatch: the file is read as a bounded stream (lib/spreadsheet: a zip bomb,
   * a DTD or too many rows stop it at the first excess, nothing imported); then each row on its own.
   */
  async importFile(me: Account, file: Buffer | undefined): Promise<ImportResult> {
    const agent = me.user_type === UserType.Agent;
    const H = importHeaders(this.ctx.schemas.registry);
    if (!file) throw new ApiError(400, MSG.noFile);
    if (file.length === 0) throw new ApiError(400, MSG.emptyFile);
    if (file.length > IMPORT_LIMITS.maxBytes) throw new ApiError(400, MSG.fileTooLarge);
    const zipMagic = file.length > 4 && file[0] === 0x50 && file[1] === 0x4b && file[2] === 0x03 && file[3] === 0x04;
    const type = zipMagic ? await fileTypeFromBuffer(file) : undefined;
    if (!zipMagic || (type && type.ext !== 'xlsx' && type.ext !== 'zip')) throw new ApiError(400, MSG.notXlsx);
    interface Line {
      row: number;
      clientid: string;
      sign: string;
      remarks: string;
    }
    const lines: Line[] = [];
    // streamed with limits: the header (row 1) first, then each non-empty row
    let cols: HeaderColumns | undefined;
    try {
      for await (const r of readSheetRows(file, { ...IMPORT_SHEET_LIMITS, maxRows: IMPORT_LIMITS.maxRows + 1 })) {
        if (!cols) {
          const found = r.row === 1 ? headerColumns(r.cells, H) : null;
          if (!headerOk(found, agent)) throw new ApiError(400, badHeaders(agent, H));
          cols = found;
          if (r.row === 1) continue;
        }
        const get = (c?: number) => (c === undefined ? '' : (r.cells[c] ?? '').trim());
        const line = { row: r.row, clientid: get(cols.clientid), sign: get(cols.sign), remarks: get(cols.remarks) };
        if (!line.clientid && !line.sign && !line.remarks) continue;
        lines.push(line);
        if (lines.length > IMPORT_LIMITS.maxRows) throw new ApiError(400, MSG.tooManyRows);
      }
    } catch (e) {
      if (e instanceof SpreadsheetError) throw new ApiError(400, importMessage(e, type?.ext === 'xlsx'));
      throw e;
    }
    if (!cols) throw new ApiError(400, badHeaders(agent, H));
    if (lines.length === 0) throw new ApiError(400, MSG.noRows);

    // owners this account may import for
    const owners = new Map<string, ScopedAccount>();
    if (agent) for (const a of await this.clients.subAccounts(me)) owners.set(a.clientid, a);
    else owners.set(me.clientid, { id: me.id, clientid: me.clientid, name: me.name });

    const failures: SignImportFailure[] = [];
    const good: (Line & { owner: ScopedAccount })[] = [];
    const seen = new Set<string>();
    for (const l of lines) {
      const fail = (reason: string) =>
        failures.push({ row: l.row, clientid: l.clientid, sign: l.sign, remarks: l.remarks, reason });
      const payload: Record<string, unknown> = { sign: l.sign, remarks: l.remarks };
      if (agent) {
        if (!l.clientid) {
          fail(MSG.clientRequired);
          continue;
        }
        payload.clientid = l.clientid;
      }
      const v = this.ctx.schemas.validate<{ clientid?: string; sign: string; remarks?: string }>(
        'forms/sign-add',
        payload,
      );
      if (!v.ok) {
        fail(v.message);
        continue;
      }
      const owner = agent ? owners.get(l.clientid) : owners.get(me.clientid);
      if (!owner) {
        fail(MSG.notOwnClient);
        continue;
      }
      const key = `${owner.id}\u0000${v.data.sign}`;
      if (seen.has(key)) {
        fail(MSG.duplicateInFile);
        continue;
      }
      seen.add(key);
      good.push({ ...l, sign: v.data.sign, remarks: v.data.remarks ?? '', owner });
    }

    // already existing live signs
    let inserted = 0;
    if (good.length) {
      const existing = new Set(
        (
          await this.ctx.db
            .selectFrom('signs')
            .select(['account_id', 'sign'])
            .where('account_id', 'in', [...new Set(good.map((g) => g.owner.id))])
            .where('sign', 'in', [...new Set(good.map((g) => g.sign))])
            .where('state', '<>', DELETED)
            .execute()
        ).map((r) => `${r.account_id}\u0000${r.sign}`),
      );
      const fresh = good.filter((g) => {
        if (!existing.has(`${g.owner.id}\u0000${g.sign}`)) return true;
        failures.push({ row: g.row, clientid: g.clientid, sign: g.sign, remarks: g.remarks, reason: MSG.duplicate });
        return false;
      });
      const now = this.ctx.now();
      const state = this.ctx.config.autoReview ? 1 : 0;
      for (let i = 0; i < fresh.length; i += 1000) {
        const chunk = fresh.slice(i, i + 1000);
        const done = await this.ctx.db
          .insertInto('signs')
          .values(
            chunk.map((g) => ({
              account_id: g.owner.id,
              clientid: g.owner.clientid,
              sign: g.sign,
              remarks: g.remarks,
              state,
              creator_id: me.id,
              creator_name: me.clientid,
              create_time: now,
              update_time: now,
            })),
          )
          .onConflict((oc) => oc.columns(['account_id', 'sign']).where('state', '<>', DELETED).doNothing())
          .returning(['account_id', 'sign'])
          .execute();
        inserted += done.length;
        const ok = new Set(done.map((d) => `${d.account_id}\u0000${d.sign}`));
        for (const g of chunk)
          if (!ok.has(`${g.owner.id}\u0000${g.sign}`))
            failures.push({
              row: g.row,
              clientid: g.clientid,
              sign: g.sign,
              remarks: g.remarks,
              reason: MSG.duplicate,
            });
      }
    }
    failures.sort((a, b) => a.row - b.row);
    const rows = JSON.stringify(failures);
    await this.ctx.db
      .insertInto('sign_import_results')
      .values({ account_id: me.id, agent_template: agent, failed_rows: rows, created_at: this.ctx.now() })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet({ agent_template: agent, failed_rows: rows, created_at: this.ctx.now() }),
      )
      .execute();
    return { importSuccess: inserted, importTotal: lines.length, importFall: lines.length - inserted };
  }

  /** GET /api/sign/exportImportResult: the failed rows of this account's last import, with reasons. */
  async importFailures(me: Account): Promise<Buffer> {
    const r = await this.ctx.db
      .selectFrom('sign_import_results')
      .selectAll()
      .where('account_id', '=', me.id)
      .executeTakeFirst();
    const rows = r?.failed_rows ?? [];
    if (!r || rows.length === 0) throw errors.refused(MSG.noImportFailures);
    const H = importHeaders(this.ctx.schemas.registry);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('导入失败记录');
    ws.columns = [
      ...(r.agent_template ? [{ header: H.clientid, key: 'clientid', width: 16 }] : []),
      { header: H.sign, key: 'sign', width: 20 },
      { header: H.remarks, key: 'remarks', width: 40 },
      { header: H.reason, key: 'reason', width: 40 },
    ];
    ws.getRow(1).font = { bold: true };
    for (const f of rows) ws.addRow(safeRow(f));
    return Buffer.from(await wb.xlsx.writeBuffer());
  }
}

/** Operator review (CLI sign-approve / sign-reject): pending or rejected signs may be approved or rejected. */
export async function reviewSign(
  db: Db,
  now: Date,
  id: number,
  approve: boolean,
  cause = '',
  by = '',
): Promise<{ clientid: string; sign: string }> {
  const sign = await db
    .selectFrom('signs')
    .select(['id', 'state', 'clientid', 'sign'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!sign) throw errors.notFound('签名');
  if (sign.state === DELETED) throw errors.refused('签名已删除，不能审核');
  await db
    .updateTable('signs')
    .set({ state: approve ? 1 : 2, cause: approve ? '' : cause, update_time: now, reviewed_by: by })
    .where('id', '=', id)
    .execute();
  return sign;
}
