/**
 * Agent1 opens a sub-account, recharges it, logs in as it; the sub-account sees its balance.
 * The operator CLI then checks the new account's ledger against the running server.
 */
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { e2eServer } from './server';
import { apiLogin } from './helpers';

test('agent opens a sub-account, recharges it and logs in as it', async ({ page }) => {
  await apiLogin(page, 'agent1');
  await page.goto('/customer/selfsevicelayout/manager/open');
  const name = `杭州端到端测试${Date.now() % 100000}`;
  const mobile = `136${String(Date.now()).slice(-8)}`;
  await page.getByLabel('账户名称').fill(name);
  await page.getByLabel('手机号').fill(mobile);
  await page.getByRole('button', { name: /确认开户/ }).click();
  await expect(page.getByText('开户成功')).toBeVisible();
  const result = page.getByTestId('open-result');
  const clientid = (await result.locator('td').first().innerText()).trim();
  expect(clientid).toMatch(/^[a-z][a-z0-9]{5}$/);
  await expect(page.getByTestId('new-password')).toHaveText(/^[A-Za-z0-9]{10}$/);

  await page.getByRole('button', { name: '返回子账户管理' }).click();
  await page.getByPlaceholder('账户/名称/手机号/邮箱').fill(clientid);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const row = page.locator('tr', { hasText: clientid });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('0.00 元')).toBeVisible();

  await row.getByRole('button', { name: '充值' }).click();
  // the form's dialog (a money move asks once more in a confirm dialog of its own)
  const dialog = page.locator('.ant-modal:not(.ant-modal-confirm)');
  const confirm = page.locator('.ant-modal-confirm');
  await dialog.getByLabel('充值金额(元)').fill('88.88');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(confirm).toContainText(`确认给`);
  await expect(confirm).toContainText(`（${clientid}）充值 88.88 元？`);
  await confirm.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('充值成功')).toBeVisible();
  await expect(row.getByText('88.88 元')).toBeVisible();

  // an overdraft is refused in the dialog and changes nothing
  await row.getByRole('button', { name: '回退' }).click();
  await dialog.getByLabel('回退金额(元)').fill('100.00');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(confirm).toContainText('回退 100.00 元？');
  await confirm.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog.getByTestId('transfer-error')).toContainText('回退金额不能大于子账户余额');
  // a refusal does not lock the form: the amount can be corrected at once
  await expect(dialog.getByText('3秒内不可重复提交')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /确\s*定/ })).toBeEnabled();
  await dialog.getByRole('button', { name: /取\s*消/ }).click();

  // the ledger of the new account, through the operator CLI against the running server
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'ledger', clientid], {
    env: { ...process.env, DATA_DIR: e2eServer().dataDir },
    encoding: 'utf8',
  });
  expect(out).toContain('88.88');
  expect(out).toContain('校验：一致');

  await row.getByRole('button', { name: '登录' }).click();
  await page.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page.getByText('登录成功')).toBeVisible();
  await page.waitForURL((u) => u.pathname === '/');
  const who = await (await page.request.get('/api/admin/info')).json();
  expect(who.data.clientid).toBe(clientid);

  await page.goto('/customer/finance/balance');
  await expect(page.getByTestId('own-balance')).toContainText('88.88 元');
  await expect(page.getByTestId('own-balance')).toContainText('子账户充值');
});
