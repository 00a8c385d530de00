/** /sms/smspurchaselayout: tabs service_purchase (购买短信) and service_international (国际短信价格), read from the screen table (useScreen). */
import { Tabs } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { tabsOf } from '@/layout/declarations';
import { useScreen } from '@/layout/screens';

export function PurchaseTabs() {
  const purchaseTab = useScreen('service_purchase');
  const internationalPricesTab = useScreen('service_international');
  const PURCHASE_TABS = tabsOf(useScreen('service_purchaselayout'));
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = pathname.replace(/\/+$/, '').endsWith('/international')
    ? internationalPricesTab.name
    : purchaseTab.name;
  return (
    <>
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(PURCHASE_TABS.find((t) => t.key === key)!.path)}
        items={PURCHASE_TABS.map((t) => ({ key: t.key, label: t.label }))}
        style={{ marginBottom: 0 }}
      />
      <Outlet />
    </>
  );
}

export default PurchaseTabs;
