import { expect as baseExpect, test, type Browser, type Page } from '@playwright/test';
import { apiLogin, login } from './helpers';

/**
 * 内容 in the operator console against the real server (issue 39, docs/api-operator.md "Content"):
 * operator1 (运营) adds a sensitive word in 敏感词, and client1's own 内容检测 flags it at once; the
 * word is removed and client1's check is clean again. operator1 publishes a 置顶 notice whose HTML
 * carries a script: agent1 reads it on its home page, the script gone; operator1 deletes it and it
 * leaves agent1's list. The 审计日志 holds each action.
 */

const SHOTS = 'test-results/ops';
const expect = baseExpect.configure({ timeout: 20_000 });
const WORD = '端到端违禁词';

const menuEntry = (page: Page, label: string) =>
  page.getByRole('menu', { name: '主菜单' }).getByRole('menuitem', { name: new RegExp(`(^| )${label}( \\d+)?$`) });

async function operatorPage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await login(page, 'operator1', 'Demo1234');
  await expect(page).toHaveURL(/\/ops$/, { timeout: 30_000 });
  return page;
}

/** client1's 内容检测 of `text`: the marked words, [] when clean */
async function accountCheck(page: Page, text: string): Promise<string[]> {
  await page.goto('/content/test');
  await page.getByRole('textbox', { name: '短信内容' }).fill(text);
  await page.getByRole('button', { name: /开始检测/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(/检测到 \d+ 处敏感内容|未检测到敏感词/)).toBeVisible();
  const marks = await dialog
    .getByTestId('content-test-highlight')
    .locator('mark')
    .allTextContents()
    .catch(() => []);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  return marks;
}

test.describe.configure({ mode: 'serial' });

test('operator1 adds a sensitive word, client1 is refused it at once; removed, it passes', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await apiLogin(page, 'client1');
  const text = `【好易购】诚聘，${WORD}，详询客服`;
  expect(await accountCheck(page, text)).toEqual([]);

  const ops = await operatorPage(browser);
  await menuEntry(ops, '敏感词').click();
  await expect(ops).toHaveURL(/\/ops\/content\/words/);
  await expect(ops.getByTestId('words-file')).toContainText(/词表文件中另有 [\d,]+ 个敏感词/);
  await ops.getByRole('button', { name: /添加敏感词/ }).click();
  const dialog = ops.getByRole('dialog', { name: '添加敏感词' });
  await dialog.getByRole('textbox', { name: /敏感词/ }).fill(`${WORD}\n# 注释行\n刷单`);
  await dialog.getByRole('button', { name: /添\s*加/ }).click();
  // 刷单 is in the configured file already
  await expect(ops.getByText('已添加 1 个，1 个已存在')).toBeVisible();
  const row = ops.getByRole('row').filter({ hasText: WORD });
  await expect(row).toContainText('operator1');

  // the operator's own check over the whole list
  await ops
    .getByTestId('content-check')
    .getByRole('textbox', { name: /短信内容/ })
    .fill(text);
  await ops
    .getByTestId('content-check')
    .getByRole('button', { name: /检\s*测/ })
    .click();
  await expect(ops.getByTestId('content-check-hits').locator('mark')).toHaveText([WORD]);
  await ops.screenshot({ path: `${SHOTS}/ops-content-words.png`, fullPage: true });

  // the account's check, the same process or another within seconds
  await expect.poll(() => accountCheck(page, text), { timeout: 45_000 }).toEqual([WORD]);

  await row.getByRole('button', { name: /删\s*除/ }).click();
  await ops
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await expect(ops.getByText('删除成功')).toBeVisible();
  await expect(ops.getByRole('row').filter({ hasText: WORD })).toHaveCount(0);
  await expect.poll(() => accountCheck(page, text), { timeout: 45_000 }).toEqual([]);

  await menuEntry(ops, '审计日志').click();
  await expect(ops.getByRole('row').filter({ hasText: 'operator1' }).first()).toBeVisible();
  await expect(ops.getByRole('row').filter({ hasText: '删除敏感词' }).first()).toBeVisible();
  await expect(ops.getByRole('row').filter({ hasText: '添加敏感词' }).first()).toBeVisible();
});

test('operator1 publishes a notice, agent1 reads it cleaned; deleted, it is gone', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const title = '运营端发布的端到端公告';
  const ops = await operatorPage(browser);
  await menuEntry(ops, '平台公告').click();
  await expect(ops).toHaveURL(/\/ops\/content\/notices/);
  await ops.getByRole('button', { name: /发布公告/ }).click();
  const dialog = ops.getByRole('dialog', { name: '发布公告' });
  await dialog.getByRole('textbox', { name: /标题/ }).fill(title);
  await dialog
    .getByRole('textbox', { name: /内容/ })
    .fill('<p>运营端正文<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"></p>');
  await dialog.getByRole('checkbox', { name: /置顶/ }).check();
  await dialog.getByRole('button', { name: /发\s*布/ }).click();
  await expect(ops.getByText('发布成功')).toBeVisible();
  const row = ops.getByRole('row').filter({ hasText: title });
  await expect(row.getByTestId('notice-top')).toBeVisible();
  await expect(row).toContainText('运营端正文');
  await ops.screenshot({ path: `${SHOTS}/ops-content-notices.png`, fullPage: true });

  await apiLogin(page, 'agent1');
  await page.goto('/');
  await page.getByTestId('latest-notices').getByText(title).click();
  await expect(page.getByText('运营端正文')).toBeVisible();
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

  await row.getByRole('button', { name: /删\s*除/ }).click();
  await ops
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await expect(ops.getByText('删除成功')).toBeVisible();
  await expect(ops.getByRole('row').filter({ hasText: title })).toHaveCount(0);
  await page.goto('/notice/notice');
  await expect(page.getByText('2026年12月6日凌晨系统维护公告')).toBeVisible();
  await expect(page.getByText(title)).toHaveCount(0);
});
