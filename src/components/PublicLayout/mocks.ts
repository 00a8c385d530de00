/**
 * MSW handlers for the public endpoints the auth pages call, shared by their stories and unit
 * tests. `ok`/`fail` build the server's {code, msg, data} answers.
 */
import { http, HttpResponse, delay } from 'msw';

export const ok = (data?: unknown, msg = '') => HttpResponse.json({ code: 0, msg, data });
export const fail = (code: number, msg: string, data?: unknown) => HttpResponse.json({ code, msg, data });

export const branding = {
  company_name: '云讯短信平台',
  copyright_text: 'Copyright © 2026 云讯科技有限公司 版权所有',
  icp_text: '沪ICP备12345678号-1',
  company_logo_url: '',
};

export const contacts = [
  { name: '商务经理', qq: '10001', mobile: '13800138000', email: 'sales@example.com' },
  { name: '技术支持', qq: '10002', mobile: '13900139000', email: 'support@example.com' },
];

export const countryCodes = [
  { countryCode: '86', countryName: '中国' },
  { countryCode: '852', countryName: '中国香港' },
  { countryCode: '853', countryName: '中国澳门' },
  { countryCode: '886', countryName: '中国台湾' },
  { countryCode: '1', countryName: '美国' },
  { countryCode: '44', countryName: '英国' },
  { countryCode: '65', countryName: '新加坡' },
];

const captchaSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="40"><rect width="100" height="40" fill="#f0f5ff"/><text x="14" y="28" font-size="22" font-family="monospace" fill="#1d39c4">7K3P</text></svg>`;

/** A slider that accepts any track reaching the end (set `reject` to answer the server's 400). */
export const sliderHandlers = (opts: { reject?: boolean } = {}) => [
  http.get('*/api/captcha/slider', () => ok({ server: 'challenge-1' })),
  http.post('*/api/captcha/slider/verify', async () => {
    await delay(50);
    return opts.reject ? fail(400, '请按住滑块，拖到最右边') : ok({ token: 'token-1' });
  }),
];

export const publicHandlers = [
  http.get('*/api/loginInfo', () => ok(branding)),
  http.get('*/api/supportInfo', () => ok(contacts)),
  http.post('*/api/userCenter/getCountryCodeList', () => ok(countryCodes)),
  http.get('*/api/captcha.jpg', () => new HttpResponse(captchaSvg, { headers: { 'Content-Type': 'image/svg+xml' } })),
  ...sliderHandlers(),
];
