/** /account/security: login e-mail, login phone, masked password and 修改密码. */
import { Button, Card, Descriptions, Skeleton } from 'antd';
import { useNavigate } from 'react-router';
import { useUserInfo } from './api';
import { useScreen } from '@/layout/screens';

export default function SecurityPage() {
  const securityScreen = useScreen();
  const passwordScreen = useScreen('account_security_password');
  const { data: user, isLoading } = useUserInfo();
  const navigate = useNavigate();
  return (
    <Card title={securityScreen.label}>
      {isLoading || !user ? (
        <Skeleton active />
      ) : (
        <Descriptions column={1} bordered size="middle" style={{ maxWidth: 640 }} data-testid="security-view">
          <Descriptions.Item label="登录邮箱">{user.email || '-'}</Descriptions.Item>
          <Descriptions.Item label="登录手机">{user.mobile || '-'}</Descriptions.Item>
          <Descriptions.Item label="登录密码">
            <span style={{ marginRight: 24 }}>********</span>
            <Button type="primary" onClick={() => navigate(passwordScreen.path)}>
              {passwordScreen.label}
            </Button>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
