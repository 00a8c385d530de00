/**
 * Story rows and calls from the declarations (issue 37 item 3): a fixture lists only what differs
 * from its typed default row, and the labels the server writes beside an enum field (`smstypeStr`,
 * `paytype_str`) come from the entity's schema (schemas/entities: the field refers to an enum,
 * the label field is its name + `Str` / `_str`), never retyped. Stories only; the app never imports this.
 *
 *   const task = rowOf<SendTask>('send-task')({ clientId: 'b20001', status: 3, ... });
 *   export const taskRows = numbered([task({ id: 2 }), task({ id: 1, status: 0 })]);
 */
import { http, type HttpHandler } from 'msw';
import { enumLabel, schemas } from '@/schema';
import { screenByName } from '@/layout/screens';
import { consoleScreens } from '@/screens';
import { ok, paramsOf, type Calls } from './mockApi';

/** `row` with each label field of the entity filled from its enum field's value (unless the row gives it) */
export function labelled<T extends object>(entity: string, row: T): T {
  const fields = schemas.fields(`entities/${entity}`);
  const names = new Set(fields.map((f) => f.name));
  const out = { ...row } as Record<string, unknown>;
  for (const f of fields) {
    if (!f.enumName) continue;
    for (const key of [`${f.name}Str`, `${f.name}_str`]) {
      if (!names.has(key) || out[key] !== undefined) continue;
      const label = enumLabel(f.enumName, out[f.name]);
      if (label !== undefined) out[key] = label;
    }
  }
  return out as T;
}

/**
 * A builder of the entity's rows: the default row `base` with what one fixture changes (what `base`
 * leaves out of the type's required fields, each fixture gives), its labels from the enums.
 */
export const rowOf =
  <T extends object>(entity: string) =>
  <B extends Partial<T>>(base: B) =>
  (diff: Omit<T, keyof B> & Partial<T>): T =>
    labelled(entity, { ...base, ...diff } as unknown as T);

/** `rows` numbered 1, 2, … in their `rowNum` (the lists' 序号) */
export const numbered = <T extends { rowNum?: number }>(rows: T[]): T[] =>
  rows.map((r, i) => ({ ...r, rowNum: i + 1 }));

type Reply = (p: Record<string, any>) => unknown;
/**
 * `get(path, name, reply)` / `post(...)`: the handler of `/api${path}` keeping the call's parameters
 * (a GET's query, a POST's form or JSON) under calls[name] and answering `reply(params)`: ok(value),
 * or the Response itself when it is one.
 */
export function answering(calls?: Calls) {
  const on =
    (method: 'get' | 'post') =>
    (path: string, name: string, reply: Reply): HttpHandler =>
      http[method](`/api${path}`, async ({ request }) => {
        const p = method === 'get' ? Object.fromEntries(new URL(request.url).searchParams) : await paramsOf(request);
        if (calls) (calls[name] ??= []).push(p);
        const answer = await reply(p);
        return answer instanceof Response ? answer : ok(answer);
      });
  return { get: on('get'), post: on('post') };
}

/** the app path of the accounts' console's screen `name` (its full path in the screen table), then `search` */
export function pathOf(name: string, search = ''): string {
  const entry = screenByName(consoleScreens, name);
  if (!entry) throw new Error(`pathOf: no screen ${name}`);
  return entry.fullPath + search;
}
