/**
 * The customers' HTTP API (`/openapi/v1`, server/modules/openapi; docs/api-openapi.md):
 *
 * - `accounts.api_secret`: the key of the request signatures, hex HMAC-SHA256(key = the account's
 *   interface password, message = clientid) (`deriveApiSecret`): the customer computes it from the
 *   password it knows; the platform stores only the derived value ('' = no API access).
 * - `sms_tasks.extension`: the extension an interface send asked for (needextend 1).
 * - `api_nonces`: every nonce of a signed request, per account, until the replay window has passed
 *   (several API processes share one database: a nonce is refused by whichever sees it again).
 * - `api_idempotency`: the answer of a send per idempotency key (24 h), written in the send's own
 *   transaction: a retried request gets the stored answer, never a second task.
 * - `api_throttle`: one token bucket per account (`access_speed` messages/s), in the database so
 *   that every process takes from the same bucket.
 * - `api_pull`: the pull queue of needreport 3 (final states) and needmo 3 (uplink). Filled by
 *   statement-level triggers on sms_messages (a message's done_at set) and sms_mo (insert) for
 *   the accounts in pull mode, so the dispatch code is unchanged. A pull hands rows out under a
 *   batch token; acknowledging the token deletes them; rows handed out and not acknowledged come
 *   back after a lease.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const apiSecret0029: Migration = {
  async up(db) {
    await run(db, [
      `alter table accounts add column api_secret text not null default ''`,
      // the extension (digits after the account's source number) an interface send asked for
      `alter table sms_tasks add column extension text not null default ''`,
      `create table api_nonces (
        account_id integer not null references accounts(id) on delete cascade,
        nonce text not null,
        expires_at timestamptz not null,
        primary key (account_id, nonce)
      )`,
      `create index api_nonces_expires on api_nonces (expires_at)`,
      `create table api_idempotency (
        account_id integer not null references accounts(id) on delete cascade,
        idem_key text not null,
        request_hash text not null,
        task_uid text not null,
        answer jsonb not null,
        created_at timestamptz not null,
        primary key (account_id, idem_key)
      )`,
      `create index api_idempotency_created on api_idempotency (created_at)`,
      `create table api_throttle (
        account_id integer primary key references accounts(id) on delete cascade,
        tokens double precision not null,
        updated_at timestamptz not null
      )`,
      `create table api_pull (
        id integer generated always as identity primary key,
        account_id integer not null,
        kind smallint not null check (kind in (1, 2)),
        ref_id integer not null,
        created_at timestamptz not null default now(),
        handed_at timestamptz,
        batch text
      )`,
      `create index api_pull_account on api_pull (account_id, kind, id)`,
      `create index api_pull_batch on api_pull (batch) where batch is not null`,
      `create function api_pull_reports() returns trigger language plpgsql as $f$
        begin
          insert into api_pull (account_id, kind, ref_id)
          select n.account_id, 1, n.id
          from api_pull_new n join api_pull_old o on o.id = n.id
          join accounts a on a.id = n.account_id and a.needreport = 3
          where n.done_at is not null and o.done_at is null
          order by n.id;
          return null;
        end $f$`,
      `create trigger sms_messages_api_pull after update on sms_messages referencing new table as api_pull_new old table as api_pull_old for each statement execute function api_pull_reports()`,
      `create function api_pull_mo() returns trigger language plpgsql as $f$
        begin
          insert into api_pull (account_id, kind, ref_id)
          select n.account_id, 2, n.id
          from api_pull_mo_new n join accounts a on a.id = n.account_id and a.needmo = 3
          order by n.id;
          return null;
        end $f$`,
      `create trigger sms_mo_api_pull after insert on sms_mo referencing new table as api_pull_mo_new for each statement execute function api_pull_mo()`,
    ]);
  },
  async down(db) {
    await run(db, [
      'drop trigger sms_mo_api_pull on sms_mo',
      'drop function api_pull_mo()',
      'drop trigger sms_messages_api_pull on sms_messages',
      'drop function api_pull_reports()',
      'drop table api_pull',
      'drop table api_throttle',
      'drop table api_idempotency',
      'drop table api_nonces',
      'alter table sms_tasks drop column extension',
      'alter table accounts drop column api_secret',
    ]);
  },
};
