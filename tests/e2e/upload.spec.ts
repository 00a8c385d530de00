import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiLogin } from './helpers';

/**
 * Issue 11 "Done means": a 50 MB number file on the ordinary send page — uploaded in chunks, paused,
 * the page reloaded, resumed from the chunks the server holds, finished and parsed; the same file
 * again is reused at once (no chunk sent). Then the send goes to the file's numbers.
 */

const LINES = 400_000;
const TEMPLATE = '您的账户余额已不足，为避免影响正常使用，请及时充值。';

/** ~50 MB: 400,000 distinct numbers, each with a long remark column (letters: not numbers) */
function numberFile(): string {
  const file = path.join(os.tmpdir(), `e2e-upload-${process.pid}.csv`);
  const pad = 'member-remark-'.repeat(9);
  const out = fs.openSync(file, 'w');
  let buf: string[] = [];
  for (let i = 0; i < LINES; i++) {
    buf.push(`1380${String(i).padStart(7, '0')},${pad}\r\n`);
    if (buf.length === 10_000) {
      fs.writeSync(out, buf.join(''));
      buf = [];
    }
  }
  fs.writeSync(out, buf.join(''));
  fs.closeSync(out);
  return file;
}

const fileInput = (page: Page) => page.getByTestId('chunked-upload').locator('input[type=file]');
const item = (page: Page) => page.getByTestId('upload-item');
const percentOf = async (page: Page) =>
  Number((await item(page).locator('.ant-progress-text').textContent())?.replace('%', '') ?? 0);

test.describe('大文件分片上传', () => {
  let file: string;
  test.beforeAll(() => {
    file = numberFile();
  });
  test.afterAll(() => fs.rmSync(file, { force: true }));

  test('upload 50 MB, pause, reload, resume, finish; the same file again is reused at once; send to it', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    expect(fs.statSync(file).size).toBeGreaterThan(50 * 1024 * 1024);
    await apiLogin(page, 'client1');
    await page.goto('/customer/deliverlayout/deliver');
    await expect(page.getByText('普通短信发送').first()).toBeVisible({ timeout: 60_000 });

    // slow the chunks down so that the pause lands in the middle
    const chunksBefore: number[] = [];
    await page.route('**/api/file/chunk?**', async (route) => {
      chunksBefore.push(Number(new URL(route.request().url()).searchParams.get('chunk')));
      await new Promise((r) => setTimeout(r, 250));
      // the pause (or the reload) cancels the chunks in flight: such a request is handled already
      await route.continue().catch((err: Error) => {
        if (!/already handled|closed/i.test(err.message)) throw err;
      });
    });
    await fileInput(page).setInputFiles(file);
    await expect(item(page)).toHaveAttribute('data-state', 'uploading', { timeout: 60_000 });
    await expect.poll(() => percentOf(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
    await item(page).getByRole('button', { name: /暂停/ }).click();
    await expect(item(page)).toHaveAttribute('data-state', 'paused');
    await expect(item(page).getByTestId('upload-note')).toHaveText('已暂停');
    const pausedAt = await percentOf(page);
    expect(pausedAt).toBeLessThan(100);

    // reload: the server still holds the chunks; picking the file again resumes from them
    await page.unroute('**/api/file/chunk?**');
    await page.reload();
    const chunksAfter: number[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/file/chunk?')) chunksAfter.push(Number(new URL(r.url()).searchParams.get('chunk')));
    });
    const checked = page.waitForResponse((r) => r.url().includes('/api/file/check'));
    await fileInput(page).setInputFiles(file);
    const check = await (await checked).json();
    expect(check.data.uploaded).toBe(false);
    expect(check.data.uploadedChunks.length).toBeGreaterThanOrEqual(5);
    await expect(item(page)).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
    await expect(item(page).getByTestId('upload-note')).toHaveText('上传完成');
    // only the missing chunks were sent after the reload
    expect(chunksAfter.length).toBe(check.data.chunks - check.data.uploadedChunks.length);
    expect(chunksAfter.some((c) => check.data.uploadedChunks.includes(c))).toBe(false);
    await expect(page.getByTestId('import-result')).toContainText(
      `共 ${LINES} 个号码，错误 0 个，重复 0 个，可发送 ${LINES} 个`,
      { timeout: 60_000 },
    );

    // the same file again: reused without sending a byte
    await item(page).getByRole('button', { name: /移除/ }).click();
    await expect(item(page)).toHaveCount(0);
    const before = chunksAfter.length;
    await fileInput(page).setInputFiles(file);
    await expect(item(page)).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(item(page).getByTestId('upload-note')).toHaveText('文件已存在，秒传完成');
    expect(chunksAfter.length).toBe(before);
    await expect(page.getByTestId('import-result')).toContainText(`可发送 ${LINES} 个`, { timeout: 60_000 });
    await page.screenshot({ path: 'test-results/e2e/upload-done.png', fullPage: true });

    // the charge confirmation counts the file's numbers (read by the server from the file)
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
    await page.getByTestId('submit').click();
    const confirm = page.getByRole('dialog', { name: '发送确认' });
    await expect(confirm).toContainText(`发送号码数${LINES} 个`, { timeout: 60_000 });
  });
});
