import { expect as baseExpect, test, type Page } from '@playwright/test';
import { apiLogin, apiPost } from './helpers';

/**
 * Online recharge end to end against the real server: agent1 recharges through the sandbox
 * provider (the pay dialog's QR code opens the sandbox scan page, 确认支付 sends the signed
 * notification), sees the pay order succeed and the balance rise once. 我已完成支付 before paying
 * is answered 尚未收到付款 (the dialog stays), and opening the payment again for the same amount
 * and mode shows the same order.
 */

// a shared 2-core machine: the first screens can take a while
const expect = baseExpect.configure({ timeout: 60_000 });

async function balance(page: Page): Promise<string> {
  const r = await (await page.request.get('/api/index/data')).json();
  expect(r.code, r.msg).toBe(0);
  return r.data.balance as string;
}

test.describe('在线充值', () => {
  test('agent1 recharges online through the sandbox: the order is paid and the balance rises once', async ({
    page,
    context,
  }) => {
    test.setTimeout(300_000);
    await apiLogin(page, 'agent1');
    const before = await balance(page);

    await page.goto('/finance/payorder');
    await expect(page.getByRole('columnheader', { name: '支付订单号' })).toBeVisible();
    await page.getByTestId('online-recharge').click();
    const recharge = page.getByRole('dialog', { name: '在线充值' });
    await recharge.getByRole('button', { name: '去支付' }).click();
    await expect(recharge).toContainText('请输入充值金额');
    await recharge.getByLabel('充值金额（元）').fill('0.5');
    await recharge.getByRole('button', { name: '去支付' }).click();
    await expect(recharge).toContainText('充值金额为1元至100万元');
    await recharge.getByLabel('充值金额（元）').fill('88.88');
    await recharge.getByText('微信支付').click();
    await recharge.getByRole('button', { name: '去支付' }).click();

    const pay = page.getByRole('dialog', { name: '扫码支付' });
    await expect(pay.getByTestId('pay-qrcode')).toBeVisible();
    await expect(pay.getByTestId('pay-amount')).toHaveText('¥ 88.88');
    await expect(pay.getByTestId('pay-countdown')).toContainText(/剩余支付时间 1[45]:\d\d/);
    await expect(pay).toContainText('请使用微信扫描二维码完成支付');
    const scanUrl = await pay.getByTestId('pay-link').getAttribute('href');
    expect(scanUrl).toContain('/api/onlinePay/sandbox/scan?paymentId=');
    const paymentId = new URL(scanUrl!).searchParams.get('paymentId')!;
    await expect(pay).toContainText(paymentId);

    // 我已完成支付 before paying: the server has no payment, the dialog stays and says so
    await expect(pay.getByTestId('pay-not-received')).toHaveCount(0);
    await pay.getByRole('button', { name: '我已完成支付' }).click();
    await expect(pay.getByTestId('pay-not-received')).toHaveText('尚未收到付款');
    await expect(pay).toBeVisible();
    await expect(pay.getByTestId('pay-qrcode')).toBeVisible();
    await expect(pay.getByTestId('pay-countdown')).toBeVisible();

    // closed and opened again for the same amount and mode: the same order, not another 待支付 one
    await pay.getByRole('button', { name: 'Close' }).click();
    await expect(pay).toBeHidden();
    await page.getByTestId('online-recharge').click();
    await recharge.getByLabel('充值金额（元）').fill('88.88');
    await recharge.getByText('微信支付').click();
    await recharge.getByRole('button', { name: '去支付' }).click();
    await expect(pay.getByTestId('pay-qrcode')).toBeVisible();
    await expect(pay).toContainText(paymentId);
    expect(await pay.getByTestId('pay-link').getAttribute('href')).toBe(scanUrl);
    await expect(pay.getByTestId('pay-not-received')).toHaveCount(0);
    const open = await apiPost(page, '/api/onlinePay/queryPayOrder', { paymentState: '0', rows: '200' });
    expect(open.code, open.msg).toBe(0);
    expect(
      open.data.data
        .filter((o: { paymentAmountStr: string }) => o.paymentAmountStr === '88.88')
        .map((o: { paymentId: string }) => o.paymentId),
    ).toEqual([paymentId]);

    // the payer's phone: the sandbox scan page
    const phone = await context.browser()!.newContext();
    const scan = await phone.newPage();
    await scan.goto(scanUrl!);
    await expect(scan.getByText('沙箱支付')).toBeVisible();
    await expect(scan.getByText('¥ 88.88')).toBeVisible();
    await scan.getByRole('button', { name: '确认支付' }).click();
    await expect(scan.getByTestId('sandbox-result')).toHaveText('支付成功');

    // the dialog sees it (polling) and the list shows the paid order
    await expect(pay.getByTestId('pay-result')).toContainText('支付成功', { timeout: 15_000 });
    await pay.getByRole('button', { name: /^关\s*闭$/ }).click();
    const row = page.locator(`tr[data-row-key="${paymentId}"]`);
    await expect(row).toContainText('支付成功');
    await expect(row).toContainText('88.88');
    await expect(row).toContainText('微信支付');
    await expect(row.getByTestId('row-pay')).toHaveCount(0);

    const after = await balance(page);
    expect(Math.round(Number(after) * 100) - Math.round(Number(before) * 100)).toBe(8888);

    // confirming again on the scan page credits nothing more
    await scan.goto(scanUrl!);
    await expect(scan.getByTestId('sandbox-result')).toHaveText('订单已支付');
    await expect(scan.getByRole('button', { name: '确认支付' })).toHaveCount(0);
    expect(await balance(page)).toBe(after);
    await phone.close();

    // an unpaid order counts down and can be cancelled from the list
    await page.getByTestId('online-recharge').click();
    await recharge.getByLabel('充值金额（元）').fill('10');
    await recharge.getByRole('button', { name: '去支付' }).click();
    await expect(pay.getByTestId('pay-countdown')).toBeVisible();
    const second = new URL((await pay.getByTestId('pay-link').getAttribute('href'))!).searchParams.get('paymentId')!;
    // a new order: the paid one of that amount is never shown again
    expect(second).not.toBe(paymentId);
    await pay.getByRole('button', { name: '我已完成支付' }).click();
    await expect(pay.getByTestId('pay-not-received')).toHaveText('尚未收到付款');
    await pay.getByRole('button', { name: 'Close' }).click();
    await expect(pay).toBeHidden();
    const unpaid = page.locator(`tr[data-row-key="${second}"]`);
    await expect(unpaid).toContainText('待支付');
    await expect(unpaid.getByTestId('row-countdown')).toHaveText(/1[45]:\d\d/);
    await unpaid.getByTestId('row-cancel').click();
    await page
      .getByRole('dialog')
      .filter({ hasText: '确定取消该支付订单吗？' })
      .getByRole('button', { name: /^确\s*定$/ })
      .click();
    await expect(unpaid).toContainText('已取消');
    await expect(unpaid).toContainText('用户取消');
    await expect(unpaid.getByTestId('row-cancel')).toHaveCount(0);
    expect(await balance(page)).toBe(after);
  });
});
