/**
 * /account/info: tabs 基本信息 (/account/info/base) and 资质认证 (/account/info/base/auth, with the
 * re-certification form at /account/info/base/auth/re); paths and labels from the screen table (useScreen).
 */
import { Card, Tabs } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useScreen, useScreenPath } from '@/layout/screens';

export default function BaseInfoLayout() {
  const certificationTab = useScreen('account_info_auth');
  const baseInfoTab = useScreen('account_info_base');
  const BASE_ROUTE = useScreenPath(baseInfoTab.name);
  const AUTH_ROUTE = useScreenPath(certificationTab.name);
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const active = pathname.startsWith(AUTH_ROUTE) ? AUTH_ROUTE : BASE_ROUTE;
  return (
    <Card>
      <Tabs
        activeKey={active}
        onChange={(k) => navigate(k === AUTH_ROUTE ? `${k}${search}` : k)}
        items={[
          { key: BASE_ROUTE, label: baseInfoTab.label },
          { key: AUTH_ROUTE, label: certificationTab.label },
        ]}
      />
      <Outlet />
    </Card>
  );
}
