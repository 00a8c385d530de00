/** /customer/sendlayout: tabs statistics_sendrecord (发送记录) and statistics_reply (回复记录). */
import { Tabs } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router';

export const SEND_RECORD_TABS = [
  { key: 'statistics_sendrecord', label: '发送记录', path: '/customer/sendlayout/sendrecord' },
  { key: 'statistics_reply', label: '回复记录', path: '/customer/sendlayout/sendrecord/reply' },
];

export function SendRecordTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = pathname.replace(/\/+$/, '').endsWith('/reply') ? 'statistics_reply' : 'statistics_sendrecord';
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
