import { expect as baseExpect, test } from '@playwright/test';
import { apiLogin } from './helpers';

const expect = baseExpect.configure({ timeout: 30_000 });

/**
 * Issue 41 item 1: a network blip is not a logout, and a page whose code cannot load says so with
 * a reload instead of leaving a blank page.
 */
test('with the server unreachable a menu click keeps the user in, a failed chunk offers a reload, both recover', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await apiLogin(page, 'client1');
  await page.goto('/');
  await expect(page.getByTestId('account')).toContainText('client1', { timeout: 60_000 });

  // the server goes away: every API call fails at the network
  await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
  await page.getByRole('menu', { name: '主菜单' }).getByRole('link', { name: '公告' }).click();
  await expect(page).toHaveURL(/\/notice\/notice$/);
  await expect(page.getByTestId('list-error')).toContainText('接口异常');
  await page.waitForTimeout(1500);
  await expect(page).toHaveURL(/\/notice\/notice$/);
  await expect(page.getByRole('button', { name: /退出登录/ })).toBeVisible();

  // it comes back: 重试 shows the notices, still logged in
  await page.unroute('**/api/**');
  await page
    .getByTestId('list-error')
    .getByRole('button', { name: /重\s*试/ })
    .click();
  await expect(page.getByTestId('list-error')).toHaveCount(0);
  await expect(page.locator('.ant-table-row').first()).toBeVisible();

  // a page whose code chunk cannot be fetched (the network, or a release replaced the files)
  await page.route('**/assets/*.js', (route) => route.abort('internetdisconnected'));
  await page.getByRole('menu', { name: '主菜单' }).getByRole('link', { name: '内容检测' }).click();
  const failed = page.getByTestId('page-error');
  await expect(failed).toContainText('页面加载失败');
  await expect(page.getByRole('menu', { name: '主菜单' })).toBeVisible();
  await page.screenshot({ path: 'test-results/e2e/page-load-failed.png' });
  await page.unroute('**/assets/*.js');
  await failed.getByRole('button', { name: '刷新页面' }).click();
  await expect(page.getByText('敏感内容绝对拦截')).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveURL(/\/content\/test$/);
});
