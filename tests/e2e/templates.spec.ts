import { expect, test } from '@playwright/test';
import { cli } from './server';
import { apiLogin } from './helpers';

test.describe('短信模板: add, review, creator-only editing', () => {
  test('agent1 adds a template for client1, the operator approves it, only the creator may edit it', async ({
    page,
    browser,
  }) => {
    const content = `您的取件码为{code}，请凭码取件（e2e ${Date.now()}）`;
    await apiLogin(page, 'agent1');
    await page.goto('/template/TestReportLayout');
    await expect(page).toHaveURL(/\/template\/TestReportLayout\/intelligent$/);
    await expect(page.getByRole('tab', { name: '智能模板' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('模板审核通过后方可发送短信')).toBeVisible();

    await page.getByRole('button', { name: /新增模板/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('新增模板')).toBeVisible();
    // the schema's messages before anything is sent
    await dialog.getByRole('button', { name: /提交审核/ }).click();
    await expect(dialog.locator('.ant-form-item-explain-error').first()).toHaveText('请选择子账号');

    await dialog.getByLabel('子账户').click();
    await page.getByTitle('client1-苏州好易购电子商务有限公司').click();
    await dialog.getByLabel('变量模板').check();
    await dialog.getByLabel('通知').check();
    // 签名: one of client1's approved signs (好易购, 好易购商城)
    await dialog.getByTestId('template-sign').click();
    await page.getByTitle('好易购', { exact: true }).click();
    await dialog.getByPlaceholder('请输入模板内容').fill(content);
    await expect(dialog.getByTestId('template-counter')).toContainText(
      `已输入 ${content.length}/500 个字符，变量 1 个`,
    );
    await dialog.getByRole('button', { name: /提交审核/ }).click();
    await expect(page.getByText('新增成功，请等待审核')).toBeVisible();
    await expect(dialog).toBeHidden();

    const row = page.locator('tr', { hasText: content });
    await expect(row.getByText('待审核')).toBeVisible();
    await expect(row.getByRole('button', { name: '编辑' })).toBeVisible();
    const id = (await row.locator('td').first().innerText()).trim();
    expect(id).toMatch(/^\d+$/);

    expect(cli('template-approve', id)).toContain(`模板 ${id} 审核通过`);
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect(row.getByText('审核通过')).toBeVisible();

    // client1 sees the template agent1 made for it, but may neither edit nor delete it
    const other = await browser.newContext();
    const clientPage = await other.newPage();
    await apiLogin(clientPage, 'client1');
    await clientPage.goto('/template/intelligent');
    const clientRow = clientPage.locator('tr', { hasText: content });
    await expect(clientRow.getByText('审核通过')).toBeVisible();
    await expect(clientRow.getByText('agent1')).toBeVisible();
    await expect(clientRow.getByRole('button', { name: '编辑' })).toHaveCount(0);
    await expect(clientRow.getByRole('button', { name: '删除' })).toHaveCount(0);
    // the general templates tab
    await clientPage.goto('/template/TestReportLayout/intelligent/general');
    await expect(clientPage.getByText('您的验证码为{code}，5分钟内有效，请勿泄露给他人。')).toBeVisible();
    await other.close();

    // the creator edits: it goes back to review
    await row.getByRole('button', { name: '编辑' }).click();
    await expect(dialog.getByText('编辑模板')).toBeVisible();
    await dialog.getByPlaceholder('请输入模板内容').fill(`${content}，感谢使用`);
    await dialog.getByRole('button', { name: /提交审核/ }).click();
    await expect(page.getByText('修改成功，请等待审核')).toBeVisible();
    await expect(page.locator('tr', { hasText: `${content}，感谢使用` }).getByText('待审核')).toBeVisible();
  });
});

test('client1 imports templates from Excel and sees the refused rows', async ({ page }) => {
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('短信模板');
  const stamp = Date.now();
  ws.addRow(['模板属性', '短信类型', '模板类型', '业务类型', '签名', '模板内容']);
  ws.addRow(['行业', '通知', '固定模板', '国内', '好易购', `您的退款已到账，请注意查收（导入 ${stamp}）`]);
  ws.addRow(['行业', '通知', '固定模板', '国内', '好易购', '您好{name}，这一行写了变量']);
  const buffer = Buffer.from(await wb.xlsx.writeBuffer());

  await apiLogin(page, 'client1');
  await page.goto('/template/TestReportLayout/intelligent');
  await page.getByRole('button', { name: /批量导入/ }).click();
  const dialog = page.getByRole('dialog');
  const download = page.waitForEvent('download');
  await dialog.getByRole('link', { name: /下载模板/ }).click();
  expect(await (await download).suggestedFilename()).toBe('短信模板导入模板.xlsx');
  await dialog.locator('input[type=file]').setInputFiles({
    name: '短信模板.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  await dialog.getByRole('button', { name: /开始导入/ }).click();
  await expect(dialog.getByTestId('import-result')).toHaveText('共2条，成功1条，失败1条');
  await expect(dialog.getByRole('row', { name: /3\s*固定模板不能包含变量/ })).toBeVisible();
  await dialog.getByRole('button', { name: /关\s*闭/ }).click();
  await expect(page.locator('tr', { hasText: `导入 ${stamp}` }).getByText('待审核')).toBeVisible();
});
