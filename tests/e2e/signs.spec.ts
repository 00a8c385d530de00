import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { cli } from './server';
import { apiLogin } from './helpers';

/** the id of a sign, read through the API as the logged-in browser */
async function signId(page: Page, sign: string): Promise<number> {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const r = await (
    await page.request.post('/api/sign/list', { headers: { 'x-xsrf-token': decodeURIComponent(xsrf) }, form: { sign } })
  ).json();
  expect(r.code).toBe(0);
  return r.data.list[0].id;
}

test.describe('签名报备', () => {
  test('agent1 adds a sign for client1, the operator approves it, the agent sees 审核通过', async ({ page }) => {
    await apiLogin(page, 'agent1');
    await page.goto('/template/SignReport');
    await expect(page.getByText('签名报备').first()).toBeVisible();
    // the seeded rejected sign shows its reason
    await expect(page.getByText('原因：签名与企业名称不符，请补充商标注册证或授权书')).toBeVisible();

    await page.getByRole('button', { name: /新增签名/ }).click();
    const dialog = page.getByRole('dialog', { name: '新增签名' });
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(dialog.getByText('子账户内容不能为空,请选择子账户')).toBeVisible();
    await dialog.getByRole('combobox').click();
    await page.getByText('client1-苏州好易购电子商务有限公司').click();
    await dialog.getByPlaceholder('请输入签名').fill(' 云讯优选 ');
    await dialog.getByPlaceholder('选填，最多50个字符').fill('端到端测试');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByRole('row').filter({ hasText: '云讯优选' });
    await expect(row).toContainText('待审核');
    await expect(row).toContainText('client1');

    const id = await signId(page, '云讯优选');
    expect(cli('sign-approve', String(id))).toContain('已审核通过');
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: '云讯优选' })).toContainText('审核通过');
  });

  test('batch import of a real .xlsx: result counts and the failed rows file', async ({ page }) => {
    await apiLogin(page, 'agent1');
    await page.goto('/template/SignReport');
    await page.getByRole('button', { name: /批量导入/ }).click();
    const dialog = page.getByRole('dialog', { name: '批量导入签名' });

    // the template is a real workbook with the agent's columns
    const [template] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByTestId('sign-template-link').click(),
    ]);
    const tpl = new ExcelJS.Workbook();
    await tpl.xlsx.load(fs.readFileSync((await template.path())!) as any);
    expect((tpl.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual(['子账户', '签名', '备注']);

    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('签名报备');
    ws.addRows([
      ['子账户', '签名', '备注'],
      ['client1', '批量导入甲', '第一行'],
      ['client1', '批量导入乙', ''],
      ['client1', '乙', '太短'],
      ['agent0', '别人的账户', '不属于agent1'],
    ]);
    const buffer = Buffer.from(await wb.xlsx.writeBuffer());
    await dialog.locator('input[type=file]').setInputFiles({
      name: '签名导入.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer,
    });
    await expect(dialog.getByTestId('sign-import-result')).toContainText('导入完成：共 4 条，成功 2 条，失败 2 条');

    const [failed] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByTestId('sign-import-failures').click(),
    ]);
    const out = new ExcelJS.Workbook();
    await out.xlsx.load(fs.readFileSync((await failed.path())!) as any);
    const rows: unknown[][] = [];
    out.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows).toEqual([
      ['子账户', '签名', '备注', '失败原因'],
      ['client1', '乙', '太短', '签名长度为2-12之间'],
      ['agent0', '别人的账户', '不属于agent1', '子账户不存在或不属于当前账户'],
    ]);

    await dialog.getByRole('button', { name: /关\s*闭/ }).click();
    await expect(page.getByRole('row').filter({ hasText: '批量导入甲' })).toContainText('待审核');
    await expect(page.getByRole('row').filter({ hasText: '批量导入乙' })).toBeVisible();
  });
});
