import { expect, test, type Page } from '@playwright/test';
import { apiLogin } from './helpers';

/**
 * Issue 27 item 2: antd's own texts (date pickers, pagination, empty tables, modals) are Chinese on
 * every screen. Visits each console screen as client1 and as agent1, opens the first date picker
 * of each page (and its month panel), and looks for the English texts antd shows without its zh_CN
 * locale, in the visible text and in placeholders, titles and aria-labels.
 */
const ENGLISH = [
  /\bToday\b/,
  /\bNow\b/,
  /\bOK\b/,
  /Select date/,
  /Select time/,
  /Start date/,
  /End date/,
  /\bGo to\b/,
  /\bPage\b/,
  /\/ page/,
  /No data/,
  /\bCancel\b/,
  /\bJan\b/,
  /\bFeb\b/,
  /\bMar\b/,
  /\bApr\b/,
  /\bMay\b/,
  /\bJun\b/,
  /\bJul\b/,
  /\bAug\b/,
  /\bSep\b/,
  /\bOct\b/,
  /\bNov\b/,
  /\bDec\b/,
  /\bSearch\b/,
  /\bReset\b/,
  /Filter menu/,
  /Click to sort/,
  /Expand row/,
  // (antd's table header checkbox carries a fixed aria-label 'Select all' that no locale changes: not checked)
];

const SCREENS = [
  '/',
  '/account/info',
  '/account/security',
  '/account/security/password',
  '/content/test',
  '/customer/deliverlayout/deliver',
  '/customer/deliverlayout/internaldeliver',
  '/customer/deliverlayout/variablesms',
  '/customer/deliverlayout/smstask',
  '/customer/deliverlayout/timingdeliver',
  '/customer/sendrecord',
  '/customer/sendrecord/reply',
  '/customer/report/pre',
  '/customer/report/daily_post',
  '/customer/finance/balance',
  '/customer/selfsevicelayout/manager',
  '/customer/selfsevicelayout/manager/open',
  '/finance/bill',
  '/finance/invoice/add',
  '/finance/invoice/add/list',
  '/finance/own',
  '/finance/payorder',
  '/finance/rebate',
  '/finance/record',
  '/help/document',
  '/help/faq',
  '/notice/notice',
  '/remain',
  '/sms/pools',
  '/sms/smspurchaselayout/purchase',
  '/sms/smspurchaselayout/purchase/international',
  '/template/SignReport',
  '/template/intelligent/general',
  '/template/TestReportLayout',
];

async function englishOn(page: Page): Promise<string[]> {
  const text = await page.evaluate(
    () =>
      document.body.innerText +
      ' ' +
      [...document.querySelectorAll('[placeholder],[title],[aria-label]')]
        .map((e) => `${e.getAttribute('placeholder') ?? ''} ${e.getAttribute('title') ?? ''} ${e.getAttribute('aria-label') ?? ''}`)
        .join(' '),
  );
  return ENGLISH.filter((re) => re.test(text)).map((re) => re.source);
}

for (const account of ['client1', 'agent1']) {
  test(`antd texts are Chinese on every screen (${account})`, async ({ page }) => {
    test.setTimeout(240_000);
    await apiLogin(page, account);
    const found: string[] = [];
    for (const path of SCREENS) {
      await page.goto(path);
      await page.locator('.ant-layout-content, main').first().waitFor();
      await page.waitForTimeout(400);
      await expect(page.locator('.ant-spin-spinning'))
        .toHaveCount(0, { timeout: 5_000 })
        .catch(() => undefined);
      let words = await englishOn(page);
      const picker = page.locator('.ant-picker:not(.ant-picker-disabled)').first();
      if (await picker.isVisible().catch(() => false)) {
        await picker.click();
        await expect(page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').first()).toBeVisible();
        words = [...words, ...(await englishOn(page))];
        // the month panel (month names) too
        const monthBtn = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-month-btn').first();
        if (await monthBtn.isVisible().catch(() => false)) {
          await monthBtn.click();
          words = [...words, ...(await englishOn(page))];
        }
        await page.keyboard.press('Escape');
      }
      if (words.length) found.push(`${path}: ${[...new Set(words)].join(', ')}`);
    }
    expect(found, 'English antd texts').toEqual([]);
  });
}
