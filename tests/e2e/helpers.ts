import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';

/** Drags the slider captcha handle to the right end, as a person would, and waits for 验证通过. */
export async function passSlider(page: Page) {
  const handle = page.getByTestId('slider-handle');
  const track = page.getByTestId('slider-track');
  await expect(handle).toBeVisible();
  const h = (await handle.boundingBox())!;
  const t = (await track.boundingBox())!;
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  const endX = t.x + t.width + 10;
  const steps = 25;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(h.x + h.width / 2 + ((endX - h.x) * i) / steps, h.y + h.height / 2 + (i % 3) - 1);
    await page.waitForTimeout(20);
  }
  await page.mouse.up();
  await expect(page.getByText('验证通过')).toBeVisible();
}

export async function login(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByPlaceholder(/帐户名|账户名|用户名/).fill(username);
  await page.getByPlaceholder('密码').fill(password);
  await passSlider(page);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** Newest verification code sent by SMS to this mobile, from the embedded channel's outbox. */
export async function smsCodeFor(mobile: string): Promise<string> {
  const file = path.join(E2E_DATA_DIR, 'outbox', 'sms.jsonl');
  for (let i = 0; i < 50; i++) {
    if (fs.existsSync(file)) {
      const rows = fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const mine = rows.filter((r) => r.mobile === mobile);
      if (mine.length) return String(mine[mine.length - 1].code);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMS for ${mobile} in ${file}`);
}
