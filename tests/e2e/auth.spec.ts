import { expect, test } from '@playwright/test';
import { login, passSlider, smsCodeFor } from './helpers';

test.describe('foundation: log in, stay logged in, log out', () => {
  test('agent1 passes the slider, logs in, lands home, reloads, logs out', async ({ page }) => {
    await login(page, 'agent1', 'Demo1234');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('account')).toContainText('agent1');
    await page.reload();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('account')).toContainText('agent1');
    await page.getByRole('button', { name: /退出登录/ }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login\?redirect=/);
  });

  test('a wrong password shows the server message and re-arms the slider', async ({ page }) => {
    await login(page, 'agent0', 'wrong-password1');
    await expect(page.getByText('用户名或密码错误')).toBeVisible();
    await expect(page.getByText('验证通过')).toHaveCount(0);
    await expect(page.getByText('请按住滑块，拖到最右边')).toBeVisible();
  });

  test('a protected URL redirects to login and back after it', async ({ page }) => {
    await page.goto('/?from=e2e');
    await expect(page).toHaveURL(/\/login\?redirect=%2F%3Ffrom%3De2e/);
    await page.getByPlaceholder(/帐户名/).fill('client1');
    await page.getByPlaceholder('密码', { exact: true }).fill('Demo1234');
    await passSlider(page);
    await expect(page).toHaveURL(/\/\?from=e2e$/);
    await expect(page.getByTestId('account')).toContainText('client1');
  });

  test('an unknown route shows Not Found', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText('Not Found')).toBeVisible();
  });
});

test('registration with the SMS code from the outbox, then login as the new agent', async ({ page }) => {
  // the longest flow here (slider, code, registration, logout, slider, login): room for a busy machine
  test.setTimeout(120_000);
  const mobile = `139${String(Date.now()).slice(-8)}`;
  const email = `e2e${Date.now()}@example.com`;
  await page.goto('/register');
  await page.getByLabel(/个人\/公司名称/).fill('上海测试贸易有限公司');
  await page.getByLabel(/登录邮箱/).fill(email);
  await page.getByLabel(/^手机号/).fill(mobile);
  // an anonymous SMS code needs the slider first
  await page.getByRole('button', { name: /获取验证码|发送验证码/ }).click();
  await expect(page.getByText('请先完成滑块验证')).toBeVisible();
  await passSlider(page);
  await page.getByRole('button', { name: /获取验证码|发送验证码/ }).click();
  await expect(page.getByText(/\d+秒/)).toBeVisible();
  await page.getByLabel(/手机验证码/).fill(await smsCodeFor(mobile));
  await page.getByLabel(/^密码/).fill('Abc12345');
  await page.getByLabel(/确认密码/).fill('Abc12345');
  await page.getByRole('checkbox', { name: /阅读并同意/ }).check();
  await page.getByRole('button', { name: /注\s*册/ }).click();
  // REGISTER_AUTO_LOGIN is on by default: the new agent is logged in and offered certification
  await expect(page.getByText('注册成功')).toBeVisible();
  await expect(page.getByRole('button', { name: /去认证/ })).toBeVisible();
  await page.getByRole('button', { name: /返\s*回/ }).click();
  await expect(page.getByTestId('account')).toBeVisible();
  await page.getByRole('button', { name: /退出登录/ }).click();
  await expect(page).toHaveURL(/\/login/);
  await login(page, email, 'Abc12345');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(/您还未进行资质认证/)).toBeVisible();
});
