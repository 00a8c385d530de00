/** Calls of the invoice area (server/modules/invoice, docs/api-invoice.md). Every answer is { code, msg, data }. */
import type { Dayjs } from 'dayjs';
import type { Invoice, InvoiceForm } from '@/generated/schemas';
import { businessNow, businessTime } from '@/lib/businessTime';
import { postForm, postJson } from '@/providers/http';
import invoiceSchema from '../../../schemas/forms/invoice.json';

/** The invoice messages (schemas/forms/invoice.json `x-messages`). */
export const INVOICE_MESSAGES = invoiceSchema['x-messages'];

/** The saved information of one invoice type (the form's fields). */
export type InvoiceConfig = Partial<Record<keyof InvoiceForm, unknown>>;

export interface InvoiceInit {
  /** the account the amount and the saved information are of: the caller, or the agent's chosen sub-account */
  clientId: string;
  /** that account as `clientid-name` */
  accountStr: string;
  canAmount: string;
  invoiceProject: string;
  /** agents choose the invoice type; sub-accounts apply for ordinary invoices only */
  canChooseType: boolean;
  /** agents may apply on behalf of one of their sub-accounts (forms/invoice.json clientId) */
  canChooseAccount: boolean;
  invoiceTypes: number[];
  ordinary: InvoiceConfig;
  addedTax: InvoiceConfig;
}

/** The address picker's tree (GET /static/scripts/city.json, outside /api). */
export interface CityNode {
  value: string;
  label: string;
  children?: CityNode[];
}

let cityTree: Promise<CityNode[]> | null = null;
/** Loaded once per page (a failed load is tried again next time). */
export function loadCityTree(): Promise<CityNode[]> {
  cityTree ??= fetch('/static/scripts/city.json', { credentials: 'same-origin' }).then((r) => {
    if (!r.ok) throw new Error(`city.json ${r.status}`);
    return r.json() as Promise<CityNode[]>;
  });
  cityTree.catch(() => (cityTree = null));
  return cityTree;
}

/**
 * The date pickers of the invoice list forbid, as the original console coded it, every day after
 * now − 8.64e6 ms (the spec §5: "offset 8.64e6 ms as coded"): the cell as its picker shows it
 * against Shanghai's clock at `now` (an instant), whatever the browser's zone.
 */
export const DISABLED_AFTER_MS = 8.64e6;
export const invoiceDateDisabled = (d: Dayjs | null | undefined, now = Date.now()) =>
  !!d && businessTime(d).valueOf() > businessNow(now).valueOf() - DISABLED_AFTER_MS;

export const invoiceApi = {
  /** the page's data for the caller, or (an agent) for one of its sub-accounts */
  init: (clientId?: string) => postForm<InvoiceInit>('/invoice/initInvoice', clientId ? { clientId } : undefined),
  canAmount: (clientId?: string) =>
    postForm<{ canAmount: string }>('/invoice/getCanInvoiceAmount', clientId ? { clientId } : undefined),
  check: (p: Record<string, unknown>) => postJson<{ canAmount: string }>('/invoice/checkObject', p, { silent: true }),
  add: (p: Record<string, unknown>) => postJson<Invoice>('/invoice/add', p, { silent: true }),
  detail: (id: number, invoiceType?: number) => postForm<Invoice>('/invoice/invoiceDetailed', { id, invoiceType }),
  cancel: (r: Pick<Invoice, 'id' | 'invoiceId' | 'status' | 'updateTime'>) =>
    postJson<Invoice>('/invoice/invoiceCancelApply', {
      id: r.id,
      invoiceId: r.invoiceId,
      status: r.status,
      updateTime: r.updateTime,
    }),
};
