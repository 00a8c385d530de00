/**
 * A TypeScript module of ours, bundled by esbuild into an IIFE (global `globalName`) and loaded
 * into a blank page of headless Chromium (Debian's /usr/bin/chromium or CHROMIUM_PATH), for the
 * benchmarks that time console code in the browser. Close the browser when done.
 */
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function pageWithModule(entry: string, globalName: string): Promise<{ browser: Browser; page: Page }> {
  const { browser, newPage } = await browserWithModule(entry, globalName);
  try {
    const { page } = await newPage();
    return { browser, page };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/**
 * The browser, and fresh pages with the module loaded: each in its own browser context (its own
 * renderer process, so nothing compiled or allocated by an earlier page), with the main thread's
 * CPU time so far (DevTools protocol Performance.getMetrics ThreadTime, ms).
 */
export async function browserWithModule(
  entry: string,
  globalName: string,
): Promise<{
  browser: Browser;
  newPage: () => Promise<{ page: Page; close: () => Promise<void>; threadMs: () => Promise<number> }>;
}> {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName,
    write: false,
    minify: true,
  });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const newPage = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addScriptTag({ content: out.outputFiles[0].text });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const threadMs = async () =>
      1000 * ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN);
    return { page, close: () => context.close(), threadMs };
  };
  return { browser, newPage };
}
