import { expect, test, type Page } from '@playwright/test';
import { apiLogin, onPage } from './helpers';

/**
 * 黑名单 end to end (issue 27): client1 adds a number to its blacklist on the console page, then
 * sends a marketing SMS to it and another number: the confirmation and the acceptance say the
 * blacklisted number is skipped, the task counts it under 黑名单 and only the other one is sent and
 * charged.
 */

const MARKETING = '双十一狂欢节，全场商品满300减50，活动仅限3天，回T退订。';
const BLOCKED = '13700007001';
const OTHER = '18600007002';

async function post(page: Page, url: string, form: Record<string, string>) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const r = await (
    await page.request.post(url, { headers: { 'x-xsrf-token': decodeURIComponent(xsrf) }, form })
  ).json();
  return r as { code: number; msg: string; data: any };
}

test('a number put on the blacklist is skipped by a marketing send, counted and not charged', async ({ page }) => {
  test.setTimeout(120_000);
  await apiLogin(page, 'client1');

  // the blacklist page: add the number
  await page.goto('/sms/blacklist');
  // the first look at a lazy page: a loaded machine may take more than the default 10 s
  await expect(page.getByTestId('blacklist-hint')).toContainText('退订', { timeout: 60_000 });
  await page.getByRole('button', { name: /添加号码/ }).click();
  const dialog = page.getByRole('dialog', { name: '添加黑名单号码' });
  await dialog.getByPlaceholder(/每行一个号码/).fill(BLOCKED);
  await dialog.getByRole('button', { name: /确\s*定|保\s*存/ }).click();
  await expect(page.getByText('已加入黑名单：新增 1 个').first()).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: BLOCKED });
  await expect(row).toContainText('手动添加');

  // a marketing send to it and another number
  await page.goto('/customer/deliverlayout/deliver');
  await expect(page.getByText('普通短信发送').first()).toBeVisible();
  await page.getByTestId('pick-template').click();
  const picker = page.getByRole('dialog', { name: '选择模板' });
  await picker.getByRole('tab', { name: '通用模板' }).click();
  await picker.getByRole('row').filter({ hasText: MARKETING }).getByRole('button', { name: '选择' }).click();
  await expect(picker).toBeHidden();
  // the sign is one of the account's approved signs
  await page.getByTestId('sign-select').click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: /^好易购商城$/ })
    .click();
  await page.getByTestId('numbers-input').fill(`${BLOCKED}\n${OTHER}`);
  await expect(page.getByTestId('number-counts')).toContainText('有效号码：2');
  await page.getByTestId('submit').click();
  const confirm = page.getByRole('dialog', { name: '发送确认' });
  await expect(confirm.getByTestId('charge-blacklist')).toContainText('1 个');
  await expect(confirm).toContainText('计费总条数1 条');
  await confirm.getByRole('button', { name: '确认发送' }).click();
  await expect(page.getByText(/已跳过黑名单号码 1 个/).first()).toBeVisible();

  // the task: one number sent, one counted under 黑名单
  await page.waitForURL(onPage('/customer/deliverlayout/smstask'), { timeout: 10_000 });
  const tasks = await post(page, '/api/send/sendTask', { page: '1', rows: '1' });
  const task = tasks.data.list[0] as { uid: string; submitTotal: number; blacklistNum: number; chargeNumTotal: number };
  expect(task).toMatchObject({ submitTotal: 1, blacklistNum: 1, chargeNumTotal: 1 });
  const taskRow = page.getByRole('row').filter({ hasText: task.uid });
  await expect(taskRow).toBeVisible();
  const headers = await page.getByRole('columnheader').allTextContents();
  const col = headers.findIndex((h) => h.trim() === '黑名单');
  expect(col).toBeGreaterThan(-1);
  await expect(taskRow.getByRole('cell').nth(col)).toHaveText('1');

  // only the other number has a record
  const records = await post(page, '/api/send/getrecords', { phone: BLOCKED, page: '1', rows: '10' });
  expect(records.data.totalCount).toBe(0);
});
