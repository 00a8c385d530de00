import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, e2eServer } from './server';
import { apiLogin } from './helpers';

/** A word from the configured list (server/config/sensitive-words.txt). */
function configuredWord(): string {
  const text = fs.readFileSync(path.resolve('server/config/sensitive-words.txt'), 'utf8');
  const words = text
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter(Boolean);
  return words.find((w) => w === '刷单') ?? words[0];
}

test.describe('notices, help documents, content test', () => {
  test('the content test highlights a configured sensitive word', async ({ page }) => {
    const word = configuredWord();
    await apiLogin(page, 'client1');
    await page.goto('/content/test');
    await expect(page.getByText('敏感内容绝对拦截')).toBeVisible();
    await page.getByRole('button', { name: /开始检测/ }).click();
    await expect(page.getByText('请输入短信内容')).toBeVisible();
    const text = `【好易购】<b>限时</b>招聘，${word}日结，详询客服`;
    await page.getByRole('textbox', { name: '短信内容' }).fill(text);
    await page.getByRole('button', { name: /开始检测/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('检测到 1 处敏感内容')).toBeVisible();
    const box = dialog.getByTestId('content-test-highlight');
    await expect(box.locator('mark')).toHaveText([word]);
    await expect(box).toHaveText(text);
    await expect(box.locator('b')).toHaveCount(0);
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByRole('button', { name: /清\s*空/ }).click();
    await page.getByRole('textbox', { name: '短信内容' }).fill('【好易购】您的验证码是 482913，5 分钟内有效。');
    await page.getByRole('button', { name: /开始检测/ }).click();
    await expect(page.getByRole('dialog').getByText('未检测到敏感词')).toBeVisible();
  });

  test('notices: list, click, view; a notice published by the operator shows, sanitized', async ({ page }) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-notice-')), 'notice.html');
    fs.writeFileSync(
      file,
      '<p>端到端测试正文<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"></p>',
    );
    expect(cli('notice-publish', '端到端测试公告', file, '--top')).toMatch(/已发布公告 \d+：端到端测试公告（置顶）/);

    await apiLogin(page, 'agent1');
    await page.goto('/');
    await expect(page.getByTestId('latest-notices').getByText('端到端测试公告')).toBeVisible();
    await page.goto('/notice/notice');
    await expect(page.getByText('2026年12月6日凌晨系统维护公告')).toBeVisible();
    await expect(page.locator('.ant-pagination')).toBeVisible(); // 21 notices, 15 a page
    await page.getByPlaceholder('公告内容').fill('印度尼西亚');
    await page.getByPlaceholder('公告内容').press('Enter');
    await expect(page.getByTestId('notice-table').locator('tbody tr.ant-table-row')).toHaveCount(1);
    await page.getByText('国际短信部分国家资费调整通知').click();
    await expect(page).toHaveURL(/\/notice\/view\?noticeId=\d+$/);
    await expect(page.getByTestId('notice-title')).toHaveText('国际短信部分国家资费调整通知');
    await expect(page.getByTestId('notice-body').locator('td', { hasText: '印度尼西亚' })).toBeVisible();
    await page.getByRole('button', { name: /返\s*回/ }).click();
    await expect(page).toHaveURL(/\/notice\/notice$/);

    await page.getByText('端到端测试公告').click();
    await expect(page.getByTestId('notice-body')).toHaveText('端到端测试正文');
    await expect(page.getByTestId('notice-body').locator('script, img[onerror]')).toHaveCount(0);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();

    await page.goto('/notice/view?noticeId=999999');
    await expect(page.locator('.ant-result-title')).toHaveText('公告不存在');
  });

  test('the help page shows the HTTP API document and downloads it', async ({ page }) => {
    await apiLogin(page, 'agent1');
    await page.goto('/help/document');
    const link = page.getByRole('link', { name: 'HTTP接口文档' });
    await expect(link).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/HTTP接口文档\.html$/);
    const html = fs.readFileSync((await download.path())!, 'utf8');
    expect(html).toContain('<code>/api/agent/noticePage</code>');
    expect(html).toContain('<code>/api/content/content/test</code>');
    expect(html).not.toContain('<script');
    await page.goto('/help/faq');
    await expect(page.getByText('短信签名有什么要求？')).toBeVisible();
  });

  test('the CMPP and SMPP documents are generated from the running doors, with the account’s own login', async ({
    page,
  }) => {
    await apiLogin(page, 'client1');
    await page.goto('/help/document');
    // no file placed in DATA_DIR/docs: the doors of `npm start` describe themselves
    const cmpp = page.getByRole('link', { name: 'CMPP接口文档' });
    await expect(cmpp).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('link', { name: 'SMPP接口文档' })).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), cmpp.click()]);
    expect(download.suggestedFilename()).toMatch(/CMPP接口文档\.html$/);
    const html = fs.readFileSync((await download.path())!, 'utf8');
    expect(html).toContain('cli001'); // client1's CMPP login
    expect(html).toContain(String(e2eServer().cmppPort)); // the running door's port
    expect(html).not.toContain('<script');
  });
});
