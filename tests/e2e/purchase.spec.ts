import { expect, test, type Page } from '@playwright/test';
import { apiLogin, apiPost as api, selectRow as select } from './helpers';

/**
 * Purchase end to end against the real server: agent1 buys two packages on the purchase page
 * (row selection, quantities, the confirmation with the total and the rebate), then sees its pools
 * grow and the SMS bill rows; the international price list. (An uncertified agent asked to
 * certify before buying is in certification.spec.ts, which runs it before it certifies newagent.)
 */

test.setTimeout(300_000);

/** agent1's remaining pieces of a product type (its own pools) */
async function pieces(page: Page, productType: number) {
  const r = await api(page, '/api/agent/newpools', { product_type: String(productType), pageRowCount: '200' });
  expect(r.code, r.msg).toBe(0);
  return (r.data.list as { client_id: string; remaining: number }[]).filter((p) => p.client_id === 'agent1').reduce((n, p) => n + p.remaining, 0);
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
  await select(page, '行业短信 1万条');
  await select(page, '通知短信 1万条');
  // a quantity rule, shown under the field
  await page.getByLabel('行业短信 1万条 购买数量').fill('012');
  await expect(row1.getByText('输入的数字格式不正确')).toBeVisible();
  await page.getByLabel('行业短信 1万条 购买数量').fill('10000');
  await page.getByLabel('通知短信 1万条 购买数量').fill('500');
  await page.screenshot({ path: 'test-results/purchase-page.png', fullPage: true });
  await page.getByTestId('submit-order').click();

  const dialog = page.getByRole('dialog', { name: '确认订单' });
  // 10000 × 0.0450 × 95 % = 427.50; 500 × 0.0460 × 95 % = 21.85; total 449.35, rebate 50.00, paid 399.35
  await expect(dialog.getByTestId('order-total')).toContainText('449.35');
  await expect(dialog.getByTestId('order-rebate')).toContainText('-50.00');
  await expect(dialog.getByTestId('order-paid')).toContainText('399.35');
  await page.screenshot({ path: 'test-results/purchase-confirm.png' });
  await dialog.getByRole('button', { name: '确认购买' }).click();
  await expect(page.getByText('购买成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('purchase-summary')).toContainText('0.00');

  expect(await pieces(page, 0)).toBe(industry0 + 10000);
  expect(await pieces(page, 4)).toBe(notice0 + 500);

  await page.goto('/sms/pools');
  await expect(page.getByRole('cell', { name: '10000条' }).first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole('cell', { name: '500条' }).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/purchase-pools.png', fullPage: true });

  await page.goto('/finance/bill');
  const bill1 = page.getByRole('row').filter({ hasText: '行业短信 1万条' });
  await expect(bill1).toContainText('+10000条', { timeout: 90_000 });
  await expect(bill1).toContainText('427.50');
  await expect(page.getByRole('row').filter({ hasText: '通知短信 1万条' })).toContainText('+500条');
  await page.screenshot({ path: 'test-results/purchase-bill.png', fullPage: true });

  await page.goto('/finance/rebate');
  await expect(page.getByTestId('rebate-figures')).toContainText('50.00', { timeout: 90_000 });
  await expect(page.getByRole('row').filter({ hasText: '返点扣除' })).toContainText('-50.00');

  await page.goto('/finance/record');
  await expect(page.getByRole('row').filter({ hasText: '通知' }).first()).toContainText('500条', { timeout: 90_000 });
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
