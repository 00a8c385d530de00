/**
 * Variable SMS and international SMS: parsing, screening, acceptance (task + one message per row
 * or number + the charge, in one transaction) through the ordinary send's pieces: the account
 * rules and submit lock of SendService, the charge of billing (pools or the ledger), the bulk
 * insert of send/messages (per-message text, pieces and price), the dispatch pipeline unchanged.
 * Rules: docs/api-variable-international.md.
 */
import { assertNotTestAccount } from '../clients';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Account, Database } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { validateForm } from '../../http/validation';
import { LedgerService } from '../ledger';
import { Money, money2, type MoneyValue } from '../../lib/money';
import {
  ceilCent,
  chargeIntlPools,
  chargePlan,
  intlRemainOf,
  planPieces,
  remainOf,
  usableIntlPools,
  usablePools,
  type ChargePlan,
} from '../billing';
import {
  assertDeferredRoom,
  assertMaySend,
  dropStaged,
  expandTask,
  fillsTemplate,
  insertMessages,
  newTaskUid,
  refusalOf,
  SEND_MSG as MSG,
  SEND_X as X,
  smsTypesOf,
  stageChunks,
  stripSign,
  type SendResult,
  type SendService,
  type UnplacedBatch,
  withBlacklistMsg,
} from '../send';
import { blacklistedOf, honoursBlacklist, keepOf, keptIndexes } from '../blacklist';
import { assertApprovedSign } from '../sign';
import { checkNumbers, numberPoolError } from '../../../common/sms/numbers';
import { MESSAGES } from '../../../common/schema/messages';
import { allowsDomestic, allowsInternational, parseSendTime, sendTimeError } from '../../../common/send';
import { countPieces } from '../../../common/sms/pieces';
import {
  BillPaymentType,
  Carrier,
  ChargeMode,
  ChargeState,
  NeedAudit,
  NumberInputMode,
  OperationMode,
  PayType,
  ScreeningType,
  SendKind,
  SendRecordStatus,
  SmsType,
  TaskStatus,
  TemplateAuditState,
  TemplateBusiness,
  TemplateCategory,
  TemplateType,
  UserType,
  type IntlParseParams,
  type ScreenPhonesParams,
  type SendInternationalForm,
  type SendTimeSmsParams,
  type SendVariableForm,
  type VariableParseParams,
} from '../../../common/generated/schemas';
import intlForm from '../../../schemas/forms/send-international.json';
import {
  checkInternational,
  countrySummary,
  intlFileCheck,
  loadPrices,
  priceRows,
  type IntlCheck,
  type IntlPrice,
} from './international';
import { newWorkFile, workFile, type WorkExt } from './work-files';
import { IMPORT_FILE_PATH, resolveUpload } from '../files';
import { screenFile, screenList, screenRule } from './screening';
import {
  FilledTemplate,
  parseVariableFile,
  readSendRows,
  templateParts,
  VARIABLE_FILE_MAX_BYTES,
  VX,
  type VariableParse,
} from './variable';

type Tx = Transaction<Database>;

export const IX = intlForm['x-messages'];
export const INTL_FORM = 'forms/send-international';
export const VARIABLE_FORM = 'forms/send-variable';
/** numbers of one international send (typed or from a file) */
export const MAX_INTL_NUMBERS = 1_000_000;

/**
 * Timing hooks of an acceptance (bench/send-accept-1m.ts): the wall time of each phase (ms) as it
 * ends. prepare: everything before the transaction (it includes read and checks, reported on their
 * own too); insert: the submit lock, the task row and the message rows; charge: the pools or the
 * ledger and the task's figures; commit: the COMMIT.
 */
export interface AcceptProbe {
  phase(name: 'prepare' | 'read' | 'checks' | 'blacklist' | 'stage' | 'insert' | 'charge' | 'commit', ms: number): void;
  /** called first inside the acceptance transaction (e.g. to learn the database backend's pid) */
  inTransaction?(trx: Tx): Promise<void>;
}

interface Acceptance {
  account: Account;
  payerId: number;
  kind: typeof SendKind.Variable | typeof SendKind.International;
  mode: ChargeMode;
  /** the task's text: 【sign】content (variable: the template with its markers) */
  taskText: string;
  sign: string;
  smstype: number;
  templateId: number | null;
  templateType: number;
  fileType: number;
  fileName: string;
  importFilePath: string;
  errNum: number;
  repeatNum: number;
  phones: string[];
  carriers: Uint8Array;
  pieces: Uint16Array;
  texts: string[] | null;
  /** price per piece of each message (international: its country's fee), or null: by carrier */
  prices: string[] | null;
  /** price per piece per carrier (variable sends) */
  carrierPrices: Record<1 | 2 | 3, string>;
  /**
   * the exact charge: `plan` (variable: pools of the carriers in mode 1, money in mode 0) or the
   * per-country `ledger` rows (international: ledger rows in mode 0, their sum from the
   * international pools in mode 1)
   */
  charge: { plan?: ChargePlan; ledger?: { amount: MoneyValue; cost: MoneyValue; remark: string }[] };
  chargeNum: number;
  intercepted: boolean;
  audit: boolean;
  /** numbers of a marketing send skipped as blacklisted (not sent, not charged) */
  blacklistNum: number;
}

export class VarIntlService {
  constructor(
    private readonly ctx: AppContext,
    private readonly send: SendService,
  ) {}

  // ------------------------------------------------------------------ prices, checks

  async prices(search: string) {
    return priceRows((await loadPrices(this.ctx.db)).values(), search);
  }

  /** POST /send/checkMobileInternational */
  async checkInternational(mobiles: string) {
    const prices = await loadPrices(this.ctx.db);
    const tokens = mobiles.split(/[^0-9]+/).filter(Boolean);
    if (tokens.length > MAX_INTL_NUMBERS) throw new ApiError(400, IX.tooManyNumbers);
    const c = checkInternational(tokens, prices);
    return this.intlAnswer(c, prices);
  }

  private intlAnswer(c: IntlCheck, prices: Map<string, IntlPrice>) {
    return {
      internationalPhoneNum: c.distinct,
      internationalSet: c.unique.slice(0, 100_000),
      countries: countrySummary(c, prices),
      errorSet: c.invalidNumbers.slice(0, 1000),
      domesticNum: c.domestic,
      domesticSet: c.domesticNumbers.slice(0, 1000),
      parseMobilesInfo: { submitTotal: c.total, errNum: c.invalid, repeatNum: c.repeat },
    };
  }

  /**
   * An uploaded source file of the session account: a chunked upload's importFilePath (the file
   * service, server/modules/files) or a working file of POST /send/uploadVariateFile /
   * uploadInternationalFile.
   */
  private async sourceFile(
    me: Account,
    path: unknown,
    rule: { kinds: ('txt' | 'csv' | 'xlsx')[]; maxSize: number; badType: string; tooLarge: string; missing: string },
  ): Promise<{ abs: string; ext: WorkExt }> {
    if (IMPORT_FILE_PATH.test(String(path ?? '').trim())) {
      const f = await resolveUpload(this.ctx, me, path, {
        kinds: rule.kinds,
        maxSize: rule.maxSize,
        messages: { badType: rule.badType, tooLarge: rule.tooLarge },
      });
      return { abs: f.path, ext: f.kind };
    }
    const f = await workFile(this.ctx, me, path, rule.missing);
    if (!(rule.kinds as string[]).includes(f.ext)) throw new ApiError(400, rule.badType);
    return f;
  }

  /** The check of an international file of the session account (txt / csv: every non-digit separates; xlsx: every cell of the first sheet). */
  private async intlFile(me: Account, path: string, prices: Map<string, IntlPrice>, keep: boolean): Promise<IntlCheck> {
    const f = await this.sourceFile(me, path, {
      kinds: ['txt', 'csv', 'xlsx'],
      maxSize: 250 * 1024 * 1024,
      badType: IX.fileBadType,
      tooLarge: IX.fileTooLarge,
      missing: VX.fileExpired,
    });
    return intlFileCheck(f.abs, f.ext, prices, { tooMany: IX.tooManyNumbers, max: MAX_INTL_NUMBERS, keep });
  }

  /** POST /send/parsefileInternational: the check of an uploaded international number file. */
  async parseInternationalFile(me: Account, p: IntlParseParams) {
    const path = p.importFilePath ?? '';
    const fileName = p.fileName ?? '';
    const prices = await loadPrices(this.ctx.db);
    const c = await this.intlFile(me, path, prices, false);
    if (!c.distinct) throw new ApiError(400, IX.noNumbers);
    return { fileName, importFilePath: path, ...this.intlAnswer(c, prices), internationalSet: [] as string[] };
  }

  // ------------------------------------------------------------------ variable files, screening

  /** A variable template the account may use: approved, variable, domestic, its own or general. */
  private async variableTemplate(account: Account, templateId: unknown) {
    const id = Number(templateId);
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw new ApiError(400, VX.templateInvalid);
    const tpl = await this.ctx.db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
    if (
      !tpl ||
      tpl.state !== TemplateAuditState.Approved ||
      tpl.business !== TemplateBusiness.Domestic ||
      tpl.template_type !== TemplateType.Variable ||
      (tpl.owner_id !== null && tpl.owner_id !== account.id)
    ) {
      throw errors.refused(VX.templateInvalid);
    }
    return tpl;
  }

  /** POST /send/parsefileVariate: checks every row of an uploaded variable file. */
  async parseVariable(me: Account, b: VariableParseParams): Promise<VariableParse> {
    const account = await this.send.target(me, b.clientId);
    const tpl = await this.variableTemplate(account, b.templateId);
    if (!b.importFilePath) throw new ApiError(400, VX.noFile);
    const src = await this.sourceFile(me, b.importFilePath, {
      kinds: ['xlsx'],
      maxSize: VARIABLE_FILE_MAX_BYTES,
      badType: VX.fileBadType,
      tooLarge: VX.fileTooLarge,
      missing: VX.noFile,
    });
    const good = await newWorkFile(this.ctx, me, 'tsv');
    const bad = await newWorkFile(this.ctx, me, 'xlsx');
    const sign = String(b.sign ?? tpl.sign ?? '').trim();
    try {
      const r = await parseVariableFile(
        src.abs,
        { literals: templateParts(tpl.content), sign },
        { goodPath: good.abs, errorPath: bad.abs },
      );
      if (r.submitTotal === 0) await fs.promises.rm(good.abs, { force: true });
      const { hasErrors, ...counts } = r;
      const result = {
        fileName: String(b.fileName ?? '').slice(0, 100),
        ...counts,
        sendFilePath: r.submitTotal ? good.rel : '',
        errorFilePath: hasErrors ? bad.rel : '',
      };
      if (r.submitTotal === 0) throw Object.assign(new ApiError(400, VX.emptyFile), { data: result });
      return result;
    } catch (e) {
      if (!(e instanceof ApiError && e.message === VX.emptyFile)) {
        await fs.promises.rm(good.abs, { force: true });
        await fs.promises.rm(bad.abs, { force: true });
      }
      throw e;
    }
  }

  /** The error file of a parse, for /send/downloadtemplateVariateError. */
  async errorFile(me: Account, path: string | undefined) {
    const f = await workFile(this.ctx, me, path, VX.fileExpired);
    if (f.ext !== 'xlsx') throw new ApiError(400, VX.fileExpired);
    return f.abs;
  }

  /** POST /send/screenPhones */
  async screen(me: Account, b: ScreenPhonesParams) {
    const rule = screenRule(b);
    const type = b.type ?? ScreeningType.Manual;
    if (type === ScreeningType.File) {
      const path = b.sendFilePath || b.importFilePath;
      if (!path) throw new ApiError(400, VX.noUpload);
      const src = await workFile(this.ctx, me, path, VX.noUpload);
      if (src.ext !== 'tsv') throw new ApiError(400, VX.noUpload);
      const dest = await newWorkFile(this.ctx, me, 'tsv');
      const counts = await screenFile(src.abs, dest.abs, rule);
      if (!counts.submitTotal) {
        await fs.promises.rm(dest.abs, { force: true });
        throw Object.assign(new ApiError(400, IX.noNumbers), { data: { ...counts, sendFilePath: '' } });
      }
      return { ...counts, sendFilePath: dest.rel, variateNum: b.variateNum ?? 0 };
    }
    const c = checkNumbers(b.phones ?? '');
    const problem = numberPoolError(c);
    if (problem) throw new ApiError(400, problem);
    const r = screenList(c.unique, rule);
    if (!r.submitTotal) throw Object.assign(new ApiError(400, IX.noNumbers), { data: { ...r, phones: '' } });
    return { ...r, phones: r.phones.join(',') };
  }

  // ------------------------------------------------------------------ acceptance

  private audits(account: Account, smstype: number, hit: boolean) {
    const audit =
      account.needaudit === NeedAudit.All ||
      (account.needaudit === NeedAudit.Marketing && smstype === SmsType.Marketing) ||
      (account.needaudit === NeedAudit.Keyword && hit);
    return { audit, intercepted: hit && !audit };
  }

  private payerOf(a: Account) {
    return a.user_type === UserType.SubAccount && a.paytype === PayType.Postpaid && a.agent_id ? a.agent_id : a.id;
  }

  private timeOf(sendtime: unknown, kind: 'variable' | 'international'): Date {
    const t = parseSendTime(sendtime);
    if (!t) throw new ApiError(400, MSG.badSendTime);
    const e = sendTimeError(kind, t, this.ctx.now());
    if (e) throw new ApiError(400, e);
    return t;
  }

  /** An international send: immediate, or timed (charged at acceptance; it cannot be cancelled). */
  async sendInternational(me: Account, f: SendInternationalForm, opts: { timed?: boolean } = {}): Promise<SendResult> {
    const { a, sendTime } = await this.prepareInternational(me, f, opts);
    return this.accept(me, a, { timed: !!opts.timed, sendTime, checkCredit: true });
  }

  /** POST /send/chargeInfoInternational: the confirm dialog's figures (characters, pieces, per country, amount, balance). */
  async previewInternational(me: Account, f: SendInternationalForm) {
    const { a, countries, chars } = await this.prepareInternational(me, f, {});
    return {
      chars,
      smsNum: a.pieces[0] ?? 0,
      submitTotal: a.phones.length,
      errNum: a.errNum,
      repeatNum: a.repeatNum,
      countries,
      ...(await this.chargePreview(a)),
    };
  }

  private async prepareInternational(me: Account, f: SendInternationalForm, opts: { timed?: boolean }) {
    const account = await this.send.target(me, f.clientId);
    assertMaySend(account);
    assertNotTestAccount(account);
    if (!allowsInternational(account.phone_inout_type)) throw errors.refused(IX.notInternational);
    const sendTime = opts.timed ? this.timeOf(f.sendtime, 'international') : this.ctx.now();
    const sign = (f.sign ?? '').trim();
    const content = stripSign(f.content, sign);
    if (!content.trim()) throw new ApiError(400, intlForm.properties.content.errorMessage.minLength);
    const pc = countPieces({ content, sign });
    if (pc.tooLong) throw new ApiError(400, MSG.tooLong);
    // the sign may be left empty (forms/send-international.json); one given is an approved one
    if (sign) await assertApprovedSign(this.ctx.db, account.id, sign);
    const prices = await loadPrices(this.ctx.db);
    const fromFile = f.fileType === NumberInputMode.File;
    if (fromFile && !f.importFilePath) throw new ApiError(400, intlForm.properties.importFilePath.errorMessage);
    let c: IntlCheck;
    if (fromFile) c = await this.intlFile(me, f.importFilePath!, prices, true);
    else {
      const tokens = (f.mobile ?? '').split(/[^0-9]+/).filter(Boolean);
      if (tokens.length > MAX_INTL_NUMBERS) throw new ApiError(400, IX.tooManyNumbers);
      c = checkInternational(tokens, prices);
    }
    if (!c.unique.length) throw new ApiError(400, IX.noNumbers);
    const hit = this.ctx.words.contains(pc.text);
    const { audit, intercepted } = this.audits(account, f.smstype, hit);
    // the charge: per country the cent-ceiling of its exact cost; by amount one ledger row each,
    // package accounts (operation_mode 1) the sum from their international pools
    const ledger = countrySummary(c, prices).map((s) => {
      const cost = new Money(s.fee).times(pc.pieces).times(s.num);
      return {
        amount: ceilCent(cost),
        cost,
        remark: `国际短信 ${s.countryName}(+${s.countryCode}) ${s.num}个号码×${pc.pieces}条×${s.fee}元`,
      };
    });
    const n = c.unique.length;
    const acc: Acceptance = {
      account,
      payerId: this.payerOf(account),
      kind: SendKind.International,
      mode: account.operation_mode === OperationMode.Package ? ChargeMode.Pool : ChargeMode.Money,
      taskText: pc.text,
      sign,
      smstype: f.smstype,
      templateId: null,
      templateType: TemplateType.Fixed,
      fileType: fromFile ? 1 : 0,
      fileName: (f.fileName ?? '').slice(0, 100),
      importFilePath: fromFile ? f.importFilePath! : '',
      errNum: c.invalid,
      repeatNum: c.repeat,
      phones: c.unique,
      carriers: new Uint8Array(n).fill(Carrier.International),
      pieces: new Uint16Array(n).fill(pc.pieces),
      texts: null,
      prices: c.countries.map((iso) => prices.get(iso)!.fee),
      carrierPrices: NO_PRICES,
      charge: { ledger },
      chargeNum: n * pc.pieces,
      intercepted,
      audit,
      blacklistNum: 0,
    };
    return { a: acc, sendTime, chars: pc.chars, countries: countrySummary(c, prices) };
  }

  /** A variable send: file rows (each its own text and pieces) or typed numbers with one filled text. */
  async sendVariable(
    me: Account,
    f: SendVariableForm,
    opts: { timed?: boolean; checkCredit?: boolean; probe?: AcceptProbe } = {},
  ): Promise<SendResult> {
    const t0 = performance.now();
    const { a, sendTime } = await this.prepareVariable(me, f, opts);
    opts.probe?.phase('prepare', performance.now() - t0);
    return this.accept(me, a, {
      timed: !!opts.timed,
      sendTime,
      checkCredit: opts.checkCredit !== false,
      probe: opts.probe,
    });
  }

  /** POST /send/chargeInfoVariable: the confirm dialog's figures (rows, pieces of all rows, amount or remaining pieces). */
  async previewVariable(me: Account, f: SendVariableForm) {
    const { a } = await this.prepareVariable(me, f, {});
    return {
      submitTotal: a.phones.length,
      errNum: a.errNum,
      repeatNum: a.repeatNum,
      blacklistNum: a.blacklistNum,
      ...(await this.chargePreview(a)),
    };
  }

  private async prepareVariable(me: Account, f: SendVariableForm, opts: { timed?: boolean; probe?: AcceptProbe }) {
    const probe = opts.probe;
    const account = await this.send.target(me, f.clientId);
    assertMaySend(account);
    assertNotTestAccount(account);
    if (!allowsDomestic(account.phone_inout_type)) throw errors.refused(MSG.noDomestic);
    const sendTime = opts.timed ? this.timeOf(f.sendtime, 'variable') : this.ctx.now();
    const tpl = await this.variableTemplate(account, f.templateId);
    if (!smsTypesOf(account).includes(f.smstype)) throw errors.refused(MSG.smstypeNotAllowed);
    const categoryOk =
      tpl.sms_type === TemplateCategory.MemberMarketing
        ? f.smstype === SmsType.Marketing
        : f.smstype !== SmsType.Marketing;
    if (!categoryOk || (tpl.smstype !== null && tpl.smstype !== f.smstype)) throw errors.refused(MSG.smstypeMismatch);
    const sign = f.sign.trim();
    await assertApprovedSign(this.ctx.db, account.id, sign);
    const literals = templateParts(tpl.content);
    let phones: string[];
    let carriers: Uint8Array;
    let pieces: Uint16Array;
    let texts: string[] | null = null;
    let errNum = 0;
    let repeatNum: number;
    let taskText: string;
    const fromFile = f.fileType === NumberInputMode.File;
    let hit: boolean;
    if (fromFile) {
      if (!f.importFilePath) throw new ApiError(400, VX.noUpload);
      const src = await workFile(this.ctx, me, f.importFilePath, VX.noUpload);
      if (src.ext !== 'tsv') throw new ApiError(400, VX.noUpload);
      const filled = new FilledTemplate(literals, sign);
      const rest = literals.slice(1);
      const zh = this.ctx.words.templateCheck([filled.prefixZh + literals[0], ...rest]);
      const en = filled.fixedAscii ? this.ctx.words.templateCheck([filled.prefixEn + literals[0], ...rest]) : zh;
      const rows = await readSendRows(src.abs, filled, { zh, en });
      probe?.phase('read', rows.readMs);
      probe?.phase('checks', rows.checkMs);
      if (!rows.phones.length) throw new ApiError(400, VX.emptyFile);
      repeatNum = rows.repeatNum;
      phones = rows.phones;
      carriers = rows.carriers;
      pieces = rows.pieces;
      texts = rows.texts;
      hit = rows.hit;
      taskText = countPieces({ content: tpl.content, sign }).text;
    } else {
      const content = stripSign(f.content ?? '', sign);
      if (!content.trim()) throw new ApiError(400, VX.contentEmpty);
      if (!fillsTemplate(tpl.content, content)) throw errors.refused(MSG.templateMismatch);
      const pc = countPieces({ content, sign });
      if (pc.tooLong) throw new ApiError(400, MSG.tooLong);
      const c = checkNumbers(f.mobile ?? '');
      const problem = numberPoolError(c);
      if (problem) throw new ApiError(400, problem);
      phones = c.unique;
      carriers = c.uniqueCarriers;
      pieces = new Uint16Array(phones.length).fill(pc.pieces);
      errNum = c.invalid;
      repeatNum = c.repeat;
      taskText = pc.text;
      hit = this.ctx.words.contains(taskText);
    }
    // marketing: not to the account's or the platform's blacklisted numbers (docs/api-blacklist.md)
    let blacklistNum = 0;
    if (honoursBlacklist(f.smstype)) {
      const mark = performance.now();
      const keep = keptIndexes(phones, await blacklistedOf(this.ctx.db, account.id, phones));
      if (keep) {
        blacklistNum = phones.length - keep.length;
        if (!keep.length) throw errors.refused(X.allBlacklisted);
        phones = keepOf(phones, keep);
        carriers = keepOf(carriers, keep);
        pieces = keepOf(pieces, keep);
        if (texts) texts = keepOf(texts, keep);
      }
      probe?.phase('blacklist', performance.now() - mark);
    }
    const { audit, intercepted } = this.audits(account, f.smstype, hit);
    const carrierPrices = this.send.pricesOf(account);
    const mode: ChargeMode = account.operation_mode === OperationMode.Package ? ChargeMode.Pool : ChargeMode.Money;
    const perCarrier = {
      1: { count: 0, cost: new Money(0) },
      2: { count: 0, cost: new Money(0) },
      3: { count: 0, cost: new Money(0) },
    } as ChargePlan['perCarrier'];
    const piecesBy = { 1: 0, 2: 0, 3: 0 } as Record<1 | 2 | 3, number>;
    for (let i = 0; i < phones.length; i++) piecesBy[carriers[i] as 1 | 2 | 3] += pieces[i];
    for (const k of [1, 2, 3] as const)
      perCarrier[k] = { count: piecesBy[k], cost: new Money(carrierPrices[k]).times(piecesBy[k]) };
    const payerId = this.payerOf(account);
    const plan: ChargePlan = {
      taskId: 0,
      uid: '',
      mode,
      accountId: account.id,
      payerId,
      smstype: f.smstype,
      piecesPerMsg: 1,
      perCarrier,
    };
    const acc: Acceptance = {
      account,
      payerId,
      kind: SendKind.Variable,
      mode,
      taskText,
      sign,
      smstype: f.smstype,
      templateId: tpl.id,
      templateType: TemplateType.Variable,
      fileType: fromFile ? 1 : 0,
      fileName: (f.fileName ?? '').slice(0, 100),
      importFilePath: fromFile ? f.importFilePath! : '',
      errNum,
      repeatNum,
      phones,
      carriers,
      pieces,
      texts,
      prices: null,
      carrierPrices,
      charge: { plan },
      chargeNum: planPieces(plan),
      intercepted,
      audit,
      blacklistNum,
    };
    return { a: acc, sendTime };
  }

  /**
   * POST /send/send_time_sms: the JSON body of a timed variable (sendKind 1) or international
   * (sendKind 2) send. The spec's fields have no sendKind (issue 41 item 12): without it, a body
   * naming a template (templateId) is a variable send, any other an international one.
   */
  async sendTimed(me: Account, body: SendTimeSmsParams): Promise<SendResult> {
    const raw: Record<string, unknown> = { ...body };
    if (me.user_type !== UserType.Agent) raw.clientId = me.clientid;
    else if (raw.clientId === undefined && raw.clientid !== undefined) raw.clientId = raw.clientid;
    if (raw.mobile === undefined && raw.mobilelist !== undefined) raw.mobile = raw.mobilelist;
    for (const k of ['clientid', 'mobilelist', 'sendKind', 'uid', 'chargeNum', 'operater']) delete raw[k];
    for (const k of Object.keys(raw)) if (raw[k] === null) delete raw[k];
    if (raw.sendtime === undefined) throw new ApiError(400, MSG.badSendTime);
    const check = body.isCheckAvailableCredit ?? 1;
    delete raw.isCheckAvailableCredit;
    // the spec's payload has no sendKind: a variable send names its template, an international one none
    const kind =
      body.sendKind ??
      (body.templateId !== undefined && body.templateId !== '' ? SendKind.Variable : SendKind.International);
    if (kind === SendKind.International)
      return this.sendInternational(me, validateForm<SendInternationalForm>(this.ctx.schemas, INTL_FORM, raw), {
        timed: true,
      });
    if (kind === SendKind.Variable)
      return this.sendVariable(me, validateForm<SendVariableForm>(this.ctx.schemas, VARIABLE_FORM, raw), {
        timed: true,
        checkCredit: check !== 0,
      });
    throw new ApiError(400, MESSAGES.badParam);
  }

  /** The charge preview of the confirm dialog (variable and international): what accept() would charge. */
  async chargePreview(a: {
    payerId: number;
    smstype: number;
    charge: Acceptance['charge'];
    chargeNum: number;
    mode: ChargeMode;
  }) {
    if (a.mode === ChargeMode.Pool && a.charge.plan) {
      const pools = await usablePools(this.ctx.db, a.payerId, a.smstype, this.ctx.now());
      return { chargeMode: ChargeMode.Pool, chargeNum: a.chargeNum, remainPieces: remainOf(pools) };
    }
    const amount = a.charge.ledger
      ? a.charge.ledger.reduce((s, l) => s.plus(l.amount), new Money(0))
      : ceilCent(planCostOf(a.charge.plan!));
    if (a.mode === ChargeMode.Pool) {
      // international, package account: yuan from its international pools
      const pools = await usableIntlPools(this.ctx.db, a.payerId, this.ctx.now());
      return {
        chargeMode: ChargeMode.Pool,
        chargeNum: a.chargeNum,
        amount: money2(amount),
        remainAmount: intlRemainOf(pools),
      };
    }
    return {
      chargeMode: ChargeMode.Money,
      chargeNum: a.chargeNum,
      amount: money2(amount),
      balance: await new LedgerService(this.ctx).balanceOf(a.payerId),
    };
  }

  private async accept(
    me: Account,
    a: Acceptance,
    o: { timed: boolean; sendTime: Date; checkCredit: boolean; probe?: AcceptProbe },
  ): Promise<SendResult> {
    const now = this.ctx.now();
    const chargeNow = !a.intercepted && (!o.timed || o.checkCredit || a.kind === SendKind.International);
    const refuse = (msg: string) => (o.timed ? new ApiError(403, msg) : errors.refused(msg));
    // the usual refusal, before locking or writing anything (checked again on locked rows below)
    if (chargeNow) {
      const p = await this.chargePreview(a);
      if (p.remainAmount !== undefined && new Money(p.remainAmount).lt(p.amount))
        throw refuse(refusalOf({ ok: false, kind: 'intlPools', remain: p.remainAmount, needed: p.amount }));
      if (p.remainPieces !== undefined && p.remainPieces < a.chargeNum)
        throw refuse(refusalOf({ ok: false, kind: 'pieces', remain: p.remainPieces, needed: a.chargeNum }));
      if (p.chargeMode === ChargeMode.Money && new Money(p.balance).lt(p.amount))
        throw refuse(refusalOf({ ok: false, kind: 'balance', balance: p.balance, needed: p.amount }));
    }
    const uid = newTaskUid(now);
    const n = a.phones.length;
    const state = a.intercepted
      ? SendRecordStatus.GatewayReceiveIntercepted
      : a.audit
        ? SendRecordStatus.AwaitingReview
        : SendRecordStatus.NotSent;
    const status = a.intercepted ? TaskStatus.Completed : o.timed ? TaskStatus.Waiting : TaskStatus.Processing;
    const batch: UnplacedBatch = {
      accountId: a.account.id,
      phones: a.phones,
      carriers: a.carriers,
      pieces: 1,
      // never-charged messages (intercepted at acceptance) cost nothing; international messages
      // (carrier 4) have no price by carrier: each gets its own, 0 when intercepted
      prices: a.intercepted ? NO_PRICES : a.carrierPrices,
      state,
      nextAt: state === SendRecordStatus.NotSent && !o.timed ? now : null,
      createdAt: now,
      doneAt: a.intercepted ? now : null,
      each: {
        texts: a.texts ?? undefined,
        pieces: a.pieces,
        prices: a.prices ? (a.intercepted ? new Array<string>(n).fill('0') : a.prices) : undefined,
        noRegions: a.kind === SendKind.International,
      },
    };
    // a large task's chunks are compressed and written before the transaction (send/messages.ts)
    let mark = performance.now();
    const staged = await stageChunks(this.ctx.db, batch);
    o.probe?.phase('stage', performance.now() - mark);
    const result = await this.ctx.db
      .transaction()
      .execute(async (trx) => {
        await o.probe?.inTransaction?.(trx);
        mark = performance.now();
        await this.send.takeSubmitLock(trx, a.account.id);
        if (!chargeNow && !a.intercepted) await assertDeferredRoom(this.ctx, trx, a.account.id, a.chargeNum);
        const task = await trx
          .insertInto('sms_tasks')
          .values({
            uid,
            account_id: a.account.id,
            agent_id: a.account.agent_id,
            creator_id: me.id,
            creator_name: me.clientid,
            payer_id: a.payerId,
            charge_mode: a.mode,
            content: a.taskText,
            sign: a.sign,
            smstype: a.smstype,
            template_id: a.templateId,
            template_type: a.templateType,
            file_type: a.fileType,
            file_name: a.fileName,
            import_file_path: a.importFilePath,
            submit_total: n,
            err_num: a.errNum,
            repeat_num: a.repeatNum,
            blacklist_num: a.blacklistNum,
            pieces_per_msg: maxOf(a.pieces),
            status,
            send_type: o.timed ? 1 : 0,
            send_time: o.sendTime,
            intercept_num: a.intercepted ? n : 0,
            audit_num: a.audit ? n : 0,
            charge_state: chargeNow || a.intercepted ? ChargeState.Charged : ChargeState.Deferred,
            send_kind: a.kind,
            created_at: now,
            updated_at: now,
            finished_at: a.intercepted ? now : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await insertMessages(trx, { ...batch, taskId: task.id, staged });
        if (o.probe) {
          const t = performance.now();
          o.probe.phase('insert', t - mark);
          mark = t;
        }
        let amount = '0.00';
        let chargeNum = 0;
        if (chargeNow) {
          const r = await this.charge(trx, a, task.id, uid);
          if (!r.ok) throw refuse(r.msg);
          amount = r.amount;
          chargeNum = r.chargeNum;
          await trx
            .updateTable('sms_tasks')
            .set({ amount: r.amount, cost: r.cost, charge_num_total: r.chargeNum })
            .where('id', '=', task.id)
            .execute();
        } else if (!a.intercepted) {
          chargeNum = a.chargeNum;
          await trx.updateTable('sms_tasks').set({ charge_num_total: chargeNum }).where('id', '=', task.id).execute();
        }
        if (o.probe) {
          const t = performance.now();
          o.probe.phase('charge', t - mark);
          mark = t;
        }
        return { amount, chargeNum };
      })
      .catch(async (err: unknown) => {
        await dropStaged(this.ctx.db, staged);
        throw err;
      });
    o.probe?.phase('commit', performance.now() - mark);
    return {
      taskId: uid,
      smsNum: maxOf(a.pieces),
      submitTotal: n,
      chargeNum: result.chargeNum,
      amount: result.amount,
      msg: withBlacklistMsg(a.intercepted ? X.intercepted : a.audit ? X.awaitingReview : X.sent, a.blacklistNum),
      blacklistNum: a.blacklistNum,
    };
  }

  private async charge(
    trx: Tx,
    a: Acceptance,
    taskId: number,
    uid: string,
  ): Promise<{ ok: true; amount: string; cost: string; chargeNum: number } | { ok: false; msg: string }> {
    if (a.charge.plan) {
      const r = await chargePlan(trx, this.ctx, { ...a.charge.plan, taskId, uid });
      return r.ok ? r : { ok: false, msg: refusalOf(r) };
    }
    const rows = a.charge.ledger!;
    const amount = rows.reduce((s, l) => s.plus(l.amount), new Money(0));
    const cost = rows.reduce((s, l) => s.plus(l.cost), new Money(0));
    if (a.mode === ChargeMode.Pool) {
      const r = await chargeIntlPools(trx, this.ctx, {
        taskId,
        uid,
        payerId: a.payerId,
        amount,
        cost,
        chargeNum: a.chargeNum,
      });
      return r.ok ? r : { ok: false, msg: refusalOf(r) };
    }
    const postpaid = a.payerId !== a.account.id;
    const r = await new LedgerService({ db: trx, now: this.ctx.now }).applyIn(
      trx,
      rows.map((l) => ({
        accountId: a.payerId,
        amount: l.amount.neg(),
        kind: postpaid ? BillPaymentType.PostpaidSubAccountUse : BillPaymentType.SubAccountConsumption,
        counterpartId: postpaid ? a.account.id : null,
        remark: `${l.remark} 任务${uid}`,
      })),
    );
    if (!r.ok)
      return { ok: false, msg: refusalOf({ ok: false, kind: 'balance', balance: r.balance, needed: r.needed }) };
    return { ok: true, amount: money2(amount), cost: cost.toFixed(4), chargeNum: a.chargeNum };
  }

  /** Row counts for the tests and the CLI: messages of a task grouped by price (international: per country). */
  async taskCountries(uid: string) {
    const t = await this.ctx.db.selectFrom('sms_tasks').select('id').where('uid', '=', uid).executeTakeFirst();
    if (t) await expandTask(this.ctx.db, t.id);
    const r = await sql<{
      price: string;
      n: string;
    }>`select m.price::text as price, count(*)::text as n from sms_messages m join sms_tasks t on t.id = m.task_id where t.uid = ${uid} group by m.price order by m.price`.execute(
      this.ctx.db,
    );
    return r.rows.map((x) => ({ price: x.price, n: Number(x.n) }));
  }
}

const NO_PRICES: Record<1 | 2 | 3, string> = { 1: '0', 2: '0', 3: '0' };

const planCostOf = (p: ChargePlan) =>
  [1, 2, 3].reduce((s, c) => s.plus(p.perCarrier[c as 1 | 2 | 3].cost), new Money(0));

function maxOf(a: Uint16Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i];
  return m;
}
