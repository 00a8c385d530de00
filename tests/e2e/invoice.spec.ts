import { expect, test, type Page } from '@playwright/test';
import { cli } from './server';
import { apiLogin, apiPost } from './helpers';

/** the first look after a navigation: a lazy page on a loaded two-core machine */
const SLOW = { timeout: 60_000 };

/** an account's invoiceable amount as the server says it (an agent: of its sub-account `clientId`) */
async function canAmountOf(page: Page, clientId?: string): Promise<string> {
  const r = await apiPost(page, '/api/invoice/getCanInvoiceAmount', clientId ? { clientId } : {});
  expect(r.code, r.msg).toBe(0);
  return r.data.canAmount as string;
}
const shown = (amount: string) =>
  Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const cents = (amount: string) => Math.round(Number(amount) * 100);

test.describe('发票', () => {
  test('agent1 applies for a VAT invoice, sees it in the list, cancels it; the operator mails another', async ({
    page,
  }) => {
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
      headers: {
        'x-xsrf-token': decodeURIComponent(
          (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '',
        ),
      },
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
    await expect(page.getByTestId('can-amount')).toHaveText(
      before.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
      SLOW,
    );
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
    expect(cli('invoice-status', id!, '4', '--express-company', '顺丰速运', '--express-no', 'SF1234567890')).toContain(
      '已邮寄',
    );
    await page.reload();
    const mailed = page.getByRole('row').filter({ hasText: '88.00' }).first();
    await expect(mailed).toContainText('已邮寄', SLOW);
    await mailed.getByRole('button', { name: /快递信息/ }).click();
    await expect(page.getByTestId('express-info')).toContainText('SF1234567890');
  });

  test('agent1 applies on behalf of its sub-account client1: client1’s amount, client1’s invoice', async ({
    page,
    browser,
  }) => {
    test.setTimeout(300_000);
    await apiLogin(page, 'agent1');
    const agentBefore = await canAmountOf(page);
    const subBefore = await canAmountOf(page, 'client1');
    // client1's recharges from agent1 (seed: 1,200.00) are its invoiceable amount
    expect(cents(subBefore)).toBeGreaterThan(10_000);
    // another agent's sub-account is refused
    expect((await apiPost(page, '/api/invoice/getCanInvoiceAmount', { clientId: 'client0' })).msg).toBe('无权访问');

    await page.goto('/finance/invoice/add');
    await expect(page.getByTestId('can-amount')).toHaveText(shown(agentBefore), SLOW);
    const account = page.getByTestId('invoice-account');
    await expect(account).toContainText('本账户');
    await account.click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: /^client1-/ })
      .click();
    // client1's amount and (empty) information
    await expect(page.getByTestId('can-amount')).toHaveAttribute('data-client', 'client1', SLOW);
    await expect(page.getByTestId('can-amount')).toHaveText(shown(subBefore));
    await expect(account).toContainText('client1-');

    await page.getByLabel('发票抬头').fill('杭州好易购网络科技有限公司');
    await page.getByLabel('纳税人识别号').fill('91330100MA2B3C4D5E');
    await page.getByLabel('电子邮箱').fill('fp@client1.demo.local');
    await page.getByLabel('手机号码').fill('13900139001');
    // more than client1 may invoice (though agent1 could): refused on the field
    await page.getByLabel('发票金额').fill((Number(subBefore) + 0.01).toFixed(2));
    await page.getByRole('button', { name: /提交申请/ }).click();
    await expect(page.getByText(`发票金额不能大于可开票金额（可开票金额 ${subBefore} 元）`)).toBeVisible();

    await page.getByLabel('发票金额').fill('66.60');
    await page.getByRole('button', { name: /提交申请/ }).click();
    const confirm = page.getByTestId('invoice-confirm');
    await expect(confirm).toContainText('client1-', SLOW);
    await expect(confirm).toContainText('66.60');
    await page.getByRole('button', { name: /确认提交/ }).click();
    await expect(page.getByText('发票申请已提交，请等待审核')).toBeVisible(SLOW);
    await expect(page).toHaveURL(/\/finance\/invoice\/add\/list$/, SLOW);
    const row = page.getByRole('row').filter({ hasText: '杭州好易购网络科技有限公司' }).first();
    await expect(row).toContainText('待审核', SLOW);
    await expect(row).toContainText('client1-');
    await expect(row).toContainText('66.60');

    // held from client1's amount, not agent1's
    expect(cents(await canAmountOf(page, 'client1'))).toBe(cents(subBefore) - 6660);
    expect(await canAmountOf(page)).toBe(agentBefore);

    // client1 sees its invoice (applied for by agent1) and chooses no account itself
    const ctx = await browser.newContext();
    try {
      const sub = await ctx.newPage();
      await apiLogin(sub, 'client1');
      await sub.goto('/finance/invoice/add/list');
      const mine = sub.getByRole('row').filter({ hasText: '杭州好易购网络科技有限公司' }).first();
      await expect(mine).toContainText('66.60', SLOW);
      await mine.getByRole('button', { name: /详\s*情/ }).click();
      await expect(sub.getByTestId('invoice-detail')).toContainText('agent1-', SLOW);
      await sub.goto('/finance/invoice/add');
      await expect(sub.getByTestId('can-amount')).toHaveText(shown((Number(subBefore) - 66.6).toFixed(2)), SLOW);
      await expect(sub.getByTestId('invoice-account')).toHaveCount(0);
      // its own information now holds what agent1 entered for it
      await expect(sub.getByLabel('发票抬头')).toHaveValue('杭州好易购网络科技有限公司');
    } finally {
      await ctx.close();
    }
  });
});
