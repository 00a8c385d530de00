/**
 * 审核 (issue 39, docs/api-operator.md "Review"): the operator console's four review lists, in the
 * menu group 审核 with their pending counts as badges (GET /operator/review/counts: each screen's
 * `badge` is a key of entities/review-counts.json), and their data: the list endpoint with the
 * entity and filter schemas (filters/review.json: 只看待审核, 账户), and the decision endpoint.
 * Every operator role may review (access `operator`).
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { reviewCertifications, reviewSigns, reviewTemplates, reviewInvoices } from './data';

export * from './data';

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
