/** Any unknown path; 返回首页 leads to `home` (the operators' console: /ops). */
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

export default function NotFound({ home = '/' }: { home?: string }) {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="Not Found"
      subTitle="抱歉，您访问的页面不存在"
      extra={
        <Button type="primary" onClick={() => navigate(home)}>
          返回首页
        </Button>
      }
    />
  );
}
