/** The contacts in the "在线咨询" panel (position, QQ, mobile, e-mail): loaded when the panel first opens. */
import { Divider, Empty, Space } from 'antd';
import { MailOutlined, MobileOutlined, QqOutlined } from '@ant-design/icons';
import type { SupportContact } from './usePublicInfo';

export default function SupportContacts({ contacts }: { contacts: SupportContact[] }) {
  if (!contacts.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无客服信息" />;
  // a plain list: antd's List would bring its pager (and Select) onto the login page
  return (
    <div role="list">
      {contacts.map((c, i) => (
        <div role="listitem" key={`${c.name}-${i}`}>
          {i > 0 && <Divider style={{ margin: '8px 0' }} />}
          <Space direction="vertical" size={2}>
            <strong>{c.name}</strong>
            {c.qq && (
              <a href={`tencent://message/?uin=${encodeURIComponent(c.qq)}`}>
                <QqOutlined /> QQ：{c.qq}
              </a>
            )}
            {c.mobile && (
              <a href={`tel:${c.mobile}`}>
                <MobileOutlined /> 手机：{c.mobile}
              </a>
            )}
            {c.email && (
              <a href={`mailto:${c.email}`}>
                <MailOutlined /> 邮箱：{c.email}
              </a>
            )}
          </Space>
        </div>
      ))}
    </div>
  );
}
