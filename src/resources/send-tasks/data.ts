/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

/** 发送任务 (POST /send/sendTask, page + rows) */
export const sendTasks = {
  name: 'sendTasks',
  list: { url: '/send/sendTask', method: 'form', paging: 'page' },
  entity: 'entities/send-task',
  filter: 'filters/send-task',
} satisfies DataResource;
