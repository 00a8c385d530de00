/**
 * Story calls and paths from the declarations (issue 37 item 3): handlers that record and answer a
 * page's calls, and a screen's path from the screen table. Rows: ./rows.ts. Stories only; the app
 * never imports this.
 */
import { http, type HttpHandler } from 'msw';
import { screenByName } from '@/layout/screens';
import { consoleScreens } from '@/screens';
import type { ScreenTable } from '@/layout/declarations';
import { fail, ok, paramsOf, type Calls } from './mockApi';

type Reply = (p: Record<string, any>) => unknown;
/**
 * `get(path, name, reply)` / `post(...)`: the handler of `/api${path}` keeping the call's parameters
 * (its query and its form or JSON body) under calls[name] and answering `reply(params)`: ok(value),
 * or the Response itself when it is one.
 */
export function answering(calls?: Calls) {
  const on =
    (method: 'get' | 'post') =>
    (path: string, name: string, reply: Reply): HttpHandler =>
      http[method](`/api${path}`, async ({ request }) => {
        const p = { ...Object.fromEntries(new URL(request.url).searchParams), ...(await paramsOf(request)) };
        if (calls) (calls[name] ??= []).push(p);
        const answer = await reply(p);
        return answer instanceof Response ? answer : ok(answer);
      });
  return { get: on('get'), post: on('post') };
}

/** a server's refusal of a call: its code and message */
export interface Refusal {
  code: number;
  msg: string;
}
/** the answer refusing with `r` when a story gives one, else `answer()`: `post(path, name, () => refusedOr(o.refuse, () => ok(null, '已保存')))` */
export const refusedOr = (r: Refusal | undefined, answer: () => unknown) => (r ? fail(r.code, r.msg) : answer());

/** the app path of the screen `name` (its full path in `screens`: the accounts' console's by default), then `search` */
export function pathOf(name: string, search = '', screens: ScreenTable = consoleScreens): string {
  const entry = screenByName(screens, name);
  if (!entry) throw new Error(`pathOf: no screen ${name}`);
  return entry.fullPath + search;
}
