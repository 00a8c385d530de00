/**
 * Typecheck-time guard: the hand-kept `Database` (types.ts: comments, insert defaults, the
 * narrower types the code relies on) names exactly the tables and columns of the migrated schema
 * as kysely-codegen reads it (generated.ts, `npm run db:types`). A migration that adds, renames
 * or drops a column without the same change in types.ts fails `tsc`.
 */
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
