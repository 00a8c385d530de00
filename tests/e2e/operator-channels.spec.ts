import { expect as baseExpect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { apiLogin, apiPost, login, onPage } from './helpers';
import { cli, e2eServer } from './server';

/**
 * 通道 and 监控 against the real server (issue 39, docs/api-operator.md "Channels", "Console"): the
 * server started without channels, so its dispatcher sends over the default link and starts the
 * embedded SMPP simulator on its project's simulator port (e2eServer(), playwright.config.ts;
 * credentials smsp / smsp) — which keeps running for channels that point at it. A first channel
 * `sim-first` is added with the CLI; a 管理员 (made with the CLI, no second factor) watches its
 * counters move on 通道 without a reload, adds `sim-second` at the same simulator in the 新增通道
 * dialog, pauses `sim-first`, and the routing preview names `sim-second` alone. client1 then sends
 * from its console: the messages go out through `sim-second` (its counters move, the paused one's
 * do not) and 监控 shows them per channel. At the end both channels are removed (the default link
 * again, for the other end-to-end tests).
 *
 * Screenshots at 1440 px go to test-results/ops/ (ops-channels.png, ops-monitor.png); the docs keep
 * them as docs/screenshots/ops-channels.png and ops-monitor.png.
 */

const SHOTS = 'test-results/ops';
// counters are written every 10 s and the list is asked every 10 s: room for both on a busy machine
const expect = baseExpect.configure({ timeout: 30_000 });
const simUrl = () => `smpp://smsp:smsp@127.0.0.1:${e2eServer().simPort}`;
const ADMIN = 'chan.chief';
const ADMIN_PASSWORD = 'Chief1234';
// the general fixed template client1 sends (tests/e2e/sending.spec.ts)
const TEMPLATE = '您的账户余额已不足，为避免影响正常使用，请及时充值。';

async function shot(page: Page, name: string, docs = false) {
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  if (docs) await page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage: true });
}

/** a channel's row of the 通道 table */
const channelRow = (page: Page, name: string) =>
  page
    .getByTestId('channels-table')
    .locator('.ant-table-tbody tr')
    .filter({ has: page.getByText(name, { exact: true }) });
/** the 提交 counter of a channel's row */
async function submitted(row: Locator): Promise<number> {
  return Number((await row.getByTestId('channel-submitted').innerText()).replace(/,/g, ''));
}

/** client1 sends the general template to `numbers` from its console's send page, in a browser of its own */
async function consoleSend(browser: Browser, numbers: string[]) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await apiLogin(page, 'client1');
  await page.goto('/customer/deliverlayout/deliver');
  await expect(page.getByText('普通短信发送').first()).toBeVisible();
  await page.getByTestId('pick-template').click();
  const picker = page.getByRole('dialog', { name: '选择模板' });
  await picker.getByRole('tab', { name: '通用模板' }).click();
  await picker.getByRole('row').filter({ hasText: TEMPLATE }).getByRole('button', { name: '选择' }).click();
  await expect(picker).toBeHidden();
  await page.getByTestId('sign-select').click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: /^好易购$/ })
    .click();
  await page.getByTestId('numbers-input').fill(numbers.join('\n'));
  await expect(page.getByTestId('number-counts')).toContainText(`有效号码：${numbers.length}`);
  await page.getByTestId('submit').click();
  await page.getByRole('dialog', { name: '发送确认' }).getByRole('button', { name: '确认发送' }).click();
  await page.waitForURL(onPage('/customer/deliverlayout/smstask'), { timeout: 15_000 });
  await context.close();
}

test.describe.configure({ mode: 'serial' });

test('a 管理员 adds a channel, pauses another, and the messages go out through the new one; 监控 shows them', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  cli('operator-add', ADMIN, ADMIN_PASSWORD, '3', '--no-totp');
  cli('channel-add', 'sim-first', simUrl());

  // the 管理员 logs in on /login and opens 通道 from the menu
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await login(page, ADMIN, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/ops$/);
  await page.getByRole('menu', { name: '主菜单' }).getByRole('menuitem', { name: /通道/ }).click();
  await expect(page).toHaveURL(/\/ops\/channels$/);
  const first = channelRow(page, 'sim-first');
  await expect(first).toContainText(`smpp://smsp@127.0.0.1:${e2eServer().simPort}`);
  await expect(first).toContainText('启用');
  // no default link while a channel is enabled
  await expect(page.getByTestId('default-link')).toHaveCount(0);
  // the workers reread the table within 2 s and report a bound link with their next counters
  await expect(first.getByTestId('channel-bound')).toHaveText('已连接 1/1');

  // live counters: client1 sends two messages (its API), sim-first's 提交 moves on the open page
  const before = await submitted(first);
  const client = await browser.newContext();
  const clientPage = await client.newPage();
  await apiLogin(clientPage, 'client1');
  const sent = await apiPost(clientPage, '/api/send/sending', {
    clientId: 'client1',
    sign: '好易购',
    smstype: '0',
    templateId: String(
      (await apiPost(clientPage, '/api/autoTemplate/commonlist', { page: '1', rows: '50' })).data.entityList.find(
        (t: { content: string }) => t.content === TEMPLATE,
      ).templateId,
    ),
    content: TEMPLATE,
    mobile: '13800138101,13800138102',
  });
  expect(sent.code, sent.msg).toBe(0);
  await client.close();
  await expect.poll(() => submitted(first), { timeout: 60_000 }).toBeGreaterThanOrEqual(before + 2);
  await shot(page, 'ops-channels-first');

  // 新增通道: sim-second at the same simulator
  await page.getByRole('button', { name: /新增通道/ }).click();
  const dialog = page.getByRole('dialog', { name: '新增通道' });
  await dialog.getByLabel('通道名').fill('sim-second');
  await dialog.getByLabel('地址').fill(simUrl());
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('通道已保存，运行中的工作进程数秒内生效')).toBeVisible();
  await expect(dialog).toBeHidden();
  const second = channelRow(page, 'sim-second');
  await expect(second).toContainText('启用');

  // 暂停 sim-first (asked first)
  await first.getByRole('button', { name: /暂\s*停/ }).click();
  await page
    .locator('.ant-popconfirm:not(.ant-popover-hidden)')
    .getByRole('button', { name: /暂\s*停/ })
    .click();
  await expect(page.getByText('通道已暂停')).toBeVisible();
  await expect(first).toContainText('已暂停');
  await expect(first.getByRole('button', { name: /恢\s*复/ })).toBeVisible();

  // the routing preview: a China Mobile number goes to sim-second alone, all of it
  const preview = page.getByTestId('route-preview');
  await preview.getByLabel('号码').fill('13800138000');
  await preview.getByRole('button', { name: /预\s*览/ }).click();
  const answer = preview.getByTestId('route-answer');
  await expect(answer).toContainText('移动');
  await expect(answer.getByRole('row').filter({ hasText: 'sim-second' })).toContainText('100%');
  await expect(answer.getByText('sim-first')).toHaveCount(0);

  // sim-second bound in the worker, which routes by the new table
  await expect(second.getByTestId('channel-bound')).toHaveText('已连接 1/1', { timeout: 60_000 });
  const firstBefore = await submitted(first);
  const secondBefore = await submitted(second);

  // client1 sends three messages from its console's send page
  await consoleSend(browser, ['13800138201', '13012345201', '18912345201']);

  // they go out through sim-second; the paused sim-first's counters stay
  await expect.poll(() => submitted(second), { timeout: 60_000 }).toBeGreaterThanOrEqual(secondBefore + 3);
  expect(await submitted(first)).toBe(firstBefore);
  await expect(second).toContainText(/计数于 \d\d:\d\d:\d\d/);
  await shot(page, 'ops-channels', true);

  // 监控: the messages of the last hour, sim-second among the channels
  await page.getByRole('menu', { name: '主菜单' }).getByRole('menuitem', { name: /监控/ }).click();
  await expect(page).toHaveURL(/\/ops\/monitor$/);
  const totals = page.getByTestId('channel-totals');
  // each process writes its counters every ~10 s: ask again until they are in
  await expect(async () => {
    await page.getByRole('button', { name: /刷\s*新/ }).click();
    const row = totals.getByRole('row').filter({ hasText: 'sim-second' });
    await expect(row).toBeVisible({ timeout: 3_000 });
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(Number(cells[1].replace(/,/g, ''))).toBeGreaterThanOrEqual(3);
  }).toPass({ timeout: 90_000 });
  await expect(totals.getByRole('row').filter({ hasText: 'sim-first' })).toBeVisible();
  const flow = page.getByRole('img', { name: '最近一小时每分钟受理、提交、成功、失败条数' });
  expect(Number(await flow.getAttribute('data-accepted'))).toBeGreaterThanOrEqual(5);
  expect(Number(await flow.getAttribute('data-submitted'))).toBeGreaterThanOrEqual(5);
  await expect(page.getByTestId('budget-alarms')).toContainText('额度提醒短信');
  await expect(page.getByTestId('budget-codes')).toContainText('验证码');
  await shot(page, 'ops-monitor', true);

  // 删除 sim-second (asked first), and sim-first with the CLI: back to the default link
  await page.getByRole('menu', { name: '主菜单' }).getByRole('menuitem', { name: /通道/ }).click();
  await second.getByRole('button', { name: /删\s*除/ }).click();
  await page
    .locator('.ant-popconfirm:not(.ant-popover-hidden)')
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await expect(page.getByText('通道已删除')).toBeVisible();
  await expect(second).toHaveCount(0);
  cli('channel-remove', 'sim-first');
  await page.getByRole('button', { name: /刷\s*新/ }).click();
  await expect(page.getByTestId('default-link')).toBeVisible();
  await expect(channelRow(page, '默认链路')).toContainText('内置模拟器');
  await context.close();
});
