/**
 * Typecheck-time guard: the hand-kept `Database` (types.ts: comments, insert defaults, the
 * narrower types the code relies on) names exactly the tables and columns of the migrated schema
 * as kysely-codegen reads it (generated.ts, `npm run db:types`), and reads every column as the same
 * type, but for the columns listed in `Narrowed`, whose type must then be a narrower one. A
 * migration that adds, renames, drops or retypes a column without the same change in types.ts
 * fails `tsc`.
 */
import type { Selectable } from 'kysely';
import type { DB } from './generated';
import type { Database } from './types';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;

/** tables of one side missing on the other: `never` when they agree */
export type MissingTables = Exclude<keyof DB, keyof Database> | Exclude<keyof Database, keyof DB>;
export type TablesAgree = Expect<Same<MissingTables, never>>;

/** per table, columns of one side missing on the other */
export type ColumnGaps = {
  [T in keyof DB & keyof Database as Same<keyof DB[T], keyof Database[T]> extends true ? never : T]:
    Exclude<keyof DB[T], keyof Database[T]> | Exclude<keyof Database[T], keyof DB[T]>;
};
export type ColumnsAgree = Expect<Same<keyof ColumnGaps, never>>;

/**
 * Columns that types.ts reads as a narrower type than the schema says, on purpose: a JSON column's
 * shape, a generated or view column that cannot be null (codegen reads every view column as
 * nullable; report_rows sums NOT NULL columns of report_daily and report_delta).
 */
type Narrowed = {
  accounts: 'search_text';
  branding: 'system_info_show';
  sign_import_results: 'failed_rows';
  report_rows: keyof Database['report_rows'];
};

type Read<T> = Selectable<T>;
/** per table, the columns read as a different type (or, for a narrowed one, as one that is not narrower) */
export type TypeGaps = {
  [T in keyof DB & keyof Database]: {
    [
      C in keyof Read<DB[T]> & keyof Read<Database[T]> as (
        T extends keyof Narrowed
          ? C extends Narrowed[T]
            ? [Read<Database[T]>[C]] extends [Read<DB[T]>[C]]
              ? true
              : false
            : Same<Read<DB[T]>[C], Read<Database[T]>[C]>
          : Same<Read<DB[T]>[C], Read<Database[T]>[C]>
      ) extends true
        ? never
        : C
    ]: { generated: Read<DB[T]>[C]; types: Read<Database[T]>[C] };
  };
};
/** the tables with a column of another type: `never` when every column agrees */
export type TablesWithTypeGaps = { [T in keyof TypeGaps]: keyof TypeGaps[T] extends never ? never : T }[keyof TypeGaps];
export type TypesAgree = Expect<Same<TablesWithTypeGaps, never>>;
