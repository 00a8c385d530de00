/** /template/TestReportLayout: tabs template_Intelligent (智能模板) and template_General (通用模板). */
import { Tabs } from 'antd';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';

export const TEMPLATE_TABS = [
  { key: 'template_Intelligent', label: '智能模板', path: '/template/TestReportLayout/intelligent' },
  { key: 'template_General', label: '通用模板', path: '/template/TestReportLayout/intelligent/general' },
];

export function TemplateTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const path = pathname.replace(/\/+$/, '');
  if (path === '/template/TestReportLayout') return <Navigate to={TEMPLATE_TABS[0].path} replace />;
  const active = path.endsWith('/general') ? 'template_General' : 'template_Intelligent';
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
