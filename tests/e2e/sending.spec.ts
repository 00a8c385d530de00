import { expect, test, type Page } from '@playwright/test';
import { apiLogin, onPage } from './helpers';

/**
 * Sending end to end against the real server (`npm start`'s process: the dispatcher and the
 * embedded SMPP carrier simulator run in it; playwright.config.ts sets the simulator's outcome
 * mix, latency and uplink replies). The messages really travel over SMPP and come back as receipts.
 */

const NUMBERS = ['13800138001', '13012345678', '18912345678']; // 移动, 联通, 电信
const TEMPLATE = '您的账户余额已不足，为避免影响正常使用，请及时充值。';

async function post(page: Page, url: string, form: Record<string, string>) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const r = await (
    await page.request.post(url, { headers: { 'x-xsrf-token': decodeURIComponent(xsrf) }, form })
  ).json();
  return r as { code: number; msg: string; data: any };
}

/** fills the send page: (agent: the sub-account), the general fixed template, the numbers */
async function fillSendPage(page: Page, numbers: string[], opts: { client?: string } = {}) {
  await page.goto('/customer/deliverlayout/deliver');
  await expect(page.getByText('普通短信发送').first()).toBeVisible({ timeout: 30_000 });
  if (opts.client) {
    await page.getByRole('combobox').first().click();
    await page.getByText(opts.client, { exact: false }).first().click();
  }
  await page.getByTestId('pick-template').click();
  const picker = page.getByRole('dialog', { name: '选择模板' });
  await picker.getByRole('tab', { name: '通用模板' }).click();
  await picker.getByRole('row').filter({ hasText: TEMPLATE }).getByRole('button', { name: '选择' }).click();
  await expect(picker).toBeHidden();
  // the sign is one of the account's approved signs (the template's 云讯通 is not client1's)
  await page.getByTestId('sign-select').click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: /^好易购$/ })
    .click();
  await page.getByTestId('numbers-input').fill(numbers.join('\n'));
  await expect(page.getByTestId('number-counts')).toContainText(`有效号码：${numbers.length}`);
}

/** the task number of the newest task of the list's first row */
async function newestTask(page: Page, clientId: string) {
  const r = await post(page, '/api/send/sendTask', { clientId, page: '1', rows: '1' });
  expect(r.code, r.msg).toBe(0);
  return r.data.list[0] as { uid: string; id: number; status: number; taskSchedule: number; submitTotal: number };
}

test.describe('短信发送', () => {
  test('client1 sends to 3 numbers: the task reaches 100 %, the records are final, replies arrive', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await apiLogin(page, 'client1');
    await fillSendPage(page, NUMBERS);
    await page.getByTestId('submit').click();
    const confirm = page.getByRole('dialog', { name: '发送确认' });
    await expect(confirm).toContainText('发送号码数');
    await expect(confirm).toContainText('3 个');
    await confirm.getByRole('button', { name: '确认发送' }).click();

    // an immediate send clears the page and opens the task list
    await page.waitForURL(onPage('/customer/deliverlayout/smstask'), { timeout: 10_000 });
    const task = await newestTask(page, 'client1');
    expect(task.submitTotal).toBe(3);
    const row = page.getByRole('row').filter({ hasText: task.uid });
    await expect(row).toBeVisible();
    // the list refreshes itself every 10 s; the receipts come back within a second or two
    await expect(row).toContainText('已完成', { timeout: 40_000 });
    await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

    // the task detail: every message has its final outcome
    const detail = await post(page, '/api/send/queryTaskInfo', { id: String(task.id) });
    expect(detail.code, detail.msg).toBe(0);
    expect(detail.data.successNum + detail.data.failNum).toBe(3);
    expect(detail.data.sentNum).toBe(0);

    // the send records show the three numbers as delivered / failed, as the simulator decided
    await page.goto('/customer/sendlayout/sendrecord');
    for (const n of NUMBERS) {
      const r = page.getByRole('row').filter({ hasText: n }).first();
      await expect(r).toBeVisible();
      await expect(r).toContainText(/明确成功|明确失败/);
    }
    const delivered = await post(page, '/api/send/getrecords', {
      stateList: '3',
      phone: NUMBERS[0],
      page: '1',
      rows: '10',
    });
    const failed = await post(page, '/api/send/getrecords', {
      stateList: '6',
      phone: NUMBERS[0],
      page: '1',
      rows: '10',
    });
    expect(delivered.data.totalCount + failed.data.totalCount).toBeGreaterThanOrEqual(1);

    // the simulator's recipients answer: the uplink shows on the reply page
    await page.getByRole('tab', { name: '回复记录' }).click();
    await page.waitForURL(onPage('/customer/sendlayout/sendrecord/reply'));
    await expect(async () => {
      await page.getByRole('button', { name: /查\s*询/ }).click();
      await expect(page.getByRole('row').filter({ hasText: NUMBERS[1] }).first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
  });

  test('agent1 sends for client1', async ({ page }) => {
    test.setTimeout(90_000);
    await apiLogin(page, 'agent1');
    await page.goto('/customer/deliverlayout/deliver');
    // a template cannot be chosen before the sub-account
    await page.getByTestId('pick-template').click();
    await expect(page.getByText('请选择子账号').first()).toBeVisible();
    await page.keyboard.press('Escape');

    await fillSendPage(page, ['13800138009'], { client: 'client1-' });
    await page.getByTestId('submit').click();
    const confirm = page.getByRole('dialog', { name: '发送确认' });
    await confirm.getByRole('button', { name: '确认发送' }).click();
    await page.waitForURL(onPage('/customer/deliverlayout/smstask'), { timeout: 10_000 });
    const task = await newestTask(page, 'client1');
    expect(task.submitTotal).toBe(1);
    const row = page.getByRole('row').filter({ hasText: task.uid });
    await expect(row).toContainText('client1');
    await expect(row).toContainText('已完成', { timeout: 40_000 });
  });

  test('a timed task is cancelled before its time and its pieces come back', async ({ page }) => {
    test.setTimeout(90_000);
    await apiLogin(page, 'client1');
    const before = await post(page, '/api/send/chargeInfo', {
      clientId: 'client1',
      content: `【云讯通】${TEMPLATE}`,
      sign: '云讯通',
      mobile: NUMBERS.join(','),
    });
    expect(before.code, before.msg).toBe(0);

    await fillSendPage(page, NUMBERS);
    await page.getByText('定时发送', { exact: true }).click();
    await expect(page.getByTestId('sendtime')).toBeVisible();
    await page.getByTestId('submit').click();
    const confirm = page.getByRole('dialog', { name: '发送确认' });
    await expect(confirm).toContainText('定时发送时间');
    await confirm.getByRole('button', { name: '确认定时发送' }).click();
    await page.waitForURL(onPage('/customer/deliverlayout/timingdeliver'), { timeout: 10_000 });

    // charged at acceptance
    const charged = await post(page, '/api/send/chargeInfo', {
      clientId: 'client1',
      content: `【云讯通】${TEMPLATE}`,
      sign: '云讯通',
      mobile: NUMBERS.join(','),
    });
    expect(charged.data.remainPieces).toBe(before.data.remainPieces - before.data.chargeNum);

    const row = page.getByRole('row').filter({ hasText: '等待发送' }).filter({ hasText: '您的账户余额已不足' }).first();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: '取消' }).click();
    await page
      .getByRole('dialog')
      .filter({ hasText: '确定取消该定时任务吗？' })
      .getByRole('button', { name: '取消任务' })
      .click();
    await expect(page.getByText('取消成功，已退还费用')).toBeVisible();

    const after = await post(page, '/api/send/chargeInfo', {
      clientId: 'client1',
      content: `【云讯通】${TEMPLATE}`,
      sign: '云讯通',
      mobile: NUMBERS.join(','),
    });
    expect(after.data.remainPieces).toBe(before.data.remainPieces);
  });
});

test.describe('任务跟进', () => {
  test('a task’s 详情 opens its records, records filter by task number, a number’s history, the failed numbers are resent as a new task', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await apiLogin(page, 'client1');
    // the demo tasks of client1 (server/modules/send/seed.ts): the 验证码 one of three days ago has 14 numbers, 5 of them failed
    const tasks = await post(page, '/api/send/sendTask', { page: '1', rows: '15' });
    const demo = (tasks.data.list as { uid: string; content: string; submitTotal: number }[]).find((t) =>
      t.content.includes('482913'),
    )!;
    const other = (tasks.data.list as { uid: string; content: string; submitTotal: number }[]).find((t) =>
      t.content.includes('蓝牙耳机'),
    )!;
    expect(demo.submitTotal).toBe(14);

    await page.goto('/customer/deliverlayout/smstask');
    await page
      .getByRole('row')
      .filter({ hasText: demo.uid })
      .getByRole('button', { name: /详\s*情/ })
      .click();
    const dialog = page.getByRole('dialog', { name: '任务详情' });
    await expect(dialog.getByTestId('resend-failed')).toContainText('（5）');
    await dialog.getByTestId('task-records-link').click();
    await page.waitForURL(`**/customer/sendlayout/sendrecord?taskId=${demo.uid}&beginDate=*`);
    // the address changes before the records screen is drawn (its code may still be loading), and
    // the task list has a 任务编号 filter too: wait for the task list (and its dialog) to be gone
    await expect(dialog).toBeHidden({ timeout: 30_000 });
    await expect(page.getByLabel('任务编号')).toHaveValue(demo.uid);
    await expect(page.getByText('共 14 条')).toBeVisible();
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows).toHaveCount(10);
    for (const r of await rows.all()) await expect(r).toContainText(demo.uid);
    // carrier codes by their meaning, the code beside it
    await expect(page.getByText('无法送达（空号、停机或关机）').first()).toBeVisible();
    await page.screenshot({ path: 'docs/screenshots/records-task.png' });

    // another task number typed in the filter
    await page.getByLabel('任务编号').fill(other.uid);
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect(rows).toHaveCount(other.submitTotal);
    for (const r of await rows.all()) await expect(r).toContainText(other.uid);

    // a malformed number: one clear message, no request
    await page.getByLabel('手机号码').fill('138abc');
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page.locator('.ant-message-notice')).toHaveCount(1);
    await expect(page.locator('.ant-message-notice')).toContainText('手机号码格式不正确');

    // a number's history: its records in every task
    await page.getByLabel('手机号码').fill('');
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect(rows.first()).toBeVisible();
    await rows.first().getByTestId('phone-history').click();
    await expect(page.getByLabel('任务编号')).toHaveValue('');
    const phone = await page.getByLabel('手机号码').inputValue();
    expect(phone).toMatch(/^1\d{10}$/);
    await expect.poll(async () => (await rows.allInnerTexts()).every((t) => t.includes(phone))).toBe(true);
    const history = await post(page, '/api/send/getrecords', { phone, page: '1', rows: '50' });
    expect(new Set(history.data.list.map((r: { taskId: string }) => r.taskId)).size).toBeGreaterThan(1);

    // resend the failed numbers: a new task through the ordinary acceptance
    await page.goto('/customer/deliverlayout/smstask');
    await page
      .getByRole('row')
      .filter({ hasText: demo.uid })
      .getByRole('button', { name: /详\s*情/ })
      .click();
    await expect(dialog.getByTestId('resend-failed')).toContainText('（5）');
    await dialog.getByTestId('resend-failed').click();
    await page
      .getByRole('dialog', { name: '重发失败号码' })
      .getByRole('button', { name: /^重\s*发$/ })
      .click();
    await expect(dialog.getByTestId('resent')).toContainText('已创建重发任务');
    const uid = ((await dialog.getByTestId('resent').innerText()).match(/T\d+/) ?? [''])[0];
    const created = (await post(page, '/api/send/sendTask', { page: '1', rows: '1' })).data.list[0];
    expect(created.uid).toBe(uid);
    expect(created.submitTotal).toBe(5);
    expect(created.chargeNumTotal).toBe(5);
    await page.screenshot({ path: 'docs/screenshots/task-resend.png' });
  });
});
