import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { e2eServer } from './server';

/**
 * Drags the slider captcha handle to the right end, as a person would, and waits until the server
 * has verified the track. (The 验证通过 text can be gone at once: a passed slider submits the login
 * by itself, and a failed login re-arms the slider.)
 */
export async function passSlider(page: Page) {
  const handle = page.getByRole('slider', { name: '滑块验证' });
  const track = page.getByTestId('slider-captcha');
  await expect(handle).toBeVisible();
  const h = (await handle.boundingBox())!;
  const t = (await track.boundingBox())!;
  const verified = page.waitForResponse((r) => r.url().includes('/api/captcha/slider/verify'));
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  const endX = t.x + t.width + 10;
  const steps = 25;
  // like a hand: fast at first then slowing down (the server refuses constant speed and straight lines), a little vertical wobble
  for (let i = 1; i <= steps; i++) {
    const eased = 1 - (1 - i / steps) ** 2.2;
    await page.mouse.move(h.x + h.width / 2 + (endX - h.x) * eased, h.y + h.height / 2 + (i % 3) - 1);
    await page.waitForTimeout(20 + (i % 4) * 3);
  }
  await page.mouse.up();
  const body = await (await verified).json();
  expect(body.code, `slider verification: ${body.msg}`).toBe(0);
}

export async function login(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByPlaceholder(/帐户名/).fill(username);
  await page.getByPlaceholder('密码', { exact: true }).fill(password);
  // a passed slider submits the login by itself when the fields are valid
  await passSlider(page);
}

/** Newest verification code sent by SMS to this mobile, from the embedded channel's outbox. */
export async function smsCodeFor(mobile: string): Promise<string> {
  const file = path.join(e2eServer().dataDir, 'outbox', 'sms.jsonl');
  for (let i = 0; i < 50; i++) {
    if (fs.existsSync(file)) {
      const rows = fs
        .readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      const mine = rows.filter((r) => r.mobile === mobile);
      if (mine.length) return String(mine[mine.length - 1].code);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMS for ${mobile} in ${file}`);
}

/**
 * Logs the browser context in through the API (slider challenge, verify, login), for tests whose
 * subject is not the login page itself. Cookies land in the page's context.
 */
export async function apiLogin(page: Page, username: string, password = 'Demo1234') {
  const { createHash } = await import('node:crypto');
  const req = page.request;
  await req.get('/api/login/timeout');
  const xsrf = async () => (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const challenge = (await (await req.get('/api/captcha/slider')).json()).data;
  const width = 300;
  // like a hand: eased (not constant speed, not a straight line), ~750 ms, a little vertical wobble
  const track = Array.from({ length: 31 }, (_, i) => [
    Math.round(width * (1 - (1 - i / 30) ** 2.2)),
    i * 25 + (i % 3),
    [0, 1, 1, 2, 1][i % 5],
  ]);
  const verified = await (
    await req.post('/api/captcha/slider/verify', {
      headers: { 'x-xsrf-token': decodeURIComponent(await xsrf()) },
      data: { server: challenge.server, width, track },
    })
  ).json();
  if (verified.code !== 0) throw new Error(`slider: ${verified.msg}`);
  const res = await (
    await req.post('/api/login', {
      headers: { 'x-xsrf-token': decodeURIComponent(await xsrf()) },
      data: {
        username,
        password: createHash('sha256').update(password).digest('hex'),
        server: challenge.server,
        token: verified.data.token,
      },
    })
  ).json();
  if (res.code !== 0) throw new Error(`login ${username}: ${res.msg}`);
}

/** selects a product row of the purchase page */
export async function selectRow(page: Page, name: string) {
  const box = page.getByRole('row').filter({ hasText: name }).getByRole('checkbox');
  await box.click();
  await expect(box).toBeChecked();
}

/** a form POST with the session's CSRF header, as the console posts */
export async function apiPost(page: Page, url: string, form: Record<string, string> = {}) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return (await (
    await page.request.post(url, { headers: { 'x-xsrf-token': decodeURIComponent(xsrf) }, form })
  ).json()) as { code: number; msg: string; data: any };
}

/**
 * A page.waitForURL matcher for a console path (`/remain?type=0`): the path ends so and the named
 * query parameters have these values. List pages write their filters into the address bar
 * (useSchemaList) right after they open, so a pattern without the query would race that.
 */
export function onPage(pathAndQuery: string): (url: URL) => boolean {
  const [path, query = ''] = pathAndQuery.split('?');
  const wanted = [...new URLSearchParams(query)];
  return (url) => url.pathname.endsWith(path) && wanted.every(([k, v]) => url.searchParams.get(k) === v);
}
