/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource, MenuGroup } from '@/layout/declarations';

/** A review list's data: the list, and where its decisions go. */
export interface ReviewResource extends DataResource {
  entity: string;
  filter: string;
  /** POST (JSON): `{ id, approve, reason }` (params/review-decision.json), or the invoice's status change */
  decide: string;
}

export const reviewCertifications = {
  name: 'reviewCertifications',
  list: { url: '/operator/review/certifications/list', method: 'json' },
  decide: '/operator/review/certifications/decide',
  entity: 'entities/review-certification',
  filter: 'filters/review',
} satisfies ReviewResource;

export const reviewSigns = {
  name: 'reviewSigns',
  list: { url: '/operator/review/signs/list', method: 'json' },
  decide: '/operator/review/signs/decide',
  entity: 'entities/review-sign',
  filter: 'filters/review',
} satisfies ReviewResource;

export const reviewTemplates = {
  name: 'reviewTemplates',
  list: { url: '/operator/review/templates/list', method: 'json' },
  decide: '/operator/review/templates/decide',
  entity: 'entities/review-template',
  filter: 'filters/review',
} satisfies ReviewResource;

export const reviewInvoices = {
  name: 'reviewInvoices',
  list: { url: '/operator/review/invoices/list', method: 'json' },
  decide: '/operator/review/invoices/status',
  entity: 'entities/review-invoice',
  filter: 'filters/review',
} satisfies ReviewResource;

/** the pending counts of the menu's badges */
export const REVIEW_COUNTS_URL = '/operator/review/counts';

export const reviewGroup: MenuGroup = { key: 'review', label: '审核', icon: 'review' };

export const groups: MenuGroup[] = [reviewGroup];
