/**
 * The states every list screen has besides its rows (issue 37 item 3): still loading, refused by
 * the server, no rows. Each is built from the screen's data resource (its list endpoint: path,
 * method, paging), so a story file says which resource and which handlers stand behind the page,
 * not how to answer its list again. Stories only; the app never imports this file.
 *
 *   const states = listStates(recordArchives, [...shell]);
 *   export const Loading: Story = states.loading;
 *   export const LoadError: Story = states.error;
 *   export const Empty: Story = { ...states.empty, name: '暂无归档' };
 */
import { delay, http, type HttpHandler, type HttpResponseResolver } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { DataResource } from '@/layout/declarations';
import { DEFAULT_PAGE_SIZE } from '@/providers/dataProvider';
import { fail, listPageOf, ok, msw, paramsOf } from './mockApi';
import { body } from './withApp';

/** what the server answers when it cannot serve a request (schemas/messages/openapi.json INTERNAL) */
export const BUSY = '服务器繁忙，请稍后再试';
/** what the server answers an export with nothing to export */
export const NO_EXPORT_DATA = '当前条件没有数据，无法导出';

export type ListState = 'loading' | 'error' | 'empty';

const T = { timeout: 5000 };

/** the list's own answer with no rows: the endpoint's shape (a bare array when it is not paged) */
function emptyAnswer(r: DataResource) {
  if (r.list?.paging === 'none') return [];
  return listPageOf([], { pageRowCount: r.list?.pageSize ?? DEFAULT_PAGE_SIZE });
}

/** an MSW handler of `r`'s list endpoint (its path under /api, its method) */
function listEndpoint(r: DataResource, answer: HttpResponseResolver): HttpHandler {
  if (!r.list) throw new Error(`listHandler: the data resource ${r.name} has no list endpoint`);
  const path = `/api${r.list.url}`;
  return (r.list.method ?? 'get') === 'get' ? http.get(path, answer) : http.post(path, answer);
}

/**
 * The MSW handler of `r`'s list endpoint in a state: never answering, answering 500 服务器繁忙，请稍后再试,
 * or answering no rows. Put it before the story's other handlers (MSW takes the first that matches).
 */
export function listHandler(r: DataResource, state: ListState): HttpHandler {
  return listEndpoint(r, async () => {
    if (state === 'loading') await delay('infinite');
    return state === 'error' ? fail(500, BUSY) : ok(emptyAnswer(r));
  });
}

/**
 * The MSW handler of `r`'s list endpoint answering `rows` (a function: the rows at each call): the
 * page the request asks for (currentPage / pageRowCount, from its body or its query), or all of
 * them when the endpoint is not paged.
 */
export function listReply<T>(r: DataResource, rows: T[] | (() => T[])): HttpHandler {
  return listEndpoint(r, async ({ request }) => {
    const p = { ...Object.fromEntries(new URL(request.url).searchParams), ...(await paramsOf(request)) };
    return ok(listAnswer(r, typeof rows === 'function' ? rows() : rows, p));
  });
}

/** `r`'s list answer of `rows` for the request's parameters `p`: the page it asks for, or every row when the endpoint is not paged */
export function listAnswer<T>(r: DataResource, rows: T[], p: Record<string, any>) {
  if (r.list?.paging === 'none') return rows;
  return listPageOf(rows, { currentPage: p.currentPage ?? p.page, pageRowCount: p.pageRowCount ?? p.rows });
}

interface StateStory {
  name: string;
  parameters: { msw: { handlers: HttpHandler[] } };
  play: (ctx: { canvasElement: HTMLElement }) => Promise<void>;
}

/**
 * The three stories of a list screen whose list is `r`'s, over `handlers` (the shell's and the
 * page's other calls): 加载中 (the table's spinner), 加载失败 (the table's error with the server's
 * message and 重试, never 暂无数据 as if there were no rows), 无数据 (暂无数据).
 */
export function listStates(
  r: DataResource,
  handlers: HttpHandler[],
): Record<'loading' | 'error' | 'empty', StateStory> {
  const withList = (state: ListState) => ({ ...msw(listHandler(r, state), ...handlers) });
  return {
    loading: {
      name: '加载中',
      parameters: withList('loading'),
      play: async ({ canvasElement }) => {
        await waitFor(() => expect(canvasElement.querySelector('.ant-spin-spinning')).not.toBeNull(), T);
      },
    },
    error: {
      name: '加载失败',
      parameters: withList('error'),
      play: async ({ canvasElement }) => {
        const error = await within(canvasElement).findByTestId('list-error', {}, T);
        await expect(error).toHaveTextContent(BUSY);
        await expect(within(error).getByRole('button', { name: /重\s*试/ })).toBeInTheDocument();
        await expect(within(canvasElement).queryByText('暂无数据')).toBeNull();
      },
    },
    empty: {
      name: '无数据',
      parameters: withList('empty'),
      play: async ({ canvasElement }) => {
        await expect((await within(canvasElement).findAllByText('暂无数据', {}, T))[0]).toBeVisible();
      },
    },
  };
}

/**
 * The play of a list's refused export: once the text `after` shows (when given), a click on the
 * button `button` (导出), then the server's refusal `msg` in a toast.
 *
 *   export const ExportNoData: Story = { name: '导出：无数据', parameters: ..., play: refusedExport(NO_EXPORT_DATA, { after: '易购优选' }) };
 */
export const refusedExport =
  (msg: string, { after, button = /导\s*出/ }: { after?: string; button?: RegExp } = {}) =>
  async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const c = within(canvasElement);
    const wait = { timeout: 10000 };
    if (after) await c.findByText(after, {}, wait);
    await userEvent.click(
      after ? c.getByRole('button', { name: button }) : await c.findByRole('button', { name: button }, wait),
    );
    await expect(await body().findByText(msg, {}, wait)).toBeInTheDocument();
  };
