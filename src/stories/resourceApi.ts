/**
 * A data resource's MSW handlers from its declaration (issue 37 item 3): its list (the page the
 * request asks for, by the declaration's paging), create, update and delete endpoints at the
 * declaration's urls and methods, and the page's export. Each call's parameters are kept under
 * its endpoint's last path segment ('list', 'add', 'del'). Stories only.
 *
 *   resourceApi(signs, { rows: signRows, calls, where: (r, f) => !f.sign || r.sign.includes(f.sign),
 *     create: () => ok({ id: 200 }, '添加成功，请等待审核'), exportTo: ['/sign/export', '签名.xlsx'] })
 */
import type { HttpHandler } from 'msw';
import type { DataResource } from '@/layout/declarations';
import type { Endpoint } from '@/providers/dataProvider';
import { listAnswer } from './listStates';
import { xlsxReply, type Calls } from './mockApi';
import { answering } from './pageRows';

type Params = Record<string, any>;
/** an answer: a Response as it is, else ok(value) */
type Reply = (p: Params) => unknown;

export interface ResourceApiOptions<T> {
  /** the rows (a function: the rows at each call) */
  rows: T[] | (() => T[]);
  /** where each call's parameters are kept */
  calls?: Calls;
  /** whether a row answers the list request's parameters (default: every row does) */
  where?: (row: T, p: Params) => boolean;
  one?: Reply;
  create?: Reply;
  update?: Reply;
  deleteOne?: Reply;
  /** the page's export endpoint and the .xlsx it downloads */
  exportTo?: [url: string, file: string];
  /** other fields of the list's answer, from the rows it lists */
  extra?: (rows: T[]) => object;
}

/** the handler of `ep` (under /api; GET when its method says, else POST) keeping its parameters and answering `reply` (pageRows' answering) */
export function endpointHandler(ep: Endpoint, calls: Calls | undefined, reply: Reply, method = ep.method ?? 'form') {
  return answering(calls)[method === 'get' ? 'get' : 'post'](ep.url, ep.url.split('/').at(-1)!, reply);
}

export function resourceApi<T>(r: DataResource, o: ResourceApiOptions<T>): HttpHandler[] {
  if (!r.list) throw new Error(`resourceApi: the data resource ${r.name} has no list endpoint`);
  const list = (p: Params) => {
    const all = typeof o.rows === 'function' ? o.rows() : o.rows;
    const rows = o.where ? all.filter((row) => o.where!(row, p)) : all;
    const answer = listAnswer(r, rows, p);
    return Array.isArray(answer) ? answer : { ...answer, ...o.extra?.(rows) };
  };
  const more = (['one', 'create', 'update', 'deleteOne'] as const).flatMap((k) => {
    const ep = r[k];
    const reply = o[k];
    return ep && reply ? [endpointHandler(ep, o.calls, reply)] : [];
  });
  const exported = o.exportTo
    ? [endpointHandler({ url: o.exportTo[0] }, o.calls, () => xlsxReply(o.exportTo![1]))]
    : [];
  return [endpointHandler(r.list, o.calls, list, r.list.method ?? 'get'), ...more, ...exported];
}
