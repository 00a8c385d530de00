/** /sms/smspurchaselayout: tabs service_purchase (购买短信) and service_international (国际短信价格). */
import { Tabs } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router';

export const PURCHASE_TABS = [
  { key: 'service_purchase', label: '购买短信', path: '/sms/smspurchaselayout/purchase' },
  { key: 'service_international', label: '国际短信价格', path: '/sms/smspurchaselayout/purchase/international' },
];

export function PurchaseTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = pathname.replace(/\/+$/, '').endsWith('/international') ? 'service_international' : 'service_purchase';
  return (
    <>
      <Tabs activeKey={active} onChange={(key) => navigate(PURCHASE_TABS.find((t) => t.key === key)!.path)} items={PURCHASE_TABS.map((t) => ({ key: t.key, label: t.label }))} style={{ marginBottom: 0 }} />
      <Outlet />
    </>
  );
}

export default PurchaseTabs;
