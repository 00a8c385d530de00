/**
 * Online support: a floating button that opens the list of support contacts (GET /supportInfo):
 * position name, QQ (tencent:// link), mobile, e-mail.
 */
import { useState } from 'react';
import { useList } from '@refinedev/core';
import { Drawer, Empty, FloatButton, List, Space, Spin, Typography } from 'antd';
import { CustomerServiceOutlined, MailOutlined, MobileOutlined, QqOutlined } from '@ant-design/icons';
import type { SupportContact } from '@/generated/schemas';
import { supportContacts } from '@/custom-pages/help/data';

export function SupportPanel({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const { result, query } = useList<SupportContact & { id?: string }>({
    resource: supportContacts.name,
    pagination: { mode: 'off' },
    queryOptions: { enabled: open },
  });
  const contacts = result.data ?? [];
  return (
    <>
      <FloatButton
        icon={<CustomerServiceOutlined />}
        type="primary"
        tooltip="在线客服"
        aria-label="在线客服"
        onClick={() => setOpen(true)}
      />
      <Drawer title="在线客服" open={open} onClose={() => setOpen(false)} width={320}>
        {query.isLoading ? (
          <Spin />
        ) : contacts.length === 0 ? (
          <Empty description="暂无客服联系方式" />
        ) : (
          <List
            dataSource={contacts}
            rowKey={(c) => `${c.name}-${c.qq ?? ''}-${c.mobile ?? ''}`}
            renderItem={(c) => (
              <List.Item>
                <Space direction="vertical" size={2}>
                  <Typography.Text strong>{c.name}</Typography.Text>
                  {c.qq && (
                    <a href={`tencent://message/?uin=${encodeURIComponent(c.qq)}`}>
                      <QqOutlined /> QQ：{c.qq}
                    </a>
                  )}
                  {c.mobile && (
                    <span>
                      <MobileOutlined /> 手机：{c.mobile}
                    </span>
                  )}
                  {c.email && (
                    <a href={`mailto:${c.email}`}>
                      <MailOutlined /> 邮箱：{c.email}
                    </a>
                  )}
                </Space>
              </List.Item>
            )}
          />
        )}
      </Drawer>
    </>
  );
}
