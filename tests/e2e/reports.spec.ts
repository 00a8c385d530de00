import fs from 'node:fs';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { apiLogin, onPage } from './helpers';

/**
 * Reports, the dashboard and the remaining pools end to end against the real server: client1
 * sends and its dashboard's today figures and week chart move; agent1 opens the consumption
 * report, a daily view and exports it; /remain shows client1's pools with the expiring one marked.
 * Saves docs/screenshots/dashboard.png and docs/screenshots/report.png.
 */

/** pages load their chunks lazily: on a loaded two-core machine the first paint can take a while */
const expect = baseExpect.configure({ timeout: 60_000 });
test.describe.configure({ timeout: 300_000 });

const NUMBERS = ['13800138001', '13012345678', '18912345678'];
const TEMPLATE = '您的账户余额已不足，为避免影响正常使用，请及时充值。';

async function todaySubmitted(page: Page) {
  const el = page.getByTestId('today-submitTotal');
  await expect(el).toBeVisible();
  return Number((await el.locator('.ant-statistic-content-value').innerText()).replace(/,/g, ''));
}

async function chartToday(page: Page) {
  const chart = page.getByTestId('week-chart');
  await expect(chart.locator('canvas')).toBeVisible();
  return Number(await chart.getAttribute('data-today'));
}

test.describe('报表与首页', () => {
  test('client1 sends: the dashboard’s today figures and week chart move', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 1000 });
    await apiLogin(page, 'client1');
    await page.goto('/');
    await expect(page.getByTestId('header-balances')).toContainText('剩余（条）');
    await expect(page.getByTestId('api-info')).toContainText('******');
    const before = await todaySubmitted(page);
    const chartBefore = await chartToday(page);
    const today = async () =>
      (await (await page.request.get('/api/index/dataoftoday')).json()).data as { sending: number };
    const sendingBefore = (await today()).sending;

    await page.goto('/customer/deliverlayout/deliver');
    await page.getByTestId('pick-template').click();
    const picker = page.getByRole('dialog', { name: '选择模板' });
    await picker.getByRole('tab', { name: '通用模板' }).click();
    await picker.getByRole('row').filter({ hasText: TEMPLATE }).getByRole('button', { name: '选择' }).click();
    await expect(picker).toBeHidden();
    // the sign is one of the account's approved signs (the template's 云讯通 is not client1's)
    await page.getByTestId('sign-select').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: /^好易购$/ })
      .click();
    await page.getByTestId('numbers-input').fill(NUMBERS.join('\n'));
    await expect(page.getByTestId('number-counts')).toContainText(`有效号码：${NUMBERS.length}`);
    await page.getByTestId('submit').click();
    await page.getByRole('dialog', { name: '发送确认' }).getByRole('button', { name: '确认发送' }).click();
    await page.waitForURL(onPage('/customer/deliverlayout/smstask'), { timeout: 10_000 });

    await page.goto('/');
    await expect.poll(() => todaySubmitted(page)).toBe(before + NUMBERS.length);
    await expect.poll(() => chartToday(page)).toBe(chartBefore + NUMBERS.length);
    // the receipts come back within a second: the three leave 发送中 again (the API, not a page reload per try)
    await expect.poll(async () => (await today()).sending, { timeout: 60_000 }).toBe(sendingBefore);
    await page.reload();
    await expect(page.getByTestId('week-chart').locator('canvas')).toBeVisible();
    await page.screenshot({ path: 'docs/screenshots/dashboard.png', fullPage: false });
  });

  test('agent1 opens the consumption report, a daily view, and exports it', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 820 });
    await apiLogin(page, 'agent1');
    await page.goto('/');
    await page.getByTestId('quick-links').getByText('消费报表').click();
    await page.waitForURL(onPage('/customer/deliverlayout/customer/report/pre'));
    await expect(page.getByRole('tab', { name: '子账户(预付费)' })).toHaveAttribute('aria-selected', 'true');
    const row = page.getByRole('row').filter({ hasText: 'client1' }).first();
    await expect(row).toBeVisible();
    await page.screenshot({ path: 'docs/screenshots/report.png' });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /导\s*出/ }).click();
    expect((await download).suggestedFilename()).toMatch(/^消费报表_.*\.xlsx$/);

    await row.getByRole('link', { name: '日报表' }).click();
    await page.waitForURL(onPage('/customer/report/daily_post?id=client1&paytype=0'));
    await expect(page.getByText('日报表 client1')).toBeVisible();
    const days = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(days.first()).toBeVisible();
    expect(await days.count()).toBeGreaterThan(0);
    const dl = page.waitForEvent('download');
    await page.getByRole('button', { name: /导\s*出/ }).click();
    const file = await dl;
    expect(file.suggestedFilename()).toMatch(/^日报表_.*\.xlsx$/);
    const saved = await file.path();
    expect(fs.readFileSync(saved).subarray(0, 2).toString()).toBe('PK');

    await page.getByRole('button', { name: /返\s*回/ }).click();
    await page.waitForURL(onPage('/customer/deliverlayout/customer/report/pre'));
    await page.getByRole('tab', { name: '子账户(后付费)' }).click();
    await page.waitForURL(onPage('/customer/deliverlayout/customer/report/post'));
  });

  test('agent1’s report reaches today (live) with a totals row, success rates and the delivery analysis', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await apiLogin(page, 'agent1');
    await page.goto('/customer/deliverlayout/customer/report/pre');
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
    await expect(page.locator('.ant-picker input').nth(1)).toHaveValue(today);
    await expect(page.getByText('今日数据为实时统计')).toBeVisible();
    const totals = page.getByTestId('report-totals');
    await expect(totals).toContainText('合计');
    await expect(page.getByTestId('report-totals-rate')).toContainText('%');
    // client1's demo sends of the last days are in (its own and its sub-accounts' figures)
    await expect(page.getByRole('row').filter({ hasText: 'client1' }).first()).toContainText('%');
    const analytics = page.getByTestId('delivery-analytics');
    await expect(analytics.getByTestId('day-chart').locator('canvas')).toBeVisible();
    await expect(analytics.getByTestId('carrier-chart').locator('canvas')).toBeVisible();
    await expect(analytics.getByTestId('province-table')).toBeVisible();
    await analytics.getByText('近30天').click();
    await expect(analytics.getByTestId('day-chart').locator('canvas')).toBeVisible();
    await page.screenshot({ path: 'docs/screenshots/report-analytics.png', fullPage: true });
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.screenshot({ path: 'test-results/report-analytics-1024.png', fullPage: true });

    // the home page's card: carriers' success rate and the main failure reasons
    await page.goto('/');
    const card = page.getByTestId('delivery-analytics');
    await expect(card.getByTestId('carrier-chart').locator('canvas')).toBeVisible();
    await expect(card.getByTestId('top-reasons')).toContainText('主要失败原因');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/home-analytics-1024.png', fullPage: true });
  });

  test('/remain shows client1’s pools with the expiring one marked', async ({ page }) => {
    await apiLogin(page, 'client1');
    await page.goto('/');
    await page.getByTestId('quick-links').getByText('剩余条数').click();
    await page.waitForURL(onPage('/remain?type=0'));
    const expiring = page.getByRole('row').filter({ hasText: '即将过期' });
    await expect(expiring).toHaveCount(1);
    await expect(expiring).toContainText('行业');
    // a sub-account sees no summary row
    await expect(page.getByTestId('remain-summary-own')).toHaveCount(0);
    await page.getByRole('button', { name: /返回首页/ }).click();
    await page.waitForURL(/\/$/);

    await page.context().clearCookies();
    await apiLogin(page, 'agent1');
    await page.goto('/remain');
    await expect(page.getByRole('row').filter({ hasText: 'client1' }).first()).toBeVisible();
    await expect(page.getByTestId('remain-summary-sub')).toContainText('合计（子账户）');
  });
});
