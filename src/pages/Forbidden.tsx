/** A screen this account may not open (the route guard shows it instead of the page). */
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { NO_ACCESS } from '@/providers/access';

export default function Forbidden() {
  const navigate = useNavigate();
  return (
    <div data-testid="forbidden">
      <Result
        status="403"
        title={NO_ACCESS}
        subTitle="抱歉，您的账户无权访问此页面"
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            返回首页
          </Button>
        }
      />
    </div>
  );
}
