/**
 * The operator console's shell, as the accounts' (layout/ConsoleLayout) but its own: the platform's
 * brand with 运营后台, the side menu of the operators' screen table that this role may open (the
 * 审核 entries with their pending counts as badges, GET /operator/review/counts; the group with
 * their sum), the header with the operator's name, role tag (enums/operator-role.json) and 退出登录,
 * the route guard, the footer and the session-timeout overlay. The tab's title is "<screen> -
 * <brand>". A session that turns out to be an account's goes to the accounts' console.
 */
import { useMemo, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useGetIdentity, useLogout } from '@refinedev/core';
import { Badge, Button, Layout, Menu, Space, Spin, Typography } from 'antd';
import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import type { ReviewCounts } from '@/generated/schemas';
import { PageErrorBoundary } from '@/components/PageErrorBoundary';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { useBranding } from '@/layout/hooks';
import { RouteGuard } from '@/layout/RouteGuard';
import { SessionTimeoutOverlay } from '@/layout/SessionTimeoutOverlay';
import { menuFor, screenAt, useScreens, type MenuNode } from '@/layout/screens';
import { menuItems, selectedKey, useMenuCollapsed, useSessionCheckOnNavigate } from '@/layout/shell';
import { brandName, usePageTitle } from '@/lib/brand';
import { OPS_HOME, sessionKind } from '@/providers/sessionKind';
import { useReviewCounts } from './review/counts';
import type { OperatorIdentity } from './authProvider';

const { Header, Sider, Content, Footer } = Layout;

/** the console's name under the platform's */
export const OPS_TITLE = '运营后台';

/** A menu entry's count: its badge key's, a group's the sum of its entries'. */
export function countOf(node: MenuNode, counts: Partial<Record<string, number>> | undefined): number | undefined {
  if (!counts) return undefined;
  if (node.children) {
    const own = node.children.map((c) => countOf(c, counts)).filter((n): n is number => n !== undefined);
    return own.length ? own.reduce((a, b) => a + b, 0) : undefined;
  }
  return node.badge ? counts[node.badge] : undefined;
}

export interface OpsLayoutProps {
  /** content instead of the route outlet (stories) */
  children?: ReactNode;
  /** the side menu's first state (stories); default: collapsed below 1280 px */
  menuCollapsed?: boolean;
}

export default function OpsLayout({ children, menuCollapsed }: OpsLayoutProps) {
  useSessionCheckOnNavigate();
  const location = useLocation();
  const navigate = useNavigate();
  const { data: operator, isLoading } = useGetIdentity<OperatorIdentity | null>();
  const { branding } = useBranding();
  const { counts } = useReviewCounts(!!operator);
  const { mutate: logout, isPending: loggingOut } = useLogout();
  const [collapsed, setCollapsed] = useMenuCollapsed(menuCollapsed);
  const table = useScreens();
  const entries = useMemo(() => menuFor(table, operator), [table, operator]);
  const items = useMemo(
    () =>
      menuItems(entries, (node) => {
        const n = countOf(node, counts as Partial<Record<keyof ReviewCounts, number>> | undefined);
        return n ? <Badge count={n} overflowCount={999} size="small" data-testid={`menu-count-${node.key}`} /> : null;
      }),
    [entries, counts],
  );
  const here = useMemo(() => screenAt(table, location.pathname), [table, location.pathname]);
  usePageTitle(here?.screen.label ?? (children ? undefined : '页面不存在'), branding?.company_name);
  const platformName = brandName(branding?.company_name);

  // the session is alive but not an operator's (the browser's note was wrong): the accounts' console
  if (!isLoading && !operator && sessionKind.get() === 'account') return <Navigate to="/" replace />;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Sider
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        theme="dark"
        width={216}
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
          onClick={() => navigate(OPS_HOME)}
        >
          {branding?.company_logo_url && (
            <img
              src={branding.company_logo_url}
              alt={platformName}
              style={{ height: 32, maxWidth: collapsed ? 48 : 60, objectFit: 'contain' }}
            />
          )}
          {!collapsed && (
            <div style={{ display: 'flex', flexDirection: 'column', lineHeight: 1.3, minWidth: 0 }}>
              <Typography.Text strong ellipsis style={{ color: '#fff', fontSize: 15 }} data-testid="platform-name">
                {platformName}
              </Typography.Text>
              <Typography.Text style={{ color: 'rgba(255,255,255,0.55)', fontSize: 12 }}>{OPS_TITLE}</Typography.Text>
            </div>
          )}
        </div>
        {entries.length > 0 && (
          <Menu
            theme="dark"
            mode="inline"
            items={items}
            selectedKeys={selectedKey(entries, location.pathname)}
            defaultOpenKeys={entries.filter((e) => e.children).map((e) => e.key)}
            aria-label="主菜单"
          />
        )}
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
          {operator ? (
            <Space size="middle" data-testid="operator">
              <EnumTag enumName="operator-role" value={operator.role} />
              <span>
                <UserOutlined style={{ marginRight: 6, color: 'rgba(0,0,0,0.45)' }} />
                {operator.name}
              </span>
              <Button icon={<LogoutOutlined />} loading={loggingOut} onClick={() => logout()}>
                退出登录
              </Button>
            </Space>
          ) : (
            <Spin size="small" />
          )}
        </Header>
        <Content style={{ margin: 24 }}>
          {children ?? (
            <RouteGuard>
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
      <SessionTimeoutOverlay />
    </Layout>
  );
}
