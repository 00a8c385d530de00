/** /customer/sendlayout: tabs statistics_sendrecord (发送记录) and statistics_reply (回复记录), read from the screen table (useScreen). */
import { Tabs } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { tabsOf } from '@/layout/declarations';
import { useScreen } from '@/layout/screens';

export function SendRecordTabs() {
  const sendRecordTab = useScreen('statistics_sendrecord');
  const replyTab = useScreen('statistics_reply');
  const SEND_RECORD_TABS = tabsOf(useScreen('statistics_sendlayout'));
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = pathname.replace(/\/+$/, '').endsWith('/reply') ? replyTab.name : sendRecordTab.name;
  return (
    <>
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(SEND_RECORD_TABS.find((t) => t.key === key)!.path)}
        items={SEND_RECORD_TABS.map((t) => ({ key: t.key, label: t.label }))}
        style={{ marginBottom: 0 }}
      />
      <Outlet />
    </>
  );
}

export default SendRecordTabs;
