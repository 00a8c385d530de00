/**
 * Full-screen 登录超时 overlay, shown when a response reports a session timeout (http.ts
 * onTimeout). Its button leads to /login?redirect=<the page the user was on>.
 */
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button, Result } from 'antd';
import { httpEvents } from '@/providers/http';
import { loginPath } from '@/providers/authProvider';
import { MESSAGES } from '../../common/schema/messages';

export function SessionTimeoutOverlay({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const off = httpEvents.onTimeout(() => setOpen(true));
    return () => {
      off();
    };
  }, []);
  if (!open) return null;
  return (
    <div
      role="alertdialog"
      aria-label={MESSAGES.sessionTimeout}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 2000,
        background: 'rgba(255,255,255,0.96)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      <Result
        status="warning"
        title={MESSAGES.sessionTimeout}
        subTitle="您的登录已过期，请重新登录后继续操作"
        extra={
          <Button
            type="primary"
            onClick={() => {
              setOpen(false);
              void navigate(loginPath(`${location.pathname}${location.search}`), { replace: true });
            }}
          >
            重新登录
          </Button>
        }
      />
    </div>
  );
}
