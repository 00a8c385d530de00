/**
 * A screen this account may not open (the route guard shows it instead of the page): why — a
 * direct-charge account pays per message, a postpaid sub-account through its agent — and where to
 * go instead (`go`, a screen the guard resolved), besides the way home.
 */
import { Button, Result, Space } from 'antd';
import { useNavigate } from 'react-router';
import { NO_ACCESS } from '@/providers/access';
import { MESSAGES } from '../../common/schema/messages';

export interface ForbiddenProps {
  /** why this account may not open the page */
  reason?: string;
  /** where to go instead */
  go?: { label: string; link: string };
  /** where 返回首页 leads (the screen table's home: "/", the operators' "/ops") */
  home?: string;
}

export default function Forbidden({ reason = MESSAGES.refusedNotForAccount, go, home = '/' }: ForbiddenProps) {
  const navigate = useNavigate();
  return (
    <div data-testid="forbidden">
      <Result
        status="403"
        title={NO_ACCESS}
        subTitle={<span data-testid="forbidden-reason">{reason}</span>}
        extra={
          <Space wrap style={{ justifyContent: 'center' }}>
            {go && (
              <Button type="primary" onClick={() => navigate(go.link)} data-testid="forbidden-go">
                {go.label}
              </Button>
            )}
            <Button type={go ? 'default' : 'primary'} onClick={() => navigate(home)}>
              返回首页
            </Button>
          </Space>
        }
      />
    </div>
  );
}
