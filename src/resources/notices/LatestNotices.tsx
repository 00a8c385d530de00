/** 最新公告: the home page's card, at most 10 (GET /agent/notice), each opening its notice. */
import { Link } from 'react-router';
import { Card, List, Typography } from 'antd';
import { useCustom } from '@refinedev/core';
import { type Notice, YesNo } from '@/generated/schemas';
import { useScreen, useScreenPath } from '@/layout/screens';
import { noticeViewPath } from './data';

export const HOME_NOTICE_COUNT = 10;

export function LatestNotices() {
  const noticeListScreen = useScreen('notice');
  const viewPath = useScreenPath('notice_view');
  const { result, query } = useCustom<Notice[]>({ url: '/agent/notice', method: 'get', meta: { silent: true } });
  const notices = (Array.isArray(result.data) ? result.data : []).slice(0, HOME_NOTICE_COUNT);
  return (
    <Card
      title="最新公告"
      extra={<Link to={noticeListScreen.path}>更多</Link>}
      style={{ marginTop: 16 }}
      data-testid="latest-notices"
    >
      <List<Notice>
        size="small"
        loading={query.isLoading}
        dataSource={notices}
        locale={{ emptyText: query.isError ? '公告加载失败' : '暂无公告' }}
        renderItem={(n) => (
          <List.Item
            extra={
              <Typography.Text type="secondary">
                {(n.releaseTimeToStr ?? n.releaseTime ?? '').slice(0, 10)}
              </Typography.Text>
            }
          >
            <Link to={noticeViewPath(viewPath, n.id)}>
              {n.isTop === YesNo.Yes && <Typography.Text type="danger">[置顶] </Typography.Text>}
              {n.noticeName}
            </Link>
          </List.Item>
        )}
      />
    </Card>
  );
}

export default LatestNotices;
