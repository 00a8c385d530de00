/**
 * The database as Kysely sees it: the types kysely-codegen reads from the migrated schema
 * (generated.ts, `npx tsx scripts/db-types.ts` after a migration; tests/server/db-types.test.ts
 * fails until then), with a few columns read narrower than the schema can say (`Narrowed`).
 * Column types follow what both drivers (pg and PGlite) return: NUMERIC as decimal strings,
 * timestamptz as Date, integer as number, jsonb as parsed JSON. No bigint columns: the two drivers
 * disagree on how they return them. What a column means is said in its migration.
 */
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';
import type {
  AccountStatus,
  AuditAction,
  AuthStatus,
  BlacklistSource,
  Carrier,
  CertType,
  InvoiceStatus,
  InvoiceType,
  NumberInputMode,
  OauthStatus,
  OpenApiSendAnswer,
  OperationMode,
  OperatorRole,
  OperatorStatus,
  PaymentMode,
  PayOrderState,
  ProductType,
  SendRecordStatus,
  SignState,
  SmsType,
  TaskStatus,
  TemplateAuditState,
  TemplateBusiness,
  TemplateCategory,
  TemplateType,
  UserType,
  YesNo,
} from '../../common/generated/schemas';
import type { TransferResult } from '../modules/ledger';
import type { PurchaseResult } from '../modules/purchase';
import type { DB, Numeric } from './generated';

/** NUMERIC: exact decimal, read as a string, written as a string or number */
export type Money = Numeric;

// a type, not an interface: JSON
export type SignImportFailure = {
  row: number;
  clientid: string;
  sign: string;
  remarks: string;
  reason: string;
};

/** every column of a view read as NOT NULL (codegen reads every view column as nullable) */
type NotNull<T> = {
  [C in keyof T]: T[C] extends ColumnType<infer S, infer I, infer U>
    ? ColumnType<NonNullable<S>, I, U>
    : NonNullable<T[C]>;
};

/**
 * A column read as `T` (an enum's union of the generated schema types, a JSON column's shape; with
 * `| null` if the column is nullable), written as the schema says. Types only: the drivers return
 * what they return, the writers keep the values in `T`.
 */
type ReadAs<C, T> = [C] extends [ColumnType<unknown, infer I, infer U>] ? ColumnType<T, I, U> : ColumnType<T, C, C>;

/** `ReadAs` over a table's columns: `{ column: T }` */
type Read<Table, Columns extends { [C in keyof Table]?: unknown }> = {
  [C in keyof Columns]: C extends keyof Table ? ReadAs<Table[C], Columns[C]> : never;
};

/**
 * Columns read as a narrower type than the schema says, on purpose: an integer (or text) column
 * holding an enum as that enum's union, a JSON column's shape, a generated column never written, a
 * view whose columns cannot be null.
 */
interface Narrowed {
  accounts: Read<
    DB['accounts'],
    { user_type: UserType; operation_mode: OperationMode; oauth_status: OauthStatus; status: AccountStatus }
  > & {
    /** 0015: generated from the account's names, e-mail and mobile (the 客户 search); never written */
    search_text: ColumnType<string, never, never>;
  };
  api_idempotency: Read<DB['api_idempotency'], { answer: Omit<OpenApiSendAnswer, 'replayed'> }>;
  /** written by audit() from objects only */
  audit_log: Read<
    DB['audit_log'],
    { action: AuditAction; before: Record<string, unknown> | null; after: Record<string, unknown> | null }
  >;
  blacklist: Read<DB['blacklist'], { source: BlacklistSource }>;
  dispatch_channels: Read<DB['dispatch_channels'], { carriers: Carrier[]; sms_types: SmsType[] }>;
  certifications: Read<DB['certifications'], { user_type: UserType; cert_type: CertType; state: AuthStatus }>;
  invoices: Read<DB['invoices'], { invoice_type: InvoiceType; status: InvoiceStatus }>;
  ledger_requests: Read<DB['ledger_requests'], { result: TransferResult }>;
  notices: Read<DB['notices'], { is_top: YesNo }>;
  operators: Read<DB['operators'], { role: OperatorRole; status: OperatorStatus }>;
  pay_orders: Read<DB['pay_orders'], { payment_mode: PaymentMode; state: PayOrderState }>;
  product_pools: Read<DB['product_pools'], { product_type: ProductType }>;
  purchase_orders: Read<DB['purchase_orders'], { result: PurchaseResult }>;
  signs: Read<DB['signs'], { state: SignState }>;
  sms_messages: Read<DB['sms_messages'], { carrier: Carrier; state: SendRecordStatus }>;
  sms_tasks: Read<
    DB['sms_tasks'],
    { smstype: SmsType; template_type: TemplateType; file_type: NumberInputMode; status: TaskStatus }
  >;
  templates: Read<
    DB['templates'],
    {
      sms_type: TemplateCategory;
      template_type: TemplateType;
      business: TemplateBusiness;
      state: TemplateAuditState;
      smstype: SmsType | null;
    }
  >;
  branding: {
    /** which parts of the system information the login page shows: `{ key: 0 | 1 }` */
    system_info_show: ColumnType<Record<string, number>, string | undefined, string>;
  };
  sign_import_results: {
    failed_rows: ColumnType<SignImportFailure[], string | undefined, string>;
  };
  /** 0041: report_daily and the deltas not folded yet, summed (NOT NULL columns both) */
  report_rows: NotNull<DB['report_rows']>;
}

export type Database = {
  [T in keyof DB]: T extends keyof Narrowed ? Omit<DB[T], keyof Narrowed[T]> & Narrowed[T] : DB[T];
};

export type Account = Selectable<Database['accounts']>;
export type NewAccount = Insertable<Database['accounts']>;
export type AccountUpdate = Updateable<Database['accounts']>;
export type Operator = Selectable<Database['operators']>;
export type PushOutboxTable = Database['push_outbox'];
