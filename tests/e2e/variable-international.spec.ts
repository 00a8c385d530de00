import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiLogin } from './helpers';

/**
 * Variable and international SMS in Chromium against the real server: a variable xlsx with good
 * and bad rows (counts, the error file, the send in the task list, each record its own text) and
 * an international send to three countries charged per country (docs/api-variable-international.md).
 */

const APPOINT = '尊敬的{name}';

async function post(page: Page, url: string, form: Record<string, string>) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return (await (
    await page.request.post(url, { headers: { 'x-xsrf-token': decodeURIComponent(xsrf) }, form })
  ).json()) as { code: number; msg: string; data: any };
}

async function variableXlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('s');
  for (const r of [
    ['手机号码', '姓名', '项目', '时间'],
    ['13800138011', '张三', '体检', '9点'],
    ['18600186011', '李四', '洗牙', '10点'],
    ['18900189011', 'Alexander-Maximilia', 'Comprehensive-check', '2026-12-01 09:30'],
    ['12345', '王五', '体检', '9点'],
    ['13800138011', '张三', '体检', '9点'],
  ])
    ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test('variable SMS: counts, error file, task, each record its own text', async ({ page }) => {
  await apiLogin(page, 'client1');
  await page.goto('/customer/deliverlayout/variablesms');
  await expect(page.getByText('变量短信发送').first()).toBeVisible({ timeout: 40_000 });
  await page.getByTestId('pick-template').click();
  const picker = page.getByRole('dialog', { name: '选择变量模板' });
  await picker.getByRole('tab', { name: '通用模板' }).click();
  await picker.getByRole('row').filter({ hasText: APPOINT }).getByRole('button', { name: '选择' }).click();
  await expect(page.getByTestId('picked-template')).toContainText('变量个数3');
  await page.getByTestId('sign-select').click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: /^好易购$/ })
    .click();
  await page.getByTestId('smstype-select').click();
  await page.locator('.ant-select-item-option-content', { hasText: '通知' }).click();
  await page
    .getByTestId('chunked-upload')
    .locator('input[type=file]')
    .setInputFiles({
      name: '预约.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await variableXlsx(),
    });
  const result = page.getByTestId('variable-result');
  await expect(result).toContainText('共 5 行，有效 3 行，错误 1 行，重复 1 行', { timeout: 30_000 });
  const download = page.waitForEvent('download');
  await page.getByTestId('download-errors').click();
  const file = await (await download).path();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file!);
  const reasons: string[] = [];
  wb.worksheets[0].eachRow((row, n) => n > 1 && reasons.push(String((row.values as unknown[]).slice(-1)[0])));
  expect(reasons).toEqual(['手机号码格式不正确', '手机号码重复']);
  await expect(page.getByTestId('submit-total')).toHaveText('3');
  await page.getByTestId('submit').click();
  const dialog = page.getByTestId('charge-info');
  await expect(dialog).toContainText('计费总条数4 条');
  await page.getByRole('button', { name: /确认发送/ }).click();
  await expect(page).toHaveURL(/\/customer\/deliverlayout\/smstask/, { timeout: 10_000 });
  const tasks = await post(page, '/api/send/sendTask', { clientId: 'client1', page: '1', rows: '1' });
  expect(tasks.data.list[0]).toMatchObject({ submitTotal: 3, chargeNumTotal: 4 });
  await expect(page.getByRole('row').filter({ hasText: '尊敬的{name}' }).first()).toBeVisible();
  const rec = await post(page, '/api/send/getrecords', { phone: '18900189011' });
  expect(rec.data.list[0].content).toBe(
    '【好易购】尊敬的Alexander-Maximilia，您预约的Comprehensive-check将于2026-12-01 09:30开始，请提前15分钟到场。',
  );
  const rec2 = await post(page, '/api/send/getrecords', { phone: '13800138011' });
  expect(rec2.data.list[0].content).toBe('【好易购】尊敬的张三，您预约的体检将于9点开始，请提前15分钟到场。');
});

test('international SMS to three countries is charged per country, from client1’s international pool (package account)', async ({
  page,
}) => {
  await apiLogin(page, 'client1');
  const prices = (await (await page.request.get('/api/sms/gj/prices')).json()).data.list as {
    intercode: string;
    fee: string;
  }[];
  const fee = (c: string) => Number(prices.find((p) => p.intercode === c)!.fee);
  const before = Number(
    (await post(page, '/api/send/chargeInfoInternational', { content: 'x', smstype: '0', mobile: '14155552671' })).data
      .remainAmount,
  );
  await page.goto('/customer/deliverlayout/internaldeliver');
  await expect(page.getByText('国际短信发送').first()).toBeVisible({ timeout: 40_000 });
  await page.getByTestId('smstype-select').click();
  await page.locator('.ant-select-item-option-content', { hasText: '通知' }).click();
  await page.getByTestId('content-input').fill('Your parcel has arrived.');
  await page.getByTestId('intl-numbers').fill('14155552671,14155552672,447400123456,819012345678');
  await page.getByTestId('check-intl').click();
  const table = page.getByTestId('country-table');
  await expect(table).toContainText('美国');
  await expect(table).toContainText('英国');
  await expect(table).toContainText('日本');
  await page.getByTestId('submit').click();
  const cents = (x: number) => Math.ceil(Math.round(x * 1e6) / 1e4) / 100;
  const expected = cents(fee('US') * 2) + cents(fee('GB')) + cents(fee('JP'));
  await expect(page.getByTestId('charge-info')).toContainText(expected.toFixed(2));
  await expect(page.getByTestId('charge-info')).toContainText('国际短信余额');
  await page.getByRole('button', { name: /确认发送/ }).click();
  await expect(page).toHaveURL(/\/customer\/deliverlayout\/smstask/, { timeout: 10_000 });
  const after = Number(
    (await post(page, '/api/send/chargeInfoInternational', { content: 'x', smstype: '0', mobile: '14155552671' })).data
      .remainAmount,
  );
  // taken from the pool at acceptance; the simulator's failed receipts may already have returned
  // their countries' part (server tests check the amounts exactly)
  expect(before - after).toBeGreaterThan(0);
  expect(Number((before - after).toFixed(2))).toBeLessThanOrEqual(Number(expected.toFixed(2)));
});

test('a Chinese mobile written with 86 on the international page is pointed to the domestic send (issue 41 item 2)', async ({
  page,
}) => {
  await apiLogin(page, 'client1');
  await page.goto('/customer/deliverlayout/internaldeliver');
  await page.getByTestId('intl-numbers').fill('14155552671,8613800138000,12345');
  const hint = page.getByTestId('intl-domestic-hint');
  await expect(hint).toContainText(
    '1 个号码是中国大陆手机号码（86 开头），国际短信不发送到中国大陆，这些号码不会发送，请使用国内短信发送',
    { timeout: 40_000 },
  );
  await expect(hint).toContainText('13800138000');
  // the server's check counts it apart from the bad numbers
  await page.getByTestId('check-intl').click();
  await expect(page.getByTestId('intl-counts')).toContainText('号码总数 3，有效 1，错误 2，重复 0');
  await expect(page.getByTestId('intl-rejected')).toContainText('1 个号码不是有效的国际号码');
  await hint.getByTestId('intl-go-domestic').click();
  await expect(page).toHaveURL(/\/customer\/deliverlayout\/deliver$/);
  await expect(page).toHaveTitle('普通短信发送 - 云讯通短信平台');
});
