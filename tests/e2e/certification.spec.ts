import { expect, test } from '@playwright/test';
import { apiLogin, apiPost as api, selectRow as select } from './helpers';

// newagent is certified afterwards in the operator console: tests/e2e/operator-review.spec.ts (it
// submits its documents there, an operator approves them in 审核 / 资质认证)
test('an uncertified agent is asked to certify before buying', async ({ page }) => {
  test.setTimeout(300_000);
  await apiLogin(page, 'newagent');
  await page.goto('/sms/smspurchaselayout/purchase');
  await expect(page.getByRole('cell', { name: '营销短信 1万条' })).toBeVisible({ timeout: 90_000 });
  await select(page, '营销短信 1万条');
  // 营销短信 1万条 is a package: whole packages only
  await page.getByLabel('营销短信 1万条 购买数量').fill('10000');
  await page.getByTestId('submit-order').click();
  const prompt = page.getByRole('dialog').filter({ hasText: '您尚未通过系统认证，是否前往资质认证？' });
  await expect(prompt).toBeVisible({ timeout: 20_000 });
  await prompt.getByRole('button', { name: '是' }).click();
  await expect(page).toHaveURL(/\/account\/info\/base\/auth$/);
  // the server refuses too
  const products = await api(page, '/api/sms/products', { keyword: 'YX-QW-1W' });
  const r = await api(page, '/api/sms/order/add', {
    product_id: String(products.data.list[0].product_id),
    num: '10000',
  });
  expect(r.msg).toBe('请先认证后再购买短信');
});
