/** Public site data: branding by host, support contacts, the country calling codes. */
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import type { AppContext } from '../../context';
import { ApiError } from '../../http/errors';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/zh.json'));

export interface BrandingInfo {
  copyright_text: string;
  company_logo_url: string;
  company_name: string;
  icp_text: string;
  demo_file_path: string;
  systemInfoShow: Record<string, number>;
}

export interface SupportContact {
  name: string;
  qq: string;
  mobile: string;
  email: string;
}

export interface CountryCode {
  countryCode: string;
  countryName: string;
}

export const UNBOUND_DOMAIN = '域名未绑定代理商，请联系运营人员处理';

let countryList: CountryCode[] | undefined;

/** Every region libphonenumber-js knows, Chinese names, 中国 +86 first, then by name (pinyin order). */
export function countryCodes(): CountryCode[] {
  if (countryList) return countryList;
  const collator = new Intl.Collator('zh-CN');
  const list = getCountries().map((iso) => ({
    iso,
    countryCode: String(getCountryCallingCode(iso)),
    countryName: countries.getName(iso, 'zh') ?? iso,
  }));
  list.sort((a, b) => (a.iso === 'CN' ? -1 : b.iso === 'CN' ? 1 : collator.compare(a.countryName, b.countryName)));
  countryList = list.map(({ countryCode, countryName }) => ({ countryCode, countryName }));
  return countryList;
}

export function isKnownCallingCode(code: string): boolean {
  return countryCodes().some((c) => c.countryCode === code);
}

/** 'sms.example.com:8080' -> 'sms.example.com' */
function hostName(host: string | undefined): string {
  return (host ?? '')
    .trim()
    .toLowerCase()
    .replace(/:\d+$/, '')
    .replace(/^\[|\]$/g, '');
}

function matches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  if (p.startsWith('*.')) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
  return p === host;
}

export class SiteService {
  constructor(private readonly ctx: AppContext) {}

  /** The branding bound to this host (exact, then wildcard), else the default; 500 when neither exists. */
  async branding(host: string | undefined): Promise<BrandingInfo & { id: number }> {
    const h = hostName(host);
    const rows = await this.ctx.db.selectFrom('branding').selectAll().execute();
    const row =
      rows.find((r) => r.host_pattern && !r.host_pattern.startsWith('*.') && matches(r.host_pattern, h)) ??
      rows
        .filter((r) => r.host_pattern?.startsWith('*.') && matches(r.host_pattern, h))
        .sort((a, b) => b.host_pattern!.length - a.host_pattern!.length)[0] ??
      rows.find((r) => r.host_pattern === null);
    if (!row) throw new ApiError(500, UNBOUND_DOMAIN);
    return {
      id: row.id,
      copyright_text: row.copyright_text,
      company_logo_url: row.company_logo_url,
      company_name: row.company_name,
      icp_text: row.icp_text,
      demo_file_path: row.demo_file_path,
      systemInfoShow: row.system_info_show ?? {},
    };
  }

  /** Contacts of the host's branding, falling back to the shared ones. */
  async supportContacts(host: string | undefined): Promise<SupportContact[]> {
    let brandingId: number | null = null;
    try {
      brandingId = (await this.branding(host)).id;
    } catch {
      brandingId = null;
    }
    const rows = await this.ctx.db
      .selectFrom('support_contacts')
      .select(['name', 'qq', 'mobile', 'email', 'branding_id'])
      .where((eb) =>
        brandingId === null
          ? eb('branding_id', 'is', null)
          : eb.or([eb('branding_id', '=', brandingId), eb('branding_id', 'is', null)]),
      )
      .orderBy('sort')
      .orderBy('id')
      .execute();
    const own = rows.filter((r) => r.branding_id !== null);
    return (own.length ? own : rows).map(({ name, qq, mobile, email }) => ({ name, qq, mobile, email }));
  }
}
