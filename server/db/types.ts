/**
 * The database as Kysely sees it: the types kysely-codegen reads from the migrated schema
 * (generated.ts, `npx tsx scripts/db-types.ts` after a migration; tests/server/db-types.test.ts
 * fails until then), with a few columns read narrower than the schema can say (`Narrowed`).
 * Column types follow what both drivers (pg and PGlite) return: NUMERIC as decimal strings,
 * timestamptz as Date, integer as number, jsonb as parsed JSON. No bigint columns: the two drivers
 * disagree on how they return them. What a column means is said in its migration.
 */
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';
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
 * Columns read as a narrower type than the schema says, on purpose: a JSON column's shape, a
 * generated column never written, a view whose columns cannot be null.
 */
interface Narrowed {
  accounts: {
    /** 0015: generated from the account's names, e-mail and mobile (the 客户 search); never written */
    search_text: ColumnType<string, never, never>;
  };
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
