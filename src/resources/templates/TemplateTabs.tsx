/** /template/TestReportLayout: tabs template_Intelligent (智能模板) and template_General (通用模板), read from the screen table (useScreen). */
import { Tabs } from 'antd';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { tabsOf } from '@/layout/declarations';
import { useScreen } from '@/layout/screens';

export function TemplateTabs() {
  const templateTabs = useScreen('template_TestReportLayout');
  const generalTemplatesTab = useScreen('template_General');
  const TEMPLATE_TABS = tabsOf(templateTabs);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const path = pathname.replace(/\/+$/, '');
  if (path === templateTabs.path) return <Navigate to={TEMPLATE_TABS[0].path} replace />;
  const active = path.endsWith('/general') ? generalTemplatesTab.name : TEMPLATE_TABS[0].key;
  return (
    <>
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(TEMPLATE_TABS.find((t) => t.key === key)!.path)}
        items={TEMPLATE_TABS.map((t) => ({ key: t.key, label: t.label }))}
        style={{ marginBottom: 0 }}
      />
      <Outlet />
    </>
  );
}

export default TemplateTabs;
