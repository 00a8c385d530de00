import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';
import { apiLogin } from './helpers';

/** the first look after a navigation: a lazy page on a loaded two-core machine */
const SLOW = { timeout: 60_000 };

function cli(...args: string[]) {
  return execFileSync('npx', ['tsx', 'server/cli.ts', ...args], { env: { ...process.env, DATA_DIR: E2E_DATA_DIR }, encoding: 'utf8' });
}

test.describe('发票', () => {
  test('agent1 applies for a VAT invoice, sees it in the list, cancels it; the operator mails another', async ({ page }) => {
    // several page loads and two CLI runs: more than the default minute on a loaded two-core machine
    test.setTimeout(420_000);
    await apiLogin(page, 'agent1');
    await page.goto('/finance/invoice/add');
    // agent1's demo recharge (50,000.00, through the ledger) is invoiceable
    const can = page.getByTestId('can-amount');
    await expect(can).toHaveText(/^\d{1,3}(,\d{3})*\.\d{2}$/, SLOW);
    const before = Number((await can.textContent())!.replaceAll(',', ''));
    expect(before).toBeGreaterThan(1000);
    await expect(page.getByText('信息服务费')).toBeVisible();

    await page.getByLabel('增值税专用电子发票').check();
    await page.getByLabel('发票金额').fill('1000.50');
    // a retry finds the VAT information the first attempt saved: the bank is emptied by hand, and
    // the region is only empty on the first attempt
    await page.getByLabel('开户银行').fill('');
    await page.getByRole('button', { name: /提交申请/ }).click();
    await expect(page.getByText('开户银行不能为空')).toBeVisible();
    if (test.info().retry === 0) await expect(page.getByText('所在地区不能为空')).toBeVisible();

    await page.getByLabel('发票抬头').fill('上海云讯通信科技有限公司');
    await page.getByLabel('纳税人识别号').fill('91310115MA1K4ABCD1');
    await page.getByLabel('注册地址').fill('上海市浦东新区张江高科技园区碧波路690号');
    await page.getByLabel('注册电话').fill('021-12345678');
    await page.getByLabel('开户银行').fill('招商银行上海张江支行');
    await page.getByLabel('银行账号').fill('6225880212345678');
    await page.getByLabel('收件人', { exact: true }).fill('王建国');
    await page.getByLabel('收件人电话').fill('13800138001');
    // the province/city/district picker reads /static/scripts/city.json
    await page.getByTestId('region-cascader').click();
    await page.getByRole('menuitemcheckbox', { name: '上海市' }).click();
    await page.getByRole('menuitemcheckbox', { name: '市辖区' }).click();
    await page.getByRole('menuitemcheckbox', { name: '浦东新区' }).click();
    await page.getByLabel('详细地址').fill('碧波路690号3号楼');
    await page.screenshot({ path: 'test-results/e2e/invoice-apply.png', fullPage: true });
    await page.getByRole('button', { name: /提交申请/ }).click();

    const confirm = page.getByTestId('invoice-confirm');
    await expect(confirm).toContainText('上海市/市辖区/浦东新区');
    await expect(confirm).toContainText('1,000.50');
    await page.getByRole('button', { name: /确认提交/ }).click();
    await expect(page.getByText('发票申请已提交，请等待审核')).toBeVisible();
    await expect(page).toHaveURL(/\/finance\/invoice\/add\/list$/);

    const row = page.getByRole('row').filter({ hasText: '增值税专用电子发票' }).first();
    await expect(row).toContainText('待审核', SLOW);
    await expect(row).toContainText('1,000.50');
    await page.screenshot({ path: 'test-results/e2e/invoice-list.png', fullPage: true });

    // the amount is held
    const held = await page.request.post('/api/invoice/getCanInvoiceAmount', {
      headers: { 'x-xsrf-token': decodeURIComponent((await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '') },
    });
    expect(Number((await held.json()).data.canAmount)).toBeCloseTo(before - 1000.5, 2);

    await row.getByRole('button', { name: /详\s*情/ }).click();
    const detail = page.getByTestId('invoice-detail');
    await expect(detail).toContainText('招商银行上海张江支行', SLOW);
    await expect(detail).toContainText('碧波路690号3号楼');
    await page.getByRole('dialog', { name: '发票详情' }).getByRole('button', { name: 'Close' }).click();
    await expect(detail).toBeHidden(SLOW);

    await row.getByRole('button', { name: /取\s*消/ }).click();
    await expect(page.getByText('确定取消该发票申请吗？')).toBeVisible();
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page.getByText('发票申请已取消')).toBeVisible(SLOW);
    await expect(page.getByRole('row').filter({ hasText: '增值税专用电子发票' }).first()).toContainText('已取消');
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: '增值税专用电子发票' })
        .first()
        .getByRole('button', { name: /取\s*消/ }),
    ).toHaveCount(0);

    // back to the full amount; a second application is issued and mailed by the operator
    await page.goto('/finance/invoice/add');
    await expect(page.getByTestId('can-amount')).toHaveText(before.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }), SLOW);
    await page.getByLabel('增值税专用电子发票').check();
    // the VAT information saved by the first application fills the form
    await expect(page.getByLabel('开户银行')).toHaveValue('招商银行上海张江支行');
    await page.getByLabel('发票金额').fill('88');
    await page.getByRole('button', { name: /提交申请/ }).click();
    await expect(page.getByTestId('invoice-confirm')).toContainText('88.00', SLOW);
    await page.getByRole('button', { name: /确认提交/ }).click();
    await expect(page.getByText('发票申请已提交，请等待审核')).toBeVisible(SLOW);
    await expect(page).toHaveURL(/\/finance\/invoice\/add\/list$/, SLOW);
    const pending = cli('invoices', '0');
    const id = pending
      .split('\n')
      .find((l) => l.includes('88.00'))
      ?.trim()
      .split(/\s+/)[0];
    expect(id).toMatch(/^\d+$/);
    expect(cli('invoice-status', id!, '3')).toContain('开票中');
    expect(cli('invoice-status', id!, '4', '--express-company', '顺丰速运', '--express-no', 'SF1234567890')).toContain('已邮寄');
    await page.reload();
    const mailed = page.getByRole('row').filter({ hasText: '88.00' }).first();
    await expect(mailed).toContainText('已邮寄', SLOW);
    await mailed.getByRole('button', { name: /快递信息/ }).click();
    await expect(page.getByTestId('express-info')).toContainText('SF1234567890');
  });
});
