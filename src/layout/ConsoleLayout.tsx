/**
 * The console shell: header (platform logo/name, account, user type, logout), side menu (the
 * screens of src/screens.tsx this account may open; collapsed below MENU_COLLAPSE_BELOW px), certification banner, content, footer
 * (copyright), support panel and the session-timeout overlay. Protected routes render inside it
 * (<Outlet/>), behind the route guard. The browser tab's title is "<screen label> - <brand>" of
 * the screen showing (src/lib/brand.ts: the brand the server wrote into the page until
 * /loginInfo answers, so the name never flips).
 */
import { useMemo, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageErrorBoundary } from '@/components/PageErrorBoundary';
import { useLogout } from '@refinedev/core';
import { Button, Layout, Menu, Space, Spin, Tag, Typography } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { enumLabel } from '@/schema';
import { MENU_COLLAPSE_BELOW, menuItems, selectedKey, useMenuCollapsed, useSessionCheckOnNavigate } from './shell';
import { accessUserOf, useBranding, useCertificationWatch, useCurrentUser } from './hooks';
import { menuFor, screenAt, useScreens } from './screens';
import { RouteGuard } from './RouteGuard';
import { CertificationBanner } from './CertificationBanner';
import { SupportPanel } from './SupportPanel';
import { SessionTimeoutOverlay } from './SessionTimeoutOverlay';
import { UserType } from '@/generated/schemas';
import { RechargeButton } from '@/components/OnlinePay';
import { brandName, usePageTitle } from '@/lib/brand';

const { Header, Sider, Content, Footer } = Layout;

export { MENU_COLLAPSE_BELOW };

/** the tab's title on a path no screen has (the Not Found page) */
const NOT_FOUND_TITLE = '页面不存在';

export interface ConsoleLayoutProps {
  /** content to show instead of the route outlet (stories) */
  children?: ReactNode;
  /** open the support panel at once (stories) */
  supportOpen?: boolean;
  /** the side menu's first state (stories); default: collapsed below MENU_COLLAPSE_BELOW px */
  menuCollapsed?: boolean;
  /** how often the certification status is asked again while 待认证 (stories shorten it) */
  certificationPollMs?: number;
}

export default function ConsoleLayout({
  children,
  supportOpen,
  menuCollapsed,
  certificationPollMs,
}: ConsoleLayoutProps) {
  useSessionCheckOnNavigate();
  const location = useLocation();
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const { branding } = useBranding();
  const { info: certification } = useCertificationWatch(user, certificationPollMs);
  const { mutate: logout, isPending: loggingOut } = useLogout();
  const [collapsed, setCollapsed] = useMenuCollapsed(menuCollapsed);

  const table = useScreens();
  const entries = useMemo(() => menuFor(table, accessUserOf(user, certification)), [table, user, certification]);
  const items = useMemo(() => menuItems(entries), [entries]);
  const platformName = brandName(branding?.company_name);
  // the screen showing (the deepest one: a tab's own label): the tab's title, and whether its page
  // states the certification itself (then the banner would only repeat it)
  const here = useMemo(() => screenAt(table, location.pathname), [table, location.pathname]);
  usePageTitle(here?.screen.label ?? (children ? undefined : NOT_FOUND_TITLE), branding?.company_name);
  const pageShowsCertification = here?.chain.some((s) => s.showsCertification) ?? false;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Sider
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        theme="dark"
        width={208}
        data-testid="side-menu"
        data-collapsed={collapsed}
      >
        <div
          style={{
            height: 64,
            display: 'flex',
            alignItems: 'center',
            gap: 8,
            padding: '0 16px',
            color: '#fff',
            cursor: 'pointer',
            overflow: 'hidden',
          }}
          onClick={() => navigate('/')}
        >
          {branding?.company_logo_url && (
            <img
              src={branding.company_logo_url}
              alt={platformName}
              style={{ height: 32, maxWidth: collapsed ? 48 : 60, objectFit: 'contain' }}
            />
          )}
          {!collapsed && (
            <Typography.Text strong ellipsis style={{ color: '#fff', fontSize: 16 }} data-testid="platform-name">
              {platformName}
            </Typography.Text>
          )}
        </div>
        <Menu
          theme="dark"
          mode="inline"
          items={items}
          selectedKeys={selectedKey(entries, location.pathname)}
          aria-label="主菜单"
        />
      </Sider>
      <Layout>
        <Header
          style={{
            background: '#fff',
            padding: '0 24px',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'flex-end',
            boxShadow: '0 1px 4px rgba(0,21,41,0.08)',
          }}
        >
          {user ? (
            <Space size="middle" data-testid="account">
              <Tag color={user.userType === UserType.Agent ? 'blue' : 'green'}>
                {enumLabel('user-type', user.userType)}
              </Tag>
              <span>
                {user.name || user.realname || user.clientid}
                <Typography.Text type="secondary">（{user.clientid}）</Typography.Text>
              </span>
              {/* 在线充值: userType 1 and isOpenPay = 1 (the button checks both) */}
              <RechargeButton user={user} />
              <Button icon={<LogoutOutlined />} loading={loggingOut} onClick={() => logout()}>
                退出登录
              </Button>
            </Space>
          ) : (
            <Spin size="small" />
          )}
        </Header>
        {!pageShowsCertification && <CertificationBanner info={certification} />}
        <Content style={{ margin: 24 }}>
          {children ?? (
            <RouteGuard>
              {/* a page whose chunk fails to load, or that throws, shows why and a reload in the shell */}
              <PageErrorBoundary resetKey={location.pathname}>
                <Outlet />
              </PageErrorBoundary>
            </RouteGuard>
          )}
        </Content>
        <Footer style={{ textAlign: 'center', color: 'rgba(0,0,0,0.45)' }} data-testid="copyright">
          {branding?.copyright_text}
        </Footer>
      </Layout>
      <SupportPanel defaultOpen={supportOpen} />
      <SessionTimeoutOverlay />
    </Layout>
  );
}
