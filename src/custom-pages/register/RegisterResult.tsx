/** The two views after a successful registration. */
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Button, Result } from 'antd';
import { useStableCallback } from '../../components/SchemaForm';
import { useCountdown } from '../../components/CountdownButton';
import { MESSAGES } from '../../../common/schema/messages';

const JUMP_SECONDS = 3;

/** A session was opened: go on to certification, or back. */
export function RegisteredAndLoggedIn() {
  const navigate = useNavigate();
  return (
    <Result
      status="success"
      title={MESSAGES.registered}
      subTitle="您的账户已开通。完成资质认证后即可发送短信。"
      extra={[
        <Button key="auth" type="primary" onClick={() => navigate('/account/info/base/auth')}>
          去认证
        </Button>,
        <Button key="back" onClick={() => navigate('/')}>
          返回
        </Button>,
      ]}
    />
  );
}

/** Registration done, log in next: jumps to /login after 3 seconds. */
export function RegisteredGoLogin() {
  const navigate = useNavigate();
  const toLogin = useStableCallback(() => void navigate('/login'));
  const { left, start } = useCountdown(toLogin);
  useEffect(() => start(JUMP_SECONDS), [start]);
  return (
    <Result
      status="success"
      title="注册完成"
      subTitle={`${left}秒后自动跳转到登录页`}
      extra={
        <Button type="primary" onClick={toLogin}>
          立即跳转
        </Button>
      }
    />
  );
}
