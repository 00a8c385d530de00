/**
 * The console's index.html as the server hands it out: the brand of the request's host (its
 * branding's company_name, GET /loginInfo's) is written into the page before it leaves, as its
 * <title> and as <meta name="application-name">, so the first paint already shows the brand the
 * console then reads from /loginInfo: nothing flips from a built-in name to the agent's (issue 41
 * item 1). The console reads the meta as its name until /loginInfo has answered (src/lib/brand.ts).
 */
import { esc } from '../help';

/** the meta the console reads its first brand from (src/lib/brand.ts reads the same name) */
export const BRAND_META = 'application-name';

/** `template` (the built index.html) with `name` as its title and application-name; unchanged without a name. */
export function brandedConsolePage(template: string, name: string | null | undefined): string {
  const brand = (name ?? '').trim();
  if (!brand) return template;
  const meta = `<meta name="${BRAND_META}" content="${esc(brand)}" />`;
  const title = `<title>${esc(brand)}</title>`;
  const TITLE = /<title>[\s\S]*?<\/title>/i;
  return TITLE.test(template)
    ? template.replace(TITLE, () => `${title}\n    ${meta}`)
    : template.replace(/<\/head>/i, () => `  ${title}\n    ${meta}\n  </head>`);
}
