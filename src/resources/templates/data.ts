/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

/** 智能模板 (docs/api-templates.md) */
export const templates = {
  name: 'templates',
  list: { url: '/autoTemplate/list', method: 'form' },
  create: { url: '/autoTemplate/add' },
  update: { url: '/autoTemplate/edit', idParam: 'templateId' },
  deleteOne: { url: '/autoTemplate/del', idParam: 'templateId' },
  idField: 'templateId',
  entity: 'entities/template',
  filter: 'filters/template-smart',
} satisfies DataResource;

/** 通用模板 (POST /autoTemplate/commonlist) */
export const generalTemplates = {
  name: 'generalTemplates',
  list: { url: '/autoTemplate/commonlist', method: 'form' },
  idField: 'templateId',
  entity: 'entities/template',
  filter: 'filters/template-general',
} satisfies DataResource;
