import { afterEach, describe, expect, it } from 'vitest';
import { bootBrand, brandName, DEFAULT_BRAND, pageTitle } from '@/lib/brand';

describe('the brand before and after /loginInfo (issue 41 item 1)', () => {
  afterEach(() => document.querySelectorAll('meta[name="application-name"]').forEach((m) => m.remove()));

  it('is the name the server wrote into the page until /loginInfo answers', () => {
    expect(bootBrand()).toBe(DEFAULT_BRAND);
    const meta = document.createElement('meta');
    meta.name = 'application-name';
    meta.content = ' 优信短信平台 ';
    document.head.append(meta);
    expect(bootBrand()).toBe('优信短信平台');
    expect(brandName(undefined)).toBe('优信短信平台');
    expect(brandName('')).toBe('优信短信平台');
    expect(brandName('云讯通短信平台')).toBe('云讯通短信平台');
  });

  it('titles a tab "<screen label> - <brand>", the brand alone without a label', () => {
    expect(pageTitle('发送任务', '云讯通短信平台')).toBe('发送任务 - 云讯通短信平台');
    expect(pageTitle(undefined, '云讯通短信平台')).toBe('云讯通短信平台');
  });
});
