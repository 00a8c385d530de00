/**
 * The platform's name as the console shows it (issue 41 item 1). The server writes the brand of
 * the host into index.html before it leaves (<meta name="application-name">, and the <title>:
 * server/modules/site/console-page.ts), so the first paint already has the name GET /loginInfo
 * then answers: `bootBrand()` reads it, and only a page served without it (the dev server, a
 * host without a branding) falls back to DEFAULT_BRAND. Each screen's tab title is
 * "<screen label> - <brand>" (`pageTitle`, set by `usePageTitle`).
 */
import { useEffect } from 'react';

/** the name when neither /loginInfo nor the served page gives one */
export const DEFAULT_BRAND = '短信服务平台';

/** the brand the server wrote into the page, else DEFAULT_BRAND */
export function bootBrand(): string {
  const meta =
    typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>('meta[name="application-name"]');
  return meta?.content.trim() || DEFAULT_BRAND;
}

/** the brand to show: /loginInfo's company_name once known, the served page's until then */
export const brandName = (companyName?: string | null) => companyName?.trim() || bootBrand();

/** a browser tab's title: "<screen label> - <brand>", the brand alone without a label */
export const pageTitle = (label: string | undefined, brand: string) => (label ? `${label} - ${brand}` : brand);

/** Sets the tab's title while the page shows. */
export function usePageTitle(label: string | undefined, companyName?: string | null) {
  const title = pageTitle(label, brandName(companyName));
  useEffect(() => {
    document.title = title;
  }, [title]);
}
