/**
 * 审核 (issue 39, docs/api-operator.md "Review"): the operator console's four review lists, in the
 * menu group 审核 with their pending counts as badges (GET /operator/review/counts: each screen's
 * `badge` is a key of entities/review-counts.json), and their data: the list endpoint with the
 * entity and filter schemas (filters/review.json: 只看待审核, 账户), and the decision endpoint.
 * Every operator role may review (access `operator`).
 */
import { lazy } from 'react';
import type { DataResource, MenuGroup, Screen } from '@/layout/declarations';

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

export const certificationReview: Screen = {
  name: 'ops_review_certifications',
  path: '/ops/review/certifications',
  label: '资质认证',
  icon: 'certification',
  access: 'operator',
  menu: 'review',
  badge: 'certifications',
  home: true,
  page: lazy(() => import('./CertificationReview')),
  data: [reviewCertifications],
};

export const signReview: Screen = {
  name: 'ops_review_signs',
  path: '/ops/review/signs',
  label: '签名',
  icon: 'sign',
  access: 'operator',
  menu: 'review',
  badge: 'signs',
  home: true,
  page: lazy(() => import('./SignReview')),
  data: [reviewSigns],
};

export const templateReview: Screen = {
  name: 'ops_review_templates',
  path: '/ops/review/templates',
  label: '模板',
  icon: 'template',
  access: 'operator',
  menu: 'review',
  badge: 'templates',
  home: true,
  page: lazy(() => import('./TemplateReview')),
  data: [reviewTemplates],
};

export const invoiceReview: Screen = {
  name: 'ops_review_invoices',
  path: '/ops/review/invoices',
  label: '发票',
  icon: 'finance',
  access: 'operator',
  menu: 'review',
  badge: 'invoices',
  home: true,
  page: lazy(() => import('./InvoiceReview')),
  data: [reviewInvoices],
};

export const screens: Screen[] = [certificationReview, signReview, templateReview, invoiceReview];
export const groups: MenuGroup[] = [reviewGroup];
