/**
 * Variable SMS, international SMS and screening (docs/api-variable-international.md):
 *
 * - `intl_prices`: the international price table (one row per ISO 3166 country libphonenumber-js
 *   knows, China excepted: +86 is domestic), seeded here with the dial code, English and Chinese
 *   names and a fee per piece (yuan, NUMERIC). GET /sms/gj/prices lists it; an international send
 *   charges each number by its country's row.
 * - `sms_messages.content`: the message's own text when it differs from the task's (variable SMS:
 *   every row of the file its own text); null = the task's `content` (every other send).
 * - `sms_tasks.send_kind`: 0 ordinary, 1 variable, 2 international (a scheduled international
 *   task cannot be cancelled).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { intlPriceSeed } from '../../modules/variable-international/prices-seed';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const varintl0017: Migration = {
  async up(db) {
    await run(db, [
      `create table intl_prices (
        id integer generated always as identity primary key,
        country_code text not null unique,
        dial_code text not null,
        name_en text not null,
        name_zh text not null,
        fee numeric(10,4) not null check (fee > 0),
        sort integer not null default 0
      )`,
      `create index intl_prices_dial on intl_prices (dial_code)`,
      `alter table sms_messages add column content text`,
      `alter table sms_tasks add column send_kind smallint not null default 0`,
    ]);
    const rows = intlPriceSeed();
    await db.insertInto('intl_prices').values(rows).execute();
  },
  async down(db) {
    await run(db, [
      'alter table sms_tasks drop column send_kind',
      'alter table sms_messages drop column content',
      'drop table intl_prices',
    ]);
  },
};
