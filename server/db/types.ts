/**
 * The database as Kysely sees it. Column types follow what both drivers (pg and PGlite) return:
 * NUMERIC as decimal strings, timestamptz as Date, integer as number, jsonb as parsed JSON.
 * No bigint columns: the two drivers disagree on how they return them.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { JsonValue } from './generated';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** a column with a database default: optional on insert */
type D<T> = ColumnType<T, T | undefined, T>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** NUMERIC: exact decimal, read as a string, written as a string or number */
export type Money = ColumnType<string, string | number, string | number>;

export interface AccountTable {
  id: Generated<number>;
  /** login name: agents 'a10001' (seeded ones have readable names), sub-accounts 6 characters */
  clientid: string;
  /** '1' agent, '2' sub-account / direct customer */
  user_type: string;
  /** parent agent of a sub-account */
  agent_id: D<number | null>;
  /** '0' direct top-up, '1' product packages */
  operation_mode: D<string>;
  name: D<string>;
  realname: D<string>;
  /** stored lower-case; '' when none */
  email: D<string>;
  mobile: D<string>;
  country_code: D<string>;
  /** argon2id(sha256hex(password)) */
  password_hash: string;
  /** 0027_interface_password: the SMPP bind password, argon2id(sha256hex(password)); '' = none yet */
  interface_password_hash: D<string>;
  /** 0 registered inactive, 1 active, 5 frozen, 6 cancelled, 7 locked */
  status: D<number>;
  /** 1 未认证, 2 待认证, 3 已认证, 4 认证不通过 */
  oauth_status: D<number>;
  oauth_remark: D<string>;
  oauth_date: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  id_type: D<number | null>;
  id_nbr: D<string>;
  address: D<string>;
  province: D<string>;
  city: D<string>;
  area: D<string>;
  phone_inout_type: D<number>;
  paytype: D<number>;
  needreport: D<number>;
  needaudit: D<number>;
  needmo: D<number>;
  needextend: D<number>;
  deliveryurl: D<string>;
  mourl: D<string>;
  remarks: D<string>;
  invite_code: D<string>;
  auto_template_callback_url: D<string>;
  failed_logins: D<number>;
  locked_until: D<Date | null>;
  create_time: CreatedAt;
  update_time: ColumnType<Date, Date | string | undefined, Date | string>;
  // 0006_subaccounts_ledger: money (NUMERIC, decimal strings) and interface settings
  balance: D<string>;
  price_type: D<number>;
  unified_price: D<string>;
  mobile_price: D<string>;
  unicom_price: D<string>;
  telecom_price: D<string>;
  gj_sms_discount: D<string>;
  smstype: D<number>;
  agent_owned: D<number>;
  client_type: D<number>;
  img_url: D<string>;
  ip: D<string>;
  nodenum: D<string>;
  access_speed: D<number>;
  smsfrom: D<number>;
  balance_alarm: D<string>;
  alarm_mobile: D<string>;
  expire_date: ColumnType<string | null, string | null | undefined, string | null>;
  /** generated: lower(clientid name mobile email), the manager list's search */
  search_text: ColumnType<string, never, never>;
  // 0012_purchase: discounts in percent (100 = none), usable rebate in yuan
  hy_sms_discount: D<string>;
  yx_sms_discount: D<string>;
  rebate_useable: D<string>;
  // 0029_api_secret: hex HMAC-SHA256(interface password, clientid); '' = no HTTP API access
  api_secret: D<string>;
  // 0034_test_accounts: set on a test account (its end); null: an ordinary account
  test_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** 0042: what the payer paid over the exact cost of its interface sends (the rounding carry, docs/api-send.md "Billing"), 4 decimals */
  charge_carry: ColumnType<string, string | number | undefined, string | number>;
  /** 0044: the interface login where the clientid is too long for one (CMPP's Source_Addr: 6 octets); null: the clientid */
  interface_login: ColumnType<string | null, string | null | undefined, string | null>;
  /** 0044: the interface password sealed with AES-256-GCM (lib/interface-secret.ts), for CMPP's MD5 authentication; '' = none yet */
  interface_secret: D<string>;
  /** 0045: the customer's SGIP listener the SGIP door binds back to ('' host: none) and the login it checks */
  sgip_callback_host: D<string>;
  sgip_callback_port: D<number>;
  sgip_callback_user: D<string>;
  sgip_callback_password: D<string>;
}

export interface SessionTable {
  /** sha256 hex of the cookie token */
  id: string;
  account_id: number;
  created_at: CreatedAt;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  ip: D<string>;
  user_agent: D<string>;
}

export interface RememberTokenTable {
  /** sha256 hex of the cookie token */
  id: string;
  account_id: number;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: D<Date | null>;
  /** the id of the first token of its login: every rotation keeps it */
  family: D<string>;
  /** set when the token was exchanged for its successor (using it again is a replay) */
  used_at: D<Date | null>;
}

export interface LoginFailureTable {
  /** sha256 hex of the login name as typed (trimmed, lower case) */
  name_hash: string;
  /** the client address the failures came from */
  ip: string;
  failures: D<number>;
  locked_until: D<Date | null>;
  last_failed_at: Timestamp;
}

export interface VerificationCodeTable {
  id: Generated<number>;
  /** register, reset, mobile */
  purpose: string;
  /** 'sms:86:13800000000' or 'mail:name@example.com' */
  target: string;
  /** sha256 hex of `${id-less salt}:${code}` */
  code_hash: string;
  salt: string;
  expires_at: Timestamp;
  used_at: D<Date | null>;
  attempts: D<number>;
  ip: D<string>;
  created_at: Timestamp;
}

export interface CaptchaChallengeTable {
  id: Generated<number>;
  /** slider (challenge), slider-token (passed check), image */
  kind: string;
  /** sha256 hex of the public id (challenge id, token or cid cookie) */
  key_hash: string;
  /** slider-token: key_hash of its challenge; image: sha256 hex of the answer */
  ref: D<string>;
  expires_at: Timestamp;
  used_at: D<Date | null>;
  created_at: Timestamp;
}

export interface BrandingTable {
  id: Generated<number>;
  /** null: the default; else a host ('sms.example.com') or a wildcard ('*.example.com') */
  host_pattern: string | null;
  copyright_text: string;
  company_logo_url: D<string>;
  company_name: D<string>;
  icp_text: D<string>;
  demo_file_path: D<string>;
  system_info_show: ColumnType<Record<string, number>, string | undefined, string>;
}

export interface SupportContactTable {
  id: Generated<number>;
  branding_id: D<number | null>;
  name: string;
  qq: string;
  mobile: string;
  email: string;
  sort: D<number>;
}

export interface NoticeTable {
  id: Generated<number>;
  notice_name: string;
  /** sanitized HTML (sanitize-html when stored) */
  notice_content: D<string>;
  /** 1: shown first */
  is_top: D<number>;
  release_time: ColumnType<Date, Date | string | undefined, Date | string>;
  create_time: CreatedAt;
}

/** 资质认证 submissions (server/db/migrations/0002_certification.ts) */
export interface CertificationTable {
  id: Generated<number>;
  account_id: number;
  /** 1 personal, 2 enterprise */
  cert_type: number;
  /** schemas/enums/id-type.json (certification: 6, 7, 3, 1) */
  id_type: number;
  company: string;
  id_nbr: string;
  /** 1-5 file paths (under DATA_DIR/files) joined by | */
  img_url: string;
  /** 2 pending, 3 certified, 4 rejected */
  state: D<number>;
  /** rejection reason */
  remark: D<string>;
  submitted_at: Timestamp;
  reviewed_at: D<Date | null>;
  /** 0046_operators: the operator who took the review ('' = the CLI or AUTO_REVIEW) */
  reviewed_by: D<string>;
}

export interface Database {
  accounts: AccountTable;
  sessions: SessionTable;
  remember_tokens: RememberTokenTable;
  login_failures: LoginFailureTable;
  verification_codes: VerificationCodeTable;
  captcha_challenges: CaptchaChallengeTable;
  branding: BrandingTable;
  support_contacts: SupportContactTable;
  notices: NoticeTable;
  signs: SignTable;
  sign_import_results: SignImportResultTable;
  certifications: CertificationTable;
  templates: TemplateTable;
  ledger: LedgerTable;
  ledger_requests: LedgerRequestTable;
  login_as_tokens: LoginAsTokenTable;
  product_pools: ProductPoolTable;
  pool_movements: PoolMovementTable;
  sms_tasks: SmsTaskTable;
  sms_messages: SmsMessageTable;
  sms_receipts: SmsReceiptTable;
  dispatch_queue: DispatchQueueTable;
  dispatch_leases: DispatchLeaseTable;
  sms_requeue: SmsRequeueTable;
  sms_inflight: SmsInflightTable;
  // 0030_message_parts
  sms_message_parts: SmsMessagePartTable;
  // 0031_dispatch_written
  dispatch_channels: DispatchChannelTable;
  dispatch_channel_stats: DispatchChannelStatTable;
  // 0023_task_chunks
  sms_task_chunks: SmsTaskChunkTable;
  sms_chunk_staging: SmsChunkStagingTable;
  sms_mo: SmsMoTable;
  // 0036_blacklist
  blacklist: BlacklistTable;
  push_outbox: PushOutboxTable;
  smpp_receipts: SmppReceiptTable;
  // 0032_smpp_server_shared
  smpp_mo: SmppMoTable;
  smpp_sessions: SmppSessionTable;
  // 0040_smpp_parts, 0048_smpp_parts_whole
  smpp_parts: SmppPartTable;
  // 0043_interface_part_ids
  interface_part_ids: InterfacePartIdsTable;
  // 0045_sgip_callback
  sgip_bindback_owners: SgipBindbackOwnerTable;
  // 0046_operators (server/modules/operator)
  operators: OperatorTable;
  operator_sessions: OperatorSessionTable;
  audit_log: AuditLogTable;
  sensitive_words: SensitiveWordTable;
  // 0047_metric_minutes
  metric_minutes: MetricMinuteTable;
  export_files: ExportFileTable;
  // 0010_send
  send_submit_locks: SendSubmitLockTable;
  // 0012_purchase
  products: ProductTable;
  rebate_ledger: RebateLedgerTable;
  purchase_orders: PurchaseOrderTable;
  sms_orders: SmsOrderTable;
  // 0013_pay
  pay_orders: PayOrderTable;
  pay_notifications: PayNotificationTable;
  // 0014_bills
  credit_alarms: CreditAlarmTable;
  credit_alarm_events: CreditAlarmEventTable;
  // 0015_invoices
  invoices: InvoiceTable;
  invoice_configs: InvoiceConfigTable;
  // 0016_files
  file_uploads: FileUploadTable;
  // 0017_varintl
  intl_prices: IntlPriceTable;
  // 0018_reports
  report_daily: ReportDailyTable;
  // 0041_report_deltas: what the triggers appended since the last fold; report_rows = both (read with sums)
  report_delta: ReportDailyTable;
  report_rows: ReportDailyTable;
  // 0029_api_secret (server/modules/openapi)
  api_nonces: ApiNonceTable;
  api_idempotency: ApiIdempotencyTable;
  api_throttle: ApiThrottleTable;
  api_pull: ApiPullTable;
  // 0034_test_accounts (server/modules/subaccount/test-accounts.ts)
  test_accounts: TestAccountTable;
}

/** 0034: a test account an agent created, and the platform's gift to it */
export interface TestAccountTable {
  account_id: number;
  agent_id: number;
  gift_pool_id: number | null;
  gift_pieces: D<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  converted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** 0029: a signed request's nonce, refused again until expires_at */
export interface ApiNonceTable {
  account_id: number;
  nonce: string;
  expires_at: Timestamp;
}

/** 0029: the answer of an API send per idempotency key */
export interface ApiIdempotencyTable {
  account_id: number;
  idem_key: string;
  /** sha256 hex of the request body: the same key with another body is refused */
  request_hash: string;
  task_uid: string;
  answer: ColumnType<JsonValue, string, string>;
  created_at: Timestamp;
}

/** 0029: the token bucket of an account's access_speed */
export interface ApiThrottleTable {
  account_id: number;
  tokens: number;
  updated_at: Timestamp;
}

/** 0029: a report (kind 1, ref_id = sms_messages.id) or an uplink (kind 2, ref_id = sms_mo.id) to pull */
export interface ApiPullTable {
  id: Generated<number>;
  account_id: number;
  kind: number;
  ref_id: number;
  created_at: CreatedAt;
  handed_at: D<Date | null>;
  batch: D<string | null>;
}

/** pre-aggregated daily send counts (server/db/migrations/0018_reports.ts), kept by triggers */
export interface ReportDailyTable {
  account_id: number;
  /** business day (Asia/Shanghai) of the messages' acceptance: a DATE, read as 'YYYY-MM-DD' (db/index.ts) */
  day: string;
  smstype: number;
  /** 0 prepaid, 1 postpaid (paid by the agent) */
  paytype: number;
  /** 0 normal, 1 international */
  inter: number;
  agent_id: number;
  send_num: number;
  charge_total: number;
  success_num: number;
  unknown_num: number;
  fail_num: number;
  wait_num: number;
  intercept_num: number;
}

/** 短信签名 (server/db/migrations/0003_signs.ts) */
export interface SignTable {
  id: Generated<number>;
  /** the account the sign belongs to (sub-account, or an agent's own account) */
  account_id: number;
  clientid: string;
  sign: string;
  remarks: D<string>;
  /** 0 pending, 1 approved, 2 rejected, 4 deleted */
  state: D<number>;
  /** rejection reason */
  cause: D<string>;
  creator_id: D<number | null>;
  creator_name: D<string>;
  create_time: ColumnType<Date, Date | string | undefined, Date | string>;
  update_time: ColumnType<Date, Date | string | undefined, Date | string>;
  /** 0046_operators: the operator who took the review ('' = the CLI or AUTO_REVIEW) */
  reviewed_by: D<string>;
}

/** failed rows of an account's last sign import */
export interface SignImportResultTable {
  account_id: number;
  /** the file had the 子账户 column (agent template) */
  agent_template: D<boolean>;
  failed_rows: ColumnType<SignImportFailure[], string | undefined, string>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

// a type, not an interface: JSON (types-check.ts reads it as a narrower JsonValue)
export type SignImportFailure = {
  row: number;
  clientid: string;
  sign: string;
  remarks: string;
  reason: string;
};

export type Account = Selectable<AccountTable>;
export type NewAccount = Insertable<AccountTable>;
export type AccountUpdate = Updateable<AccountTable>;

/** 短信模板 (server/modules/template): owner_id null = a general template of the platform */
export interface TemplateTable {
  id: Generated<number>;
  owner_id: number | null;
  /** 10 industry, 11 marketing */
  sms_type: number;
  /** 0 fixed, 1 variable */
  template_type: number;
  /** 0 domestic, 1 international */
  business: D<number>;
  /** SMS type of sends with it: 0 通知, 4 验证码, 5 营销 */
  smstype: D<number | null>;
  sign: D<string>;
  content: string;
  variable_count: D<number>;
  /** 0 pending review, 1 approved, 3 rejected */
  state: D<number>;
  /** reason of a rejection */
  remark: D<string>;
  creator_id: D<number | null>;
  order_no: D<number>;
  create_time: CreatedAt;
  update_time: ColumnType<Date, Date | string | undefined, Date | string>;
  /** 0046_operators: the operator who took the review ('' = the CLI or AUTO_REVIEW) */
  reviewed_by: D<string>;
}

/** 0006_subaccounts_ledger: one row per balance change; sum(amount) of an account == its balance */
export interface LedgerTable {
  id: Generated<number>;
  account_id: number;
  /** signed decimal string */
  amount: Money;
  balance_after: Money;
  /** enums/bill-payment-type.json: 0 充值, 12 子账户充值, 13 子账户回退, 9/10 额度 ... */
  kind: number;
  counterpart_id: D<number | null>;
  operator_id: D<number | null>;
  remark: D<string>;
  request_id: D<string | null>;
  created_at: CreatedAt;
}

export interface LedgerRequestTable {
  agent_id: number;
  request_id: string;
  op: string;
  account_id: number;
  amount: Money;
  result: ColumnType<JsonValue, string, string>;
  created_at: CreatedAt;
}

export interface LoginAsTokenTable {
  /** sha256 hex of the one-time token */
  id: string;
  account_id: number;
  /** the agent that issued it for its sub-account; null when an operator did (0049: exactly one of the two) */
  agent_id: D<number | null>;
  /** the operator that issued it for any active account (0049, audited as account.login-as) */
  operator_id: D<number | null>;
  expires_at: Timestamp;
  used_at: D<Date | null>;
  created_at: CreatedAt;
}

type NullableTs = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** 产品池 (0008_sending): pieces bought per account, product type, carrier and expiry */
export interface ProductPoolTable {
  id: Generated<number>;
  account_id: number;
  /** enums/product-type.json */
  product_type: number;
  /** enums/carrier.json: 0 全网 (any carrier), 1 移动, 2 联通, 3 电信, 4 国际 */
  operator_code: D<number>;
  area_name: D<string>;
  product_name: D<string>;
  unit_price: ColumnType<string, string | number | undefined, string | number>;
  total: number;
  remaining: number;
  due_time: Timestamp;
  /** 1: a gift pool (smsGivePoolData) */
  gift: D<number>;
  order_id: D<string>;
  created_at: CreatedAt;
}

/** one change of a pool's remaining pieces; sum(pieces) per pool = remaining */
export interface PoolMovementTable {
  id: Generated<number>;
  pool_id: number;
  task_id: D<number | null>;
  /** negative: charged; positive: bought, gifted or returned */
  pieces: number;
  remaining_after: number;
  /** enums/bill-payment-type.json (1 扣款, 3 购买套餐, 5 赠送, 7 回退条数) */
  kind: number;
  remark: D<string>;
  created_at: CreatedAt;
  /** 0010_send: carrier of the messages charged / returned (0: not about messages) */
  carrier: D<number>;
}

/** 0010_send: the last accepted submit of a sending account (the 3 s submit lock) */
export interface SendSubmitLockTable {
  account_id: number;
  last_at: Timestamp;
}

/** 发送任务 */
export interface SmsTaskTable {
  id: Generated<number>;
  /** the task number shown to users */
  uid: string;
  /** the sending account (sub-account or direct customer; an agent sending as itself) */
  account_id: number;
  agent_id: D<number | null>;
  creator_id: number;
  creator_name: D<string>;
  /** whose balance / pools pay (the agent for postpaid sub-accounts) */
  payer_id: number;
  /** 0 by amount (operation_mode 0), 1 by pieces from pools (operation_mode 1) */
  charge_mode: number;
  /** the text sent: 【sign】 + content */
  content: string;
  sign: D<string>;
  /** enums/sms-type.json */
  smstype: number;
  template_id: D<number | null>;
  template_type: D<number>;
  /** 0 manual numbers, 1 imported file */
  file_type: D<number>;
  file_name: D<string>;
  import_file_path: D<string>;
  submit_total: D<number>;
  err_num: D<number>;
  repeat_num: D<number>;
  pieces_per_msg: D<number>;
  /** pieces charged (all messages) */
  charge_num_total: D<number>;
  /** money charged (mode 0), 2 decimals */
  amount: ColumnType<string, string | number | undefined, string | number>;
  /** exact price sum of all messages (mode 0) */
  cost: ColumnType<string, string | number | undefined, string | number>;
  /** exact price sum of the messages that ended refundable */
  refundable_cost: ColumnType<string, string | number | undefined, string | number>;
  refunded_amount: ColumnType<string, string | number | undefined, string | number>;
  /** 0042: null, charged the console's way; else charged through the payer's carry: the exact refundable cost already returned through it */
  carry_settled: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  refundable_pieces: D<number>;
  /** 0024: refundable_pieces per carrier, element carrier + 1 (0 unknown … 4 international) */
  refundable_pieces_by_carrier: D<number[]>;
  refunded_pieces: D<number>;
  /** enums/task-status.json */
  status: D<number>;
  /** enums/send-time-type.json */
  send_type: D<number>;
  send_time: Timestamp;
  submitted_num: D<number>;
  success_num: D<number>;
  fail_num: D<number>;
  unknown_num: D<number>;
  intercept_num: D<number>;
  audit_num: D<number>;
  /** 0036_blacklist: numbers of a marketing send skipped as blacklisted (not sent, not charged) */
  blacklist_num: D<number>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_at: NullableTs;
  /** 0010_send: 1 charged, 0 deferred (charged when the timed task fires), 2 billing failed */
  charge_state: D<number>;
  /** 0017_varintl: 0 ordinary, 1 variable, 2 international */
  send_kind: D<number>;
  /** 0029_api_secret: the extension an interface send asked for ('' none) */
  extension: D<string>;
  /** 0032: the receipt an SMPP submit asked for: 0 none, 1 every final state (default), 2 failures only */
  registered_delivery: D<number>;
}

/** one message: the send record (its dispatch state: dispatch_queue, dispatch_leases, sms_requeue, sms_inflight) */
export interface SmsMessageTable {
  id: Generated<number>;
  task_id: number;
  account_id: number;
  phone: string;
  carrier: D<number>;
  province_id: D<number>;
  city_id: D<number>;
  pieces: D<number>;
  price: ColumnType<string, string | number | undefined, string | number>;
  /** enums/send-record-status.json */
  state: D<number>;
  error_code: D<string>;
  /** the receipt's stat text (DELIVRD, UNDELIV ...) */
  report: D<string>;
  /** the SMSC's message id (submit_sm_resp) */
  msg_id: D<string | null>;
  attempts: D<number>;
  created_at: CreatedAt;
  submitted_at: NullableTs;
  done_at: NullableTs;
  /** 0017_varintl: the message's own text (variable SMS); null = the task's content */
  content: D<string | null>;
  /** 0031: the channel it was submitted on ('' = the default link) */
  channel: D<string>;
}

/** 0019: a task's messages to hand out, in id order */
export interface DispatchQueueTable {
  task_id: number;
  /** the last message id handed out */
  next_id: D<number>;
  /** false once every message of the task has been handed out */
  queued: D<boolean>;
  ready_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** 0019: a claimed batch, until its outcomes are recorded */
export interface DispatchLeaseTable {
  id: Generated<string>;
  owner: string;
  lease_until: Timestamp;
  message_ids: number[];
  /** 0031: the ids its worker may have written to the SMSC (marked before the write); null: a lease without marks, all count as written */
  written: D<number[] | null>;
}

/** 0031: a carrier channel managed by the operator CLI (`channel add`), beside SMPP_CHANNELS */
export interface DispatchChannelTable {
  name: string;
  /** smpp://… with the link options (smsc/config.ts) */
  url: string;
  /** enums/carrier codes it serves ([] = every domestic carrier) */
  carriers: D<number[]>;
  international: D<boolean>;
  /** enums/sms-type codes it serves ([] = every type) */
  sms_types: D<number[]>;
  priority: D<number>;
  weight: D<number>;
  /** messages/s (0 = no limit) */
  max_per_second: D<number>;
  enabled: D<boolean>;
  updated_at: D<Date>;
}

/** 0031: one worker process's counters of one channel (written periodically) */
export interface DispatchChannelStatTable {
  channel: string;
  worker: string;
  submitted: D<string>;
  accepted: D<string>;
  refused: D<string>;
  retried: D<string>;
  unconfirmed: D<string>;
  receipts: D<string>;
  latency_ms_sum: D<number>;
  latency_count: D<string>;
  bound: D<boolean>;
  updated_at: D<Date>;
}

/** 0019: messages to submit again from next_at */
export interface SmsRequeueTable {
  message_id: number;
  task_id: number;
  next_at: Timestamp;
}

/** 0023: up to 10,000 numbers of a large task not yet written to sms_messages (send/chunks.ts) */
export interface SmsTaskChunkTable {
  task_id: number;
  /** expanded in this order, one at a time per task */
  seq: number;
  rows: number;
  /** gzip of the chunk's JSON */
  payload: Buffer;
  created_at: D<Date>;
  /** not taken before (a failed expansion waits); null: at once */
  next_at: D<Date | null>;
  /** failed expansions so far, the last one's error */
  attempts: D<number>;
  error: D<string>;
  /** 0028: not expanded by the dispatch workers (messages not to be dispatched: intercepted, awaiting review), only by a reader */
  hold: D<boolean>;
  /** 0028: the state (and final time) its rows are written with */
  state: D<number>;
  done_at: D<Date | null>;
  /** 0028: the report key and figures of a held chunk (its messages are counted before they are rows) */
  account_id: D<number>;
  inter: D<number>;
  pieces_total: D<number>;
}

/** 0019: a submitted message awaiting its receipt, by the SMSC's message id */
export interface SmsInflightTable {
  msg_id: string;
  message_id: number;
  task_id: number;
  submitted_at: Timestamp;
  /** the record says 1 提交成功 already (else it still says 0 until marked or its receipt comes) */
  marked: D<boolean>;
  /** 0030: 0 = the message went as one submit; else the part (1..n) of a multi-part message */
  part: D<number>;
}

/** 0030: a part of a multi-part message in flight (its state null until its receipt) */
export interface SmsMessagePartTable {
  message_id: number;
  part: number;
  parts: number;
  msg_id: string;
  state: number | null;
  error_code: D<string>;
  report: D<string>;
  done_at: Timestamp | null;
  submitted_at: Timestamp;
}

export interface SmsReceiptTable {
  msg_id: string;
  state: number;
  error_code: D<string>;
  report: D<string>;
  done_at: Timestamp;
  received_at: CreatedAt;
  /** 0031: the receipt's source_addr (the message's destination) and the channel it came on */
  phone: D<string>;
  channel: D<string>;
}

/** 上行 (MO) */
/** 0036_blacklist: an account's (account_id) or the platform's (null) blacklisted number */
export interface BlacklistTable {
  id: Generated<number>;
  account_id: number | null;
  phone: string;
  /** enums/blacklist-source.json */
  source: number;
  remark: D<string>;
  /** who added it (a clientid, 'cli', or '' for an uplink) */
  created_by: D<string>;
  created_at: CreatedAt;
}

export interface SmsMoTable {
  id: Generated<number>;
  account_id: number;
  phone: string;
  content: string;
  dest: D<string>;
  smsc_ref: D<string | null>;
  received_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** 0027_interface_password: receipts waiting for the account's SMPP receiver session (docs/api-smpp.md) */
/** 0032: uplinks waiting for the account's SMPP receiver session */
export interface SmppMoTable {
  id: Generated<number>;
  account_id: number;
  /** sms_mo.id */
  mo_id: number;
  phone: string;
  dest: D<string>;
  content: D<string>;
  received_at: Date;
  created_at: Date;
  lease_until: D<Date | null>;
  attempts: D<number>;
}

/** 0032: bound SMPP sessions of every listener process (nodenum across processes) */
export interface SmppSessionTable {
  id: string;
  account_id: number;
  process: string;
  peer: D<string>;
  bound_at: Date;
  heartbeat_at: Date;
}

/** 0040: the parts of long SMPP messages being reassembled (seq 0: the head row) */
export interface SmppPartTable {
  account_id: number;
  /** source_addr|destination_addr|reference|total */
  msg_key: string;
  seq: number;
  total: number;
  text: D<string>;
  phone: D<string>;
  source_addr: D<string>;
  extension: D<string>;
  registered_delivery: D<number>;
  created_at: Date;
  /** 0043: the id this part was answered with, as its door wrote it (null: the head) */
  part_id: D<string | null>;
  /** 0048: the part ids name every submit of the message, its last too (SGIP): accepted with partIdsWhole */
  whole: D<boolean>;
}

export interface SmppReceiptTable {
  id: Generated<number>;
  account_id: number;
  /** sms_messages.id: the message id submit_sm_resp gave */
  message_id: number;
  phone: string;
  /** appendix-B stat: DELIVRD, UNDELIV, REJECTD, ... */
  stat: string;
  err: D<string>;
  text: D<string>;
  submit_at: Date;
  done_at: Date;
  created_at: Date;
  lease_until: D<Date | null>;
  attempts: D<number>;
  /** 0043: the id this receipt names, a part's id as its door wrote it ('': the message's own, message_id) */
  part_id: D<string>;
}

/** 0043: the ids the parts of an accepted long message were answered with (their receipts are queued too) */
export interface InterfacePartIdsTable {
  message_id: number;
  part_ids: string[];
  created_at: Date;
  /** 0045: the ids name every submit of the message, its last too (SGIP): no receipt for the message's own id */
  whole: D<boolean>;
}

/** 0045: the door process delivering an account's queue by SGIP bind-back now */
export interface SgipBindbackOwnerTable {
  account_id: number;
  process: string;
  lease_until: Date;
}

/** 0047: the per-minute series of the operators' 监控 screen (server/modules/metrics/monitor.ts) */
export interface MetricMinuteTable {
  /** the database's clock, truncated to the minute */
  minute: Date;
  /** accepted, delivered, failed (report_fold), submitted, channel_* / carrier_* outcomes, refused (flows); waiting, unconfirmed, sessions (gauges) */
  name: string;
  /** the channel, carrier, protocol or refusal ('' for a total) */
  label: D<string>;
  /** '' for flows and the database's gauges; a process's id for its own gauges (door sessions) */
  source: D<string>;
  value: D<number>;
}

export interface PushOutboxTable {
  id: Generated<number>;
  account_id: number;
  /** 1 delivery report (deliveryurl), 2 uplink (mourl), 3 template review (auto_template_callback_url) */
  kind: number;
  url: string;
  payload: ColumnType<JsonValue, string, string>;
  attempts: D<number>;
  next_at: ColumnType<Date, Date | string | undefined, Date | string>;
  done_at: NullableTs;
  last_error: D<string>;
  created_at: CreatedAt;
}

export interface ExportFileTable {
  id: string;
  account_id: number;
  file_name: string;
  path: string;
  rows: D<number>;
  created_at: CreatedAt;
}

/** 0012_purchase: the product catalogue (operation_mode 1) */
export interface ProductTable {
  id: Generated<number>;
  product_code: string;
  product_name: string;
  /** enums/product-type.json */
  product_type: number;
  /** enums/carrier.json (0 全网) */
  operator_code: D<number>;
  area_name: D<string>;
  unit_price: Money;
  /** validity of the pieces bought, in days from the purchase */
  valid_days: number;
  /** pieces (yuan: international) of one package; a purchase is a multiple of it. NULL: any count (0038) */
  pack_size: D<number | null>;
  creator: D<string>;
  /** 1 on sale, 0 withdrawn */
  state: D<number>;
  sort: D<number>;
  created_at: CreatedAt;
}

/** one change of accounts.rebate_useable; sum(amount) per account = rebate_useable */
export interface RebateLedgerTable {
  id: Generated<number>;
  account_id: number;
  amount: Money;
  balance_after: Money;
  /** enums/rebate-type.json: 0 income, 1 deduction */
  kind: number;
  order_id: D<string>;
  remark: D<string>;
  created_at: CreatedAt;
}

/** one purchase submit */
export interface PurchaseOrderTable {
  order_id: string;
  account_id: number;
  request_id: D<string | null>;
  total: Money;
  rebate: Money;
  paid: Money;
  ledger_id: D<number | null>;
  rebate_ledger_id: D<number | null>;
  result: ColumnType<JsonValue, string, string>;
  created_at: CreatedAt;
}

/** the SMS bill: one row per product line of an order */
export interface SmsOrderTable {
  id: Generated<number>;
  order_id: string;
  account_id: number;
  /** enums/sms-bill-order-type.json */
  order_type: D<number>;
  product_id: D<number | null>;
  product_code: D<string>;
  product_name: D<string>;
  product_type: number;
  operator_code: D<number>;
  area_name: D<string>;
  unit_price: Money;
  discount: Money;
  num: number;
  order_amount: Money;
  pool_id: D<number | null>;
  due_time: NullableTs;
  created_at: CreatedAt;
}
/** 0013_pay: 支付订单 (docs/api-pay.md) */
export interface PayOrderTable {
  id: Generated<number>;
  payment_id: string;
  account_id: number;
  amount: Money;
  /** enums/payment-mode.json */
  payment_mode: number;
  /** 'sandbox' | 'alipay' | 'wechat' */
  provider: string;
  /** 0025: paid through the sandbox (no money): shown 沙箱, never invoiceable */
  sandbox: D<boolean>;
  /** enums/pay-order-state.json */
  state: D<number>;
  trade_no: D<string>;
  qr_code: D<string>;
  remark: D<string>;
  ledger_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  expires_at: Timestamp;
  paid_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  closed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** 0013_pay: every payment notification received */
export interface PayNotificationTable {
  id: Generated<number>;
  provider: string;
  payment_id: D<string>;
  verified: boolean;
  credited: D<boolean>;
  reason: D<string>;
  payload: D<string>;
  created_at: Timestamp;
}
/** 0014_bills: an agent's 额度提醒 (server/modules/bills) */
export interface CreditAlarmTable {
  account_id: number;
  /** yuan, whole; 0 = no reminder */
  alarm_amount: Money;
  /** comma-separated mobiles */
  alarm_phones: D<string>;
  /** the balance is at or above the amount: the next fall below sends */
  armed: D<boolean>;
  last_alarm_at: NullableTs;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** 0014_bills: one fall below an alarm amount (written by the trigger accounts_credit_alarm) */
export interface CreditAlarmEventTable {
  id: Generated<number>;
  account_id: number;
  balance: Money;
  alarm_amount: Money;
  phones: string;
  created_at: CreatedAt;
  /** the system SMS task that carried it (null until the alarm job ran) */
  task_id: D<number | null>;
  sent_at: NullableTs;
  /** 0025: SMS the alarm job sent for it (the daily budget counts these) */
  sms_count: D<number>;
  /** 0025: why none was sent: 'cooldown' | 'budget' | 'no-phone' ('' when sent or pending) */
  skipped: D<string>;
}
/** The invoice information of an application or of an account's saved defaults (0015_invoices). */
export interface InvoiceInfoColumns {
  /** 1 personal, 2 enterprise (enums/invoice-body.json) */
  invoice_body: number;
  invoice_head: string;
  credit_code: D<string>;
  email: D<string>;
  to_phone: D<string>;
  company_reg_addr: D<string>;
  bank: D<string>;
  bank_account: D<string>;
  telphone: D<string>;
  to_name: D<string>;
  /** 省/市/区 names, from /static/scripts/city.json */
  to_addr: D<string>;
  to_addr_detail: D<string>;
}

/** 发票申请 (server/db/migrations/0015_invoices.ts) */
export interface InvoiceTable extends InvoiceInfoColumns {
  id: Generated<number>;
  /** the application number shown as invoiceId */
  invoice_no: string;
  account_id: number;
  applicant_id: number;
  /** 1 ordinary electronic, 2 VAT special electronic */
  invoice_type: number;
  invoice_amount: Money;
  invoice_project: string;
  remark: D<string>;
  /** 0 pending, 1 cancelled, 2 rejected, 3 issuing, 4 mailed, 5 returned */
  status: D<number>;
  audit_fail_cause: D<string>;
  express_company: D<string>;
  express_order: D<string>;
  create_time: Timestamp;
  update_time: Timestamp;
  /** 0046_operators: the operator who took the review ('' = the CLI or AUTO_REVIEW) */
  reviewed_by: D<string>;
}

/** An account's saved invoice information per invoice type */
export interface InvoiceConfigTable extends InvoiceInfoColumns {
  account_id: number;
  invoice_type: number;
  update_time: Timestamp;
}
/** 大文件分片上传 (server/db/migrations/0016_files.ts, server/modules/files) */
export interface FileUploadTable {
  id: Generated<number>;
  /** the owner: only this account may read, merge or delete it */
  account_id: number;
  file_md5: string;
  file_size: number;
  file_name: string;
  chunk_size: number;
  chunk_count: number;
  /** 0 uploading, 1 merging, 2 done (merged, verified, in place) */
  state: D<number>;
  /** the importFilePath token once done */
  stored_name: D<string | null>;
  merge_started_at: D<Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** 0017_varintl: the international price table (GET /sms/gj/prices) */
export interface IntlPriceTable {
  id: Generated<number>;
  /** ISO 3166 alpha-2 */
  country_code: string;
  /** the dial code without + */
  dial_code: string;
  name_en: string;
  name_zh: string;
  /** yuan per piece */
  fee: ColumnType<string, string | number, string | number>;
  sort: D<number>;
}

/** 0028: chunks of a large accept compressed and written before its transaction, moved into sms_task_chunks by it */
export interface SmsChunkStagingTable {
  token: string;
  seq: number;
  rows: number;
  pieces_total: number;
  payload: Buffer;
  created_at: D<Date>;
}

/** 0046_operators: the platform's staff (server/modules/operator, docs/api-operator.md) */
export interface OperatorTable {
  id: Generated<number>;
  /** the login on /login (no account's clientid) */
  name: string;
  /** argon2id(sha256hex(password)), as the accounts' */
  password_hash: string;
  /** schemas/enums/operator-role.json: 1 审核员, 2 运营, 3 管理员 */
  role: number;
  /** 1 active, 2 disabled */
  status: D<number>;
  /** base32 TOTP secret ('' = none) */
  totp_secret: D<string>;
  totp_enabled: D<boolean>;
  /** the last TOTP time step accepted (a code is good once) */
  totp_last_step: D<number>;
  created_by: D<number | null>;
  created_at: Timestamp;
  last_login_at: D<Date | null>;
}

export interface OperatorSessionTable {
  /** sha256hex of the `sid` cookie */
  id: string;
  operator_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  ip: D<string>;
  user_agent: D<string>;
}

/** every operator action, written in the action's transaction */
export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  operator_id: number | null;
  operator_name: string;
  /** schemas/enums/audit-action.json ('sign.approve', …) */
  action: string;
  /** the table of the row acted on ('signs', 'accounts', …) */
  target: string;
  target_id: D<string>;
  account_id: D<number | null>;
  before: ColumnType<JsonValue | null, string | null | undefined, string | null>;
  after: ColumnType<JsonValue | null, string | null | undefined, string | null>;
  remark: D<string>;
}

/** 0046: the sensitive words added in the console (beside the list file) */
export interface SensitiveWordTable {
  id: Generated<number>;
  word: string;
  /** the operator who added it */
  created_by: D<string>;
  created_at: Timestamp;
}

export type Operator = Selectable<OperatorTable>;
