/**
 * 账户流水: every balance change goes through the LedgerService (service.ts); money arithmetic and
 * its two-decimal text (money.ts). Other modules import these from here, never the inner files.
 *
 * Not yet a plugin: the services server/app.ts still builds by hand (sub-accounts, pay, send)
 * take the ledger at construction, so app.ts builds it too until they are modules (then this file
 * gains `defineModule({ name: 'ledger' }, …)` publishing `app.services.ledger`).
 */
export * from './money';
export * from './service';
