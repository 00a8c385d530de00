/**
 * 计费 (billing): the charge of a send (pools first, then the ledger), the pools, the settlement
 * of refunds and a whole task's refund (billing.ts). It sits below send and dispatch (both use
 * it; it uses neither), and bills, purchase, reports and varintl read its constants and figures.
 * No routes and no service of its own: other modules import it through this file.
 */
export * from './billing';
