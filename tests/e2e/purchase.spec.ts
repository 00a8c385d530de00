import { expect, test, type Page } from '@playwright/test';
import { apiLogin, apiPost as api, onPage } from './helpers';

/**
 * Purchase end to end against the real server: agent1 buys two packages on the purchase page
 * (typed quantities select their rows, the package rule, the confirmation with list prices, the
 * total and the rebate as a choice, the way on after the order), then sees its pools grow and the
 * SMS bill rows at the price charged; the international price list. (An uncertified agent asked to
 * certify before buying is in certification.spec.ts; operator-review.spec.ts certifies newagent later.)
 */

test.setTimeout(300_000);

/** agent1's remaining pieces of a product type (its own pools) */
async function pieces(page: Page, productType: number) {
  const r = await api(page, '/api/agent/newpools', { product_type: String(productType), pageRowCount: '200' });
  expect(r.code, r.msg).toBe(0);
  return (r.data.list as { client_id: string; remaining: number }[])
    .filter((p) => p.client_id === 'agent1')
    .reduce((n, p) => n + p.remaining, 0);
}

test('agent1 buys two packages and sees the pools grow and the bill rows', async ({ page }) => {
  await apiLogin(page, 'agent1');
  const industry0 = await pieces(page, 0);
  const notice0 = await pieces(page, 4);

  await page.goto('/sms/smspurchaselayout/purchase');
  await expect(page.getByRole('cell', { name: '行业短信 1万条' })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('purchase-summary')).toContainText('50.00');

  // nothing selected
  await page.getByTestId('submit-order').click();
  await expect(page.getByText('请选择要购买的短信')).toBeVisible();

  const row1 = page.getByRole('row').filter({ hasText: '行业短信 1万条' });
  // a typed quantity selects its row (no checkbox click): what is typed is what is ordered
  await page.getByLabel('行业短信 1万条 购买数量').fill('abc');
  await expect(row1.getByText('购买数量为大于0的整数')).toBeVisible();
  await expect(row1.getByRole('checkbox')).toBeChecked();
  await page.getByLabel('行业短信 1万条 购买数量').fill('012');
  await expect(row1.getByText('输入的数字格式不正确')).toBeVisible();
  // a 1万条 product is sold by whole packages
  await page.getByLabel('行业短信 1万条 购买数量').fill('500');
  await expect(row1.getByText('该产品为 10,000条 的套餐，购买数量须为 10,000条 的整数倍')).toBeVisible();
  await page.getByTestId('submit-order').click();
  await expect(page.getByText('该产品为 10,000条 的套餐，购买数量须为 10,000条 的整数倍').first()).toBeVisible();
  await page.getByLabel('行业短信 1万条 购买数量').fill('10000');
  await page.getByLabel('通知短信 1万条 购买数量').fill('10000');
  await expect(page.getByRole('row').filter({ hasText: '通知短信 1万条' }).getByRole('checkbox')).toBeChecked();
  // a cleared quantity unselects its row
  await page.getByLabel('行业短信 移动专享 购买数量').fill('7');
  await page.getByLabel('行业短信 移动专享 购买数量').fill('');
  await expect(page.getByRole('row').filter({ hasText: '行业短信 移动专享' }).getByRole('checkbox')).not.toBeChecked();
  await page.screenshot({ path: 'test-results/purchase-page.png', fullPage: true });
  await page.getByTestId('submit-order').click();

  const dialog = page.getByRole('dialog', { name: '确认订单' });
  // list prices, discount and totals: 10000 × 0.0450 × 95 % = 427.50; 10000 × 0.0460 × 95 % = 437.00; total 864.50
  await expect(dialog.getByRole('row').filter({ hasText: '行业短信 1万条' })).toContainText('0.0450');
  await expect(dialog.getByRole('row').filter({ hasText: '行业短信 1万条' })).toContainText('95.00%');
  await expect(dialog.getByRole('row').filter({ hasText: '行业短信 1万条' })).toContainText('0.04275');
  await expect(dialog.getByTestId('order-list-total')).toContainText('910.00');
  await expect(dialog.getByTestId('order-total')).toContainText('864.50');
  // the rebate is a choice, offered and checked; unchecking it pays all from the balance
  await expect(dialog.getByTestId('order-rebate')).toContainText('-50.00');
  await expect(dialog.getByTestId('order-paid')).toContainText('814.50');
  await dialog.getByTestId('use-rebate').click();
  await expect(dialog.getByTestId('order-paid')).toContainText('864.50');
  await expect(dialog.getByTestId('order-rebate')).toHaveCount(0);
  await dialog.getByTestId('use-rebate').click();
  await expect(dialog.getByTestId('order-paid')).toContainText('814.50');
  await page.screenshot({ path: 'test-results/purchase-confirm.png' });
  await dialog.getByRole('button', { name: '确认购买' }).click();
  await expect(dialog).toBeHidden();
  // the order and the way on
  const done = page.getByTestId('purchase-done');
  await expect(done).toContainText('购买成功，订单号');
  await expect(done).toContainText('814.50');
  await expect(page.getByTestId('purchase-summary')).toContainText('0.00');
  await page.screenshot({ path: 'test-results/purchase-done.png', fullPage: true });

  expect(await pieces(page, 0)).toBe(industry0 + 10000);
  expect(await pieces(page, 4)).toBe(notice0 + 10000);

  await done.getByRole('button', { name: '查看剩余条数' }).click();
  await page.waitForURL(onPage('/remain'));
  await expect(page.getByRole('cell', { name: '10,000 条' }).first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('remain-summary-own')).toContainText('合计（本账户）');
  await expect(page.getByTestId('remain-summary-sub')).toContainText('合计（子账户）');
  await page.screenshot({ path: 'test-results/purchase-pools.png', fullPage: true });
  // the older path of the pools is the same page
  await page.goto('/sms/pools');
  await page.waitForURL(onPage('/remain'));

  await page.goto('/finance/bill');
  const bill1 = page.getByRole('row').filter({ hasText: '行业短信 1万条' });
  await expect(bill1).toContainText('+10,000条', { timeout: 90_000 });
  await expect(bill1).toContainText('427.50');
  // the price charged, not the list price
  await expect(bill1.getByTestId('bill-unit-price')).toHaveText('0.0428');
  await expect(page.getByRole('row').filter({ hasText: '通知短信 1万条' })).toContainText('+10,000条');
  await page.screenshot({ path: 'test-results/purchase-bill.png', fullPage: true });

  await page.goto('/finance/rebate');
  await expect(page.getByTestId('rebate-figures')).toContainText('50.00', { timeout: 90_000 });
  await expect(page.getByRole('row').filter({ hasText: '返点扣除' })).toContainText('-50.00');

  await page.goto('/finance/record');
  await expect(page.getByRole('row').filter({ hasText: '通知' }).first()).toContainText('10,000条', {
    timeout: 90_000,
  });
  await page.screenshot({ path: 'test-results/purchase-record.png', fullPage: true });
});

test('the international price list searches GET /sms/gj/prices', async ({ page }) => {
  await apiLogin(page, 'agent1');
  const probe = await page.request.get('/api/sms/gj/prices');
  test.skip(probe.status() === 404, 'GET /sms/gj/prices belongs to the international send and is not there yet');
  await page.goto('/sms/smspurchaselayout/purchase/international');
  await expect(page.getByRole('tab', { name: '国际短信价格', selected: true })).toBeVisible({ timeout: 90_000 });
  const body = await probe.json();
  const rows = (Array.isArray(body.data) ? body.data : (body.data?.list ?? [])) as { areaname: string }[];
  if (rows.length) {
    await expect(page.getByRole('cell', { name: rows[0].areaname }).first()).toBeVisible();
    await page.getByLabel('搜索国家/地区').fill(rows[0].areaname);
    await page.getByLabel('搜索国家/地区').press('Enter');
    await expect(page.getByRole('cell', { name: rows[0].areaname }).first()).toBeVisible();
  }
});
