import { expect, test, type Page } from '@playwright/test';
import { apiLogin } from './helpers';

/**
 * Issue 27 on the ordinary send page (items 1, 5, preview): the sign is picked from the account's
 * approved signs, the counts of the number box, the box after 确认号码 and the charge dialog agree,
 * the invalid numbers are listed, and the preview follows the text. Screenshots at 1440 and 1024 px
 * go to test-results/send-ux/ (SEND_UX_SHOTS=1).
 */

const TEMPLATE = '您的账户余额已不足，为避免影响正常使用，请及时充值。';
// five numbers: one repeated, 12345 invalid
const TYPED = ['13800138001', '13012345678', '13800138001', '12345', '18912345678'];
const shots = !!process.env.SEND_UX_SHOTS;

async function shot(page: Page, name: string) {
  if (!shots) return;
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 1100 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `test-results/send-ux/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 1100 });
}

const counts = (page: Page) => ({
  total: page.getByTestId('count-total'),
  valid: page.getByTestId('count-valid'),
  invalid: page.getByTestId('count-invalid'),
  repeat: page.getByTestId('count-repeat'),
});

test.describe('短信发送页（issue 27）', () => {
  test('client1: sign from the approved list, counts agree in the check, the box and the charge dialog', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1440, height: 1100 });
    await apiLogin(page, 'client1');
    await page.goto('/customer/deliverlayout/deliver');
    await expect(page.getByText('普通短信发送').first()).toBeVisible({ timeout: 30_000 });

    // the general template (its sign 云讯通 is not one of client1's approved signs: not taken over)
    await page.getByTestId('pick-template').click();
    const picker = page.getByRole('dialog', { name: '选择模板' });
    await picker.getByRole('tab', { name: '通用模板' }).click();
    await picker.getByRole('row').filter({ hasText: TEMPLATE }).getByRole('button', { name: '选择' }).click();
    await expect(picker).toBeHidden();
    await expect(page.getByTestId('content-input')).toHaveAttribute('readonly', '');

    // the sign is a list of client1's approved signs, nothing else
    const sign = page.getByTestId('sign-select');
    await sign.click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect(options).toHaveCount(2);
    await expect(options.filter({ hasText: /^好易购$/ })).toHaveCount(1);
    await expect(options.filter({ hasText: /^好易购商城$/ })).toHaveCount(1);
    await options.filter({ hasText: /^好易购$/ }).click();
    await expect(sign).toContainText('好易购');

    // the preview follows: 【好易购】 + the template, one piece
    await expect(page.getByTestId('preview-text')).toHaveText(`【好易购】${TEMPLATE}`);
    await expect(page.getByTestId('preview-pieces')).toContainText('计 1 条');

    // five numbers with a repeat and 12345: 5 = 3 valid + 1 invalid + 1 repeat
    await page.getByTestId('numbers-input').fill(TYPED.join('\n'));
    const c = counts(page);
    await expect(c.total).toHaveText('5');
    await expect(c.valid).toHaveText('3');
    await expect(c.invalid).toHaveText('1');
    await expect(c.repeat).toHaveText('1');
    await expect(page.getByTestId('invalid-numbers')).toContainText('12345');
    await shot(page, 'deliver-counts');

    // the charge dialog says the same 3
    await page.getByTestId('submit').click();
    const confirm = page.getByRole('dialog', { name: '发送确认' });
    await expect(confirm.getByTestId('charge-info')).toContainText('3 个');
    await expect(confirm.getByTestId('charge-info')).toContainText('计费总条数3 条');
    await shot(page, 'deliver-charge');
    await confirm.getByRole('button', { name: /取\s*消/ }).click();
    await expect(confirm).toBeHidden();

    // 确认号码: the box holds the three valid distinct numbers
    await page.getByTestId('confirm-numbers').click();
    await expect(page.getByTestId('numbers-input')).toHaveValue('13800138001,13012345678,18912345678');
    await expect(c.total).toHaveText('3');
    await expect(c.valid).toHaveText('3');
    await expect(c.invalid).toHaveText('0');
    await expect(c.repeat).toHaveText('0');
    await expect(page.getByTestId('invalid-numbers')).toHaveCount(0);

    // and the charge dialog still 3 (wait out the 3 s submit lock)
    await page.waitForTimeout(3100);
    await page.getByTestId('submit').click();
    await expect(confirm.getByTestId('charge-info')).toContainText('3 个');
    await confirm.getByRole('button', { name: /取\s*消/ }).click();
  });

  // client0 has approved signs in the demo data (瓯越鞋业, 云讯通); client3 (agent1's) has none
  test('agent1 → client3 without an approved sign: no sign to pick, links to 签名报备 and 模板管理', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 1100 });
    await apiLogin(page, 'agent1');
    await page.goto('/customer/deliverlayout/deliver');
    await expect(page.getByText('普通短信发送').first()).toBeVisible({ timeout: 30_000 });
    await page.getByRole('combobox').first().click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'client3' })
      .first()
      .click();
    const none = page.getByTestId('no-approved-sign');
    await expect(none).toBeVisible({ timeout: 20_000 });
    await expect(none.getByRole('link', { name: '签名报备' })).toBeVisible();
    await expect(none.getByRole('link', { name: '模板管理' })).toBeVisible();
    await expect(page.getByTestId('sign-select')).toHaveClass(/ant-select-disabled/);
    await shot(page, 'deliver-no-sign');
  });

  test('variable and international pages: previews and the sign list', async ({ page }) => {
    test.skip(!shots, 'screenshots only');
    await page.setViewportSize({ width: 1440, height: 1100 });
    await apiLogin(page, 'client1');
    await page.goto('/customer/deliverlayout/variablesms');
    await expect(page.getByTestId('phone-preview')).toBeVisible({ timeout: 30_000 });
    await shot(page, 'variable');
    await page.goto('/customer/deliverlayout/internaldeliver');
    await page
      .getByTestId('content-input')
      .fill(
        'Your verification code is 482913. It expires in 5 minutes. Do not share it with anyone. Thank you for using our service, have a nice day!',
      );
    await page.getByTestId('intl-numbers').fill('14155552671,12,8613800138000,0044123');
    await page.getByTestId('check-intl').click();
    await expect(page.getByTestId('intl-counts')).toBeVisible();
    await shot(page, 'international');
  });
});
