/**
 * A TypeScript module of ours, bundled by esbuild into an IIFE (global `globalName`) and loaded
 * into a blank page of headless Chromium (Debian's /usr/bin/chromium or CHROMIUM_PATH), for the
 * benchmarks that time console code in the browser. Close the browser when done.
 */
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function pageWithModule(entry: string, globalName: string): Promise<{ browser: Browser; page: Page }> {
  const out = await build({ entryPoints: [entry], bundle: true, format: 'iife', globalName, write: false, minify: true });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const page = await browser.newPage();
    await page.addScriptTag({ content: out.outputFiles[0].text });
    return { browser, page };
  } catch (e) {
    await browser.close();
    throw e;
  }
}
