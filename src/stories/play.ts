/**
 * The steps play functions repeat (issue 37 item 3), said once: a table's row and columns, a
 * dialog by its name, a form's field once its code has loaded, the open popconfirm's button, the
 * open select's options, the empty table. Each waits as long as the stories' T. Stories only.
 *
 *   const row = await rowWith(c, '云讯优选');
 *   await userEvent.click(await popconfirmButton(/通\s*过/));
 */
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body } from './withApp';

/** what `within(...)` gives: a canvas, a dialog, a row */
export type Scope = ReturnType<typeof within>;

/** the table row (`tr`) in which `text` shows, once it shows */
export const rowWith = async (scope: Scope, text: string | RegExp) =>
  (await scope.findByText(text, {}, T)).closest('tr') as HTMLElement;

/** the titles of the table's columns in `scope` */
export const columns = (scope: Scope) => scope.getAllByRole('columnheader').map((h: HTMLElement) => h.textContent);

/** the dialog named `name`, once it opens */
export const dialogNamed = async (name: string) => within(await body().findByRole('dialog', { name }, T));

/** the field labelled `label` in `scope` (a text area unless `selector` says), once the form's code has loaded */
export const fieldOf = (scope: Scope, label: RegExp, selector = 'textarea') =>
  waitFor(() => scope.getByLabelText(label, { selector }), T);

/** the button `name` of the open popconfirm, once it is open */
export const popconfirmButton = async (name: RegExp) => {
  const open = () => document.querySelector<HTMLElement>('.ant-popconfirm:not(.ant-popover-hidden)');
  await waitFor(() => expect(open()).not.toBeNull(), T);
  return within(open()!).getByRole('button', { name });
};

/** the texts of the open select's options */
export const openOptions = () =>
  [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].map(
    (o) => o.textContent,
  );

/** the table in `canvasElement` shows 暂无数据 */
export const expectNoRows = async (canvasElement: HTMLElement) =>
  expect((await within(canvasElement).findAllByText('暂无数据', {}, T))[0]).toBeVisible();

/** `check` passes within the stories' T (a waitFor) */
export const eventually = (check: () => unknown) => waitFor(check, T);

/** `text` shows in the page (a toast, a popconfirm, a dialog's message), once it shows */
export const shows = async (text: string | RegExp) => expect(await body().findByText(text, {}, T)).toBeInTheDocument();

/** a click on the button `name` inside `scope` (a row, a dialog); `scope` may be a promise of the element */
export const clickIn = async (scope: HTMLElement | Promise<HTMLElement>, name: string | RegExp) =>
  userEvent.click(within(await scope).getByRole('button', { name }));

/** the table's column titles in `scope` include `titles` (space-separated) */
export const expectColumns = (scope: Scope, titles: string) =>
  expect(columns(scope)).toEqual(expect.arrayContaining(titles.split(' ')));
