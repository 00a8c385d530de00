import { expect as baseExpect, test, type Page } from '@playwright/test';
import { apiLogin, onPage } from './helpers';

/**
 * 自有账单 end to end against the real server: agent1 opens 财务管理 → 自有账单 from the menu, sees
 * its balance and its ledger rows, sets a credit alarm (the form's messages first), then a
 * sub-account recharge takes the balance below it: the alarm SMS goes through the dispatcher and
 * the embedded SMPP simulator and shows in the agent's send tasks, once.
 */

async function call(page: Page, method: 'get' | 'post', url: string, form: Record<string, string> = {}) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res =
    method === 'get'
      ? await page.request.get(url)
      : await page.request.post(url, { headers: { 'x-xsrf-token': decodeURIComponent(xsrf) }, form });
  return (await res.json()) as { code: number; msg: string; data: any };
}

// a loaded 2-core machine renders slowly: more than the default 10 s per expectation
const expect = baseExpect.configure({ timeout: 60_000 });

const yuan = (v: string) =>
  `${Number(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} 元`;

test('agent1 sees its own bill and sets a credit alarm that really sends an SMS once', async ({ page }) => {
  test.setTimeout(240_000);
  await apiLogin(page, 'agent1');
  await page.goto('/');
  await page.getByRole('menuitem', { name: /财务管理/ }).click();
  await page.getByRole('menuitem', { name: '自有账单' }).click();
  await page.waitForURL(onPage('/finance/own'));

  const data = await call(page, 'get', '/api/finance/bill/data');
  expect(data.code).toBe(0);
  const ownBill = page.getByTestId('own-bill');
  await expect(ownBill.getByText(yuan(data.data.balance)).first()).toBeVisible();
  // the seeded top-up and the sub-account recharges are ledger rows of agent1
  const table = page.getByTestId('own-bill-table');
  await expect(table.getByText('对公转账充值')).toBeVisible();
  await expect(table.getByText('子账户充值').first()).toBeVisible();
  await expect(table.getByText('-1,200.00 元')).toBeVisible();
  // a recharge row names the sub-account it went to, not a raw request id
  const rechargeRow = table.getByRole('row').filter({ hasText: '-1,200.00 元' });
  await expect(rechargeRow).toContainText('子账户充值 client1（苏州好易购电子商务有限公司）');

  // the credit alarm: the form's messages, then a threshold just under the balance
  await page.getByRole('button', { name: /额度提醒/ }).click();
  const dialog = page.getByRole('dialog', { name: '额度提醒' });
  await dialog.getByLabel('提醒额度(元)').fill('1000001');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog.getByText('提醒额度不能大于100万')).toBeVisible();
  await dialog.getByLabel('提醒额度(元)').fill('12.5');
  await expect(dialog.getByText('提醒额度为大于0的整数，且不能为空')).toBeVisible();
  const threshold = String(Math.floor(Number(data.data.balance)) - 10);
  await dialog.getByLabel('提醒额度(元)').fill(threshold);
  await dialog.getByLabel('提醒手机号').fill('13800138001,13800138001');
  await expect(dialog.getByText('手机号码重复')).toBeVisible();
  // only agent1's own (verified) mobile may receive the free alarm SMS
  await dialog.getByLabel('提醒手机号').fill('13800138001,13912345678');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('提醒手机号只能填写本账户绑定的手机号（已通过验证码验证）').first()).toBeVisible();
  await dialog.getByLabel('提醒手机号').fill('13800138001');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('额度提醒设置成功')).toBeVisible();
  await expect(page.getByTestId('credit-alarm-summary')).toContainText('13800138001');

  // a recharge of client1 by 20.00 takes the balance below the threshold: one alarm SMS
  const rc = await call(page, 'post', '/api/client/recharge', { clientId: 'client1', amount: '20.00' });
  expect(rc.code, rc.msg).toBe(0);
  await page.reload();
  await expect(page.getByTestId('own-bill-table').getByText('-20.00 元').first()).toBeVisible();
  await expect(page.getByText(yuan(rc.data.agentBalance)).first()).toBeVisible();

  const alarmTasks = async () => {
    const r = await call(page, 'post', '/api/send/sendTask', { page: '1', rows: '50' });
    expect(r.code, r.msg).toBe(0);
    return (r.data.data ?? r.data.list ?? []).filter((t: { content: string }) =>
      t.content.includes(`提醒额度${threshold}元`),
    ) as {
      status: number;
      submitTotal: number;
      taskSchedule: number;
      content: string;
    }[];
  };
  // sent over SMPP to the simulator and its receipts recorded: the task completes
  await expect
    .poll(async () => (await alarmTasks()).map((t) => [t.submitTotal, t.taskSchedule]), { timeout: 30_000 })
    .toEqual([[1, 100]]);
  // still below: a second recharge sends nothing more
  expect((await call(page, 'post', '/api/client/recharge', { clientId: 'client1', amount: '1.00' })).code).toBe(0);
  await page.waitForTimeout(2500);
  expect(await alarmTasks()).toHaveLength(1);
  await page.screenshot({ path: 'test-results/own-bill.png', fullPage: true });
});

test('direct-charge agent0 and postpaid client3 are told how they are billed, and not offered what they would be refused', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // agent0 pays per message: no 购买 menu, no 剩余条数 link, a refusal that says why and where to go
  await apiLogin(page, 'agent0');
  await page.goto('/');
  await expect(page.getByTestId('billing-note')).toContainText('直充账户按条计费');
  await expect(page.getByRole('menuitem', { name: /购买/ })).toHaveCount(0);
  await expect(page.getByTestId('quick-links').getByRole('link', { name: '自有账单' })).toBeVisible();
  await expect(page.getByTestId('quick-links').getByRole('link', { name: '剩余条数' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/agent0-home.png', fullPage: true });
  await page.goto('/sms/smspurchaselayout/purchase');
  await expect(page.getByTestId('forbidden-reason')).toContainText('直充账户按条计费');
  await page.screenshot({ path: 'test-results/agent0-refused.png', fullPage: true });
  await page.getByTestId('forbidden-go').click();
  await page.waitForURL(onPage('/finance/own'));
  await page.goto('/finance/bill');
  await expect(page.getByTestId('forbidden-reason')).toContainText('直充账户按条计费');

  // client3 is postpaid: billed through agent1, it buys nothing and holds no pools
  await page.context().clearCookies();
  await apiLogin(page, 'client3');
  await page.goto('/');
  await expect(page.getByTestId('billing-note')).toContainText('后付费账户');
  await expect(page.getByTestId('quick-links').getByRole('link', { name: '账户余额' })).toBeVisible();
  await expect(page.getByTestId('quick-links').getByRole('link', { name: '购买短信' })).toHaveCount(0);
  await expect(page.getByTestId('quick-links').getByRole('link', { name: '剩余条数' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/client3-home.png', fullPage: true });
  await page.goto('/customer/finance/balance');
  await expect(page.getByTestId('own-balance').getByTestId('billing-note')).toContainText('由代理商与您结算');
  await page.screenshot({ path: 'test-results/client3-balance.png', fullPage: true });
  await page.goto('/sms/smspurchaselayout/purchase');
  await expect(page.getByTestId('forbidden-reason')).toContainText('后付费账户');
  await page.getByTestId('forbidden-go').click();
  await page.waitForURL(onPage('/customer/deliverlayout/customer/report/pre'));
});
