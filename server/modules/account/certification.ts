/**
 * Certification (资质认证) of the account itself: submit (未认证 1 / 认证不通过 4 -> 待认证 2),
 * read, and the operator's review (-> 已认证 3 or 认证不通过 4 with a reason). The account row
 * carries the summary (oauth_status, oauth_remark, oauth_date, id_type, id_nbr); the
 * certifications table keeps every submission, the newest being the current one.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Account, Database } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { formatDateTime } from '../../lib/time';
import { FILES_BASE_URL } from '../upload';
import { CertType, IdType, OauthStatus, UserType, type CertificationForm } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';
import idTypeEnum from '../../../schemas/enums/id-type.json';

export const CERT_MESSAGES = {
  submitted: '提交成功，请等待审核',
  pending: '您的认证资料正在审核中，请勿重复提交',
  certified: '您已通过认证，无需重复提交',
  notRejected: '当前认证状态不能重新认证',
  fetchFailed: MESSAGES.certificationFetchFailed,
  noClient: '账户不存在',
  agentOwned: '代理商自有账户，无需上传资质',
} as const;

export const ID_TYPE_LABELS: Record<number, string> = Object.fromEntries(
  idTypeEnum.oneOf.map((o) => [o.const, o.title]),
);

/** The answer of GET /admin/cer/info and /client/cer/info. */
export interface CertificationInfo {
  clientid: string;
  agent_id: string;
  /** 1 personal, 2 enterprise; null before any submission */
  cert_type: number | null;
  id_typeNum: number | null;
  id_type: string;
  company: string;
  id_nbr: string;
  img_url: string;
  smsp_img_url: string;
  oauth_status: number;
  oauth_date: string;
  remark: string;
  submitted_at: string;
  reviewed_at: string;
}

/** cert type from the id type: 个人身份证 (1) is personal certification, every other type is enterprise. */
export const certTypeOf = (idType: number) => (idType === IdType.IdCard ? CertType.Personal : CertType.Enterprise);

type Db = Kysely<Database> | Transaction<Database>;

export async function certificationInfo(db: Db, account: Account): Promise<CertificationInfo> {
  const row = await db
    .selectFrom('certifications')
    .selectAll()
    .where('account_id', '=', account.id)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  let agentClientid = account.user_type === UserType.Agent ? account.clientid : '';
  if (account.agent_id !== null) {
    const agent = await db
      .selectFrom('accounts')
      .select('clientid')
      .where('id', '=', account.agent_id)
      .executeTakeFirst();
    agentClientid = agent?.clientid ?? '';
  }
  const idType = row?.id_type ?? account.id_type ?? null;
  return {
    clientid: account.clientid,
    agent_id: agentClientid,
    cert_type: row ? row.cert_type : idType !== null ? certTypeOf(idType) : null,
    id_typeNum: idType,
    id_type: idType !== null ? (ID_TYPE_LABELS[idType] ?? String(idType)) : '',
    company: row?.company ?? (account.oauth_status === OauthStatus.Certified ? account.name : ''),
    id_nbr: row?.id_nbr ?? account.id_nbr,
    img_url: row?.img_url ?? '',
    smsp_img_url: FILES_BASE_URL,
    oauth_status: account.oauth_status,
    oauth_date: formatDateTime(account.oauth_date),
    remark: account.oauth_status === OauthStatus.Rejected ? account.oauth_remark : '',
    submitted_at: formatDateTime(row?.submitted_at),
    reviewed_at: formatDateTime(row?.reviewed_at),
  };
}

/**
 * Stores a submission and moves the account to 待认证 (or straight to 已认证 with auto review).
 * `mode` add: from 未认证 (or 认证不通过); edit (re-certification): from 认证不通过 (or 未认证).
 * Refused with a clear message when pending or certified; nothing changes then.
 */
export async function submitCertification(
  db: Kysely<Database>,
  accountId: number,
  form: CertificationForm,
  opts: { now: Date; autoReview: boolean },
): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const a = await tx
      .selectFrom('accounts')
      .select(['id', 'oauth_status'])
      .where('id', '=', accountId)
      .forUpdate()
      .executeTakeFirst();
    if (!a) throw errors.notFound('账户');
    if (a.oauth_status === OauthStatus.Pending) throw new ApiError(500, CERT_MESSAGES.pending);
    if (a.oauth_status === OauthStatus.Certified) throw new ApiError(500, CERT_MESSAGES.certified);
    const state = opts.autoReview ? 3 : 2;
    await tx
      .insertInto('certifications')
      .values({
        account_id: accountId,
        cert_type: certTypeOf(form.id_type),
        id_type: form.id_type,
        company: form.company,
        id_nbr: form.id_nbr,
        img_url: form.imgUrl,
        state,
        submitted_at: opts.now,
        reviewed_at: opts.autoReview ? opts.now : null,
      })
      .execute();
    await tx
      .updateTable('accounts')
      .set({
        oauth_status: state,
        oauth_remark: '',
        oauth_date: opts.autoReview ? opts.now : null,
        id_type: form.id_type,
        id_nbr: form.id_nbr,
        update_time: opts.now,
      })
      .where('id', '=', accountId)
      .execute();
    return state;
  });
}

export class ReviewError extends Error {}

/** The operator's decision on a pending submission (CLI). */
export async function reviewCertification(
  db: Kysely<Database>,
  clientid: string,
  decision: { approve: true } | { approve: false; reason: string },
  now: Date,
  /** the operator who reviews ('' = the CLI) */
  by = '',
) {
  // in the caller's transaction when given one (the operator console writes its audit row there)
  const inTx = <T>(fn: (tx: Transaction<Database>) => Promise<T>) =>
    db.isTransaction ? fn(db as Transaction<Database>) : db.transaction().execute(fn);
  return inTx(async (tx) => {
    const a = await tx
      .selectFrom('accounts')
      .select(['id', 'oauth_status', 'name'])
      .where('clientid', '=', clientid)
      .forUpdate()
      .executeTakeFirst();
    if (!a) throw new ReviewError(`账户 ${clientid} 不存在`);
    if (a.oauth_status !== OauthStatus.Pending)
      throw new ReviewError(
        `账户 ${clientid} 没有待审核的认证（当前：${['', '未认证', '待认证', '已认证', '认证不通过'][a.oauth_status]}）`,
      );
    const cert = await tx
      .selectFrom('certifications')
      .select('id')
      .where('account_id', '=', a.id)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const state = decision.approve ? 3 : 4;
    const remark = decision.approve ? '' : decision.reason;
    if (cert)
      await tx
        .updateTable('certifications')
        .set({ state, remark, reviewed_at: now, reviewed_by: by })
        .where('id', '=', cert.id)
        .execute();
    await tx
      .updateTable('accounts')
      .set({ oauth_status: state, oauth_remark: remark, oauth_date: decision.approve ? now : null, update_time: now })
      .where('id', '=', a.id)
      .execute();
    return { name: a.name, state };
  });
}
