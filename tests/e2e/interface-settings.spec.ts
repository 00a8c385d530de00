/**
 * 接口信息 (issues 24, 36): agent1 reads a sub-account's interface info (the real SMPP and CMPP ports, the HTTP
 * API's URL from PAY_PUBLIC_URL, the masked interface password), edits its whitelist, speed and
 * report mode, is refused a bad whitelist, and the server keeps what was saved. client2 (frozen)
 * is used, so the demo accounts other tests send with keep their settings.
 */
import { expect, test } from '@playwright/test';
import { apiLogin } from './helpers';
import { e2eServer } from './server';

test('agent edits a sub-account’s interface settings', async ({ page }) => {
  await apiLogin(page, 'agent1');
  await page.goto('/customer/selfsevicelayout/manager');
  const row = page.locator('tr', { hasText: 'client2' });
  await row.getByRole('button', { name: '接口信息' }).click();
  const info = page.locator('.ant-modal').filter({ has: page.getByTestId('interface-info') });
  // the listeners' real ports (npm start's SMPP 2775 and CMPP 7890 in the first project, others' their
  // own: playwright.config.ts), client2's CMPP login still to be made
  const { smppPort, cmppPort } = e2eServer();
  await expect(info.getByText(`127.0.0.1:${smppPort}`)).toBeVisible();
  await expect(info.getByText(`127.0.0.1:${cmppPort}`)).toBeVisible();
  await expect(info.getByTestId('cmpp-login')).toHaveText('登录名：重置接口密码后生成');
  await expect(info.getByText(/^http:\/\/127\.0\.0\.1:\d+\/openapi\/v1$/)).toBeVisible();
  // client2 dates from before interface passwords: 未设置 (a reset gives it one)
  await expect(info.getByTestId('interface-password')).toHaveText(/^(\*{8}|未设置)$/);

  await info.getByRole('button', { name: '修改接口设置' }).click();
  const edit = page.locator('.ant-modal').filter({ has: page.getByLabel('速率(条/秒)') });
  await edit.getByLabel('速率(条/秒)').fill('250');
  await edit.getByLabel('最大连接数').fill('4');
  // a block wider than /8 is refused by the server, nothing saved
  await edit.getByLabel('IP白名单').fill('10.0.0.0/4');
  await edit.getByRole('button', { name: /确\s*定/ }).click();
  await expect(edit.getByTestId('interface-edit-error')).toContainText('IP白名单格式不正确：10.0.0.0/4');

  await edit.getByLabel('IP白名单').fill('203.0.113.7, 198.51.100.0/24');
  await edit.getByLabel('状态报告', { exact: true }).click({ force: true });
  await page.getByTitle('透传状态报告').click();
  await edit.getByRole('radio', { name: '支持', exact: true }).check();
  await edit.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('接口设置已保存')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(info.getByText('203.0.113.7, 198.51.100.0/24')).toBeVisible();
  await expect(info.getByText('透传状态报告')).toBeVisible();

  // read again from the server: the dialog fetches afresh when it opens
  await info.getByRole('button', { name: /关\s*闭|Close/ }).click();
  await expect(info).toBeHidden();
  await row.getByRole('button', { name: '接口信息' }).click();
  await expect(info.getByText('203.0.113.7, 198.51.100.0/24')).toBeVisible();
  await expect(info.getByText('250', { exact: true })).toBeVisible();
  await expect(info.getByText('透传状态报告')).toBeVisible();
  await expect(info.getByText('支持', { exact: true })).toBeVisible();
});
