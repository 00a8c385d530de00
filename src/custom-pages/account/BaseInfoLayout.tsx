/**
 * /account/info: tabs 基本信息 (/account/info/base) and 资质认证 (/account/info/base/auth, with the
 * re-certification form at /account/info/base/auth/re).
 */
import { Card, Tabs } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router';

export const BASE_ROUTE = '/account/info/base';
export const AUTH_ROUTE = '/account/info/base/auth';

export default function BaseInfoLayout() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const active = pathname.startsWith(AUTH_ROUTE) ? AUTH_ROUTE : BASE_ROUTE;
  return (
    <Card>
      <Tabs
        activeKey={active}
        onChange={(k) => navigate(k === AUTH_ROUTE ? `${k}${search}` : k)}
        items={[
          { key: BASE_ROUTE, label: '基本信息' },
          { key: AUTH_ROUTE, label: '资质认证' },
        ]}
      />
      <Outlet />
    </Card>
  );
}
