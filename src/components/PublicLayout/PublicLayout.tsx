/**
 * The frame of the public pages (login, register, forgot password): the agent's brand
 * (GET /loginInfo; until it answers, the one the server wrote into the page: src/lib/brand.ts), the
 * tab's title "<card title> - <brand>", a centred card, the copyright and ICP footer and the online-consulting panel.
 */
import type { ReactNode } from 'react';
import { Alert, ConfigProvider, theme } from 'antd';
import { SupportPanel } from './SupportPanel';
import { usePublicInfo } from './usePublicInfo';
import { brandName, usePageTitle } from '@/lib/brand';

export interface PublicLayoutProps {
  /** the card's heading, e.g. 账户登录 */
  title: ReactNode;
  children: ReactNode;
  /** wider card for longer forms */
  width?: number;
}

export function PublicLayout({ title, children, width = 420 }: PublicLayoutProps) {
  const { token: t } = theme.useToken();
  const { branding, brandingError, contacts } = usePublicInfo();
  const name = brandName(branding.company_name);
  usePageTitle(typeof title === 'string' ? title : undefined, branding.company_name);
  return (
    // plain elements rather than antd Layout and Typography: the public pages load as little as they can
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        background: `linear-gradient(160deg, ${t.colorPrimaryBg} 0%, ${t.colorBgLayout} 55%)`,
      }}
    >
      <header style={{ display: 'flex', alignItems: 'center', gap: 12, height: 64, paddingInline: 32 }}>
        {branding.company_logo_url && <img src={branding.company_logo_url} alt={name} style={{ height: 36 }} />}
        <h1
          style={{ margin: 0, fontSize: t.fontSizeHeading4, fontWeight: t.fontWeightStrong, color: t.colorTextHeading }}
        >
          {name}
        </h1>
      </header>
      <main style={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', padding: '40px 16px' }}>
        {brandingError && (
          <Alert
            type="warning"
            showIcon
            message={brandingError}
            style={{ width, maxWidth: '100%', marginBottom: 16 }}
          />
        )}
        {/* a plain panel, not antd Card: Card brings Tabs (and Menu, Dropdown) onto the public pages */}
        <section
          style={{
            width,
            maxWidth: '100%',
            background: t.colorBgContainer,
            borderRadius: t.borderRadiusLG,
            boxShadow: t.boxShadowTertiary,
            padding: '32px 32px 24px',
          }}
        >
          <h2
            style={{
              textAlign: 'center',
              marginTop: 0,
              marginBottom: 24,
              fontSize: t.fontSizeHeading3,
              fontWeight: t.fontWeightStrong,
              color: t.colorTextHeading,
            }}
          >
            {title}
          </h2>
          <ConfigProvider componentSize="large">{children}</ConfigProvider>
        </section>
      </main>
      <footer
        style={{ padding: '24px 50px', textAlign: 'center', color: t.colorTextSecondary, fontSize: t.fontSizeSM }}
      >
        {branding.copyright_text && <div>{branding.copyright_text}</div>}
        {branding.icp_text && (
          <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer" style={{ color: 'inherit' }}>
            {branding.icp_text}
          </a>
        )}
      </footer>
      <SupportPanel contacts={contacts} />
    </div>
  );
}
