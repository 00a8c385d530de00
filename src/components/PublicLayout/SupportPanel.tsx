/** The "在线咨询" toggle and its panel of support contacts; the panel's contents load when it first opens. */
import { lazy, Suspense, useState } from 'react';
import { Button, Spin, theme } from 'antd';
import { CloseOutlined, CustomerServiceOutlined } from '@ant-design/icons';
import type { SupportContact } from './usePublicInfo';

const SupportContacts = lazy(() => import('./SupportContacts'));

export function SupportPanel({ contacts }: { contacts: SupportContact[] }) {
  const [open, setOpen] = useState(false);
  const { token: t } = theme.useToken();
  return (
    <div
      style={{
        position: 'fixed',
        right: 24,
        bottom: 24,
        zIndex: 10,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'flex-end',
        gap: 12,
      }}
    >
      {open && (
        <div
          role="dialog"
          aria-label="在线咨询"
          style={{
            width: 280,
            background: t.colorBgElevated,
            borderRadius: t.borderRadiusLG,
            boxShadow: t.boxShadowSecondary,
          }}
        >
          <div
            style={{
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              padding: '8px 12px',
              borderBottom: `1px solid ${t.colorSplit}`,
            }}
          >
            <strong style={{ color: t.colorText }}>在线咨询</strong>
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined />}
              aria-label="关闭"
              onClick={() => setOpen(false)}
            />
          </div>
          <div style={{ padding: 12 }}>
            <Suspense fallback={<Spin size="small" />}>
              <SupportContacts contacts={contacts} />
            </Suspense>
          </div>
        </div>
      )}
      <Button
        type="primary"
        shape="round"
        icon={<CustomerServiceOutlined />}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        在线咨询
      </Button>
    </div>
  );
}
