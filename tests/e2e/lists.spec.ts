import { expect as baseExpect, test, type Page } from '@playwright/test';
import { apiLogin } from './helpers';

/**
 * The shared list mechanism (SchemaTable, SchemaFilterBar, useSchemaList) end to end, issue 27
 * items 3 and 4 and the list basics: at 1024 and 390 px no table cell wraps one character per line
 * and no amount wraps; a failed list call (a proxy's 502, a JSON 500) shows one toast and the
 * list's error state, whose 重试 recovers; filters, page size and 重置 live in the address bar and
 * survive a reload. Screenshots of the task list at 1440 / 1024 / 390 go to test-results/lists/.
 */

/** pages load their chunks lazily: on a loaded two-core machine the first paint can take a while */
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });

const TASKS = '/customer/deliverlayout/smstask';
const RECORDS = '/customer/sendlayout/sendrecord';
const SUBACCOUNTS = '/customer/selfsevicelayout/manager';
const FINANCE = '/customer/finance';

/**
 * Cells squeezed into a column of characters: more than `max` lines (distinct line boxes of the
 * cell's text) with fewer than 5 characters a line on average.
 */
async function wrappedCells(page: Page, max: number) {
  return page
    .locator('.schema-table')
    .first()
    .evaluate((table, limit) => {
      const out: string[] = [];
      for (const cell of table.querySelectorAll<HTMLElement>('thead th, tbody td')) {
        const text = cell.innerText.trim();
        if (text.length < 2) continue;
        // the line boxes of the cell's text nodes (tops within 4 px are one line)
        const tops: number[] = [];
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const r of range.getClientRects())
            if (r.width > 0 && r.height > 0 && !tops.some((t) => Math.abs(t - r.top) < 4)) tops.push(r.top);
        }
        if (tops.length > limit && text.replace(/\s/g, '').length / tops.length < 5)
          out.push(
            `${text.slice(0, 20)} (${tops.length} lines, ${Math.round(cell.getBoundingClientRect().width)}px wide)`,
          );
      }
      return out;
    }, max);
}

/** Amounts (… 元) in the table that take more than one line. */
async function wrappedMoney(page: Page) {
  return page
    .locator('.schema-table')
    .first()
    .evaluate((table) =>
      [...table.querySelectorAll<HTMLElement>('td .ant-typography')]
        .filter((el) => /元$/.test(el.innerText.trim()))
        .filter((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
        })
        .map((el) => el.innerText),
    );
}

async function rowsShown(page: Page) {
  await expect(page.locator('.schema-table .ant-table-tbody tr.ant-table-row').first()).toBeVisible();
}

test.describe('列表', () => {
  test('tables at 1440 / 1024 / 390 px: no cell one character a line, amounts on one line, filters usable', async ({
    page,
  }) => {
    await apiLogin(page, 'agent1');
    for (const width of [1440, 1024, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of [TASKS, SUBACCOUNTS, FINANCE]) {
        await page.goto(path);
        await rowsShown(page);
        baseExpect(await wrappedCells(page, 2), `${path} at ${width}px`).toEqual([]);
        baseExpect(await wrappedMoney(page), `${path} at ${width}px`).toEqual([]);
        if (path === TASKS) {
          // the task number stays in view: a fixed column (scrolling with the rest on a phone: SchemaTable.css)
          await expect(
            page.locator('.schema-table thead th.ant-table-cell-fix-left', { hasText: '任务编号' }),
          ).toBeVisible();
          await page.screenshot({ path: `test-results/lists/tasks-${width}.png`, fullPage: true });
        }
      }
      // the filter bar and the exports stay on the screen
      await page.goto(RECORDS);
      const search = page.getByRole('button', { name: /查\s*询/ });
      await expect(search).toBeVisible();
      for (const name of [/查\s*询/, /重\s*置/, /导出记录/, /导出号码/]) {
        const box = (await page.getByRole('button', { name }).boundingBox())!;
        baseExpect(box.x + box.width, `${name} at ${width}px`).toBeLessThanOrEqual(width);
      }
      await page.screenshot({ path: `test-results/lists/records-${width}.png`, fullPage: true });
    }
  });

  test('a failed list call: one toast, the error state with 重试, which recovers', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 900 });
    await apiLogin(page, 'agent1');

    // a proxy's 502 (an HTML page, no JSON body) (not the task list: it refreshes itself every 10 s)
    await page.route(
      '**/api/recharge/rollback/getAccounts',
      (route) =>
        route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>502 Bad Gateway</body></html>' }),
      {
        times: 1,
      },
    );
    await page.goto(FINANCE);
    const error = page.getByTestId('list-error');
    await expect(error).toContainText('接口异常（502）');
    await expect(page.locator('.ant-message-notice')).toHaveCount(1);
    await expect(page.getByText('暂无数据')).toHaveCount(0);
    await error.getByRole('button', { name: /重\s*试/ }).click();
    await rowsShown(page);
    await expect(error).toHaveCount(0);

    // a JSON 500: its message, once (no silent retries asking and toasting again)
    let asked = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/client/accounts')) asked += 1;
    });
    await page.route(
      '**/api/client/accounts',
      (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ code: 500, msg: '系统繁忙，请稍后再试' }),
        }),
      {
        times: 1,
      },
    );
    await page.goto(SUBACCOUNTS);
    await expect(page.getByTestId('list-error')).toContainText('系统繁忙，请稍后再试');
    await expect(page.locator('.ant-message-notice', { hasText: '系统繁忙' })).toHaveCount(1);
    await page.waitForTimeout(4000); // react-query's retries came after 1 s and 2 s
    baseExpect(asked).toBe(1);
    await expect(page.getByTestId('list-error')).toBeVisible();
    await page
      .getByTestId('list-error')
      .getByRole('button', { name: /重\s*试/ })
      .click();
    await rowsShown(page);
  });

  test('filters and page size in the address bar survive a reload; 重置 clears them', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 900 });
    await apiLogin(page, 'agent1');
    await page.goto(RECORDS);
    const phone = page.getByPlaceholder('手机号码');
    await expect(phone).toBeVisible();
    await phone.fill(' 13800138000 ');
    const asked = page.waitForRequest(
      (r) => r.url().includes('/api/send/getrecords') && (r.postData() ?? '').includes('phone=13800138000'),
    );
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await asked;
    await expect(page).toHaveURL(/[?&]phone=13800138000/);
    await expect(page).toHaveURL(/[?&]beginDate=\d{4}-\d{2}-\d{2}/);

    const again = page.waitForRequest(
      (r) => r.url().includes('/api/send/getrecords') && (r.postData() ?? '').includes('phone=13800138000'),
    );
    await page.reload();
    await again;
    await expect(page.getByPlaceholder('手机号码')).toHaveValue('13800138000');

    // 重置: the first values again (the last 90 days, no phone), in the list and the address bar
    const reset = page.waitForRequest(
      (r) => r.url().includes('/api/send/getrecords') && !(r.postData() ?? '').includes('phone='),
    );
    await page.getByRole('button', { name: /重\s*置/ }).click();
    await reset;
    await expect(page.getByPlaceholder('手机号码')).toHaveValue('');
    await expect(page).not.toHaveURL(/phone=/);

    // the page size: in the address bar, asked of the server, kept over a reload (choosing it in the
    // pager: the SchemaTable PageSizeChoice story; the demo data may hold one page only)
    const sized = page.waitForRequest(
      (r) => r.url().includes('/api/send/sendTask') && (r.postData() ?? '').includes('rows=10'),
    );
    await page.goto(`${TASKS}?pageSize=10`);
    await sized;
    await rowsShown(page);
    const sizedAgain = page.waitForRequest(
      (r) => r.url().includes('/api/send/sendTask') && (r.postData() ?? '').includes('rows=10'),
    );
    await page.reload();
    await sizedAgain;
    await expect(page).toHaveURL(/[?&]pageSize=10/);
  });
});
