/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

/** 定时任务 (POST /send/smsTimerSend/list, page + rows) */
export const timedTasks = {
  name: 'timedTasks',
  list: { url: '/send/smsTimerSend/list', method: 'form', paging: 'page' },
  idField: 'taskId',
  entity: 'entities/timed-task',
  filter: 'filters/timed-task',
} satisfies DataResource;

/** 定时任务的号码 (POST /send/getAllPhone/list, page + rows; uid + submitTime as meta params) */
export const timedTaskPhones = {
  name: 'timedTaskPhones',
  list: { url: '/send/getAllPhone/list', method: 'form', paging: 'page' },
  idField: 'phone',
} satisfies DataResource;
