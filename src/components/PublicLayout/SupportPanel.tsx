/** The "在线咨询" toggle and its panel of support contacts (position, QQ, mobile, e-mail). */
import { useState } from 'react';
import { Button, Divider, Empty, Space, Typography, theme } from 'antd';
import { CloseOutlined, CustomerServiceOutlined, MailOutlined, MobileOutlined, QqOutlined } from '@ant-design/icons';
import type { SupportContact } from './usePublicInfo';

export function SupportPanel({ contacts }: { contacts: SupportContact[] }) {
  const [open, setOpen] = useState(false);
  const { token: t } = theme.useToken();
  return (
    <div style={{ position: 'fixed', right: 24, bottom: 24, zIndex: 10, display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 12 }}>
      {open && (
        <div
          role="dialog"
          aria-label="在线咨询"
          style={{ width: 280, background: t.colorBgElevated, borderRadius: t.borderRadiusLG, boxShadow: t.boxShadowSecondary }}
        >
          <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: '8px 12px', borderBottom: `1px solid ${t.colorSplit}` }}>
            <Typography.Text strong>在线咨询</Typography.Text>
            <Button type="text" size="small" icon={<CloseOutlined />} aria-label="关闭" onClick={() => setOpen(false)} />
          </div>
          <div style={{ padding: 12 }}>
          {contacts.length ? (
            // a plain list: antd's List would bring its pager (and Select) onto the login page
            <div role="list">
              {contacts.map((c, i) => (
                <div role="listitem" key={`${c.name}-${i}`}>
                  {i > 0 && <Divider style={{ margin: '8px 0' }} />}
                  <Space direction="vertical" size={2}>
                    <Typography.Text strong>{c.name}</Typography.Text>
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
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无客服信息" />
          )}
          </div>
        </div>
      )}
      <Button type="primary" shape="round" icon={<CustomerServiceOutlined />} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        在线咨询
      </Button>
    </div>
  );
}
