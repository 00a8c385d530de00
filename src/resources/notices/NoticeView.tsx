/** 公告详情 (/notice/view?noticeId=): title, release time, the sanitized HTML body, back. */
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Card, Divider, Result, Skeleton, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useOne, type HttpError } from '@refinedev/core';
import type { Notice } from '@/generated/schemas';
import { safeNoticeHtml } from '@/components/NoticeHtml/noticeHtml';
import { MESSAGES } from '../../../common/schema/messages';
import { notices } from './data';
import { useScreen } from '@/layout/screens';

export default function NoticeView() {
  const noticeListScreen = useScreen('notice');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('noticeId') ?? '';
  const { result, query } = useOne<Notice, HttpError>({
    resource: notices.name,
    id,
    queryOptions: { enabled: !!id, retry: false },
  });
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(noticeListScreen.path)}>
      返回
    </Button>
  );
  if (id && query.isLoading)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  if (!id || query.isError || !result) {
    const notFound = !id || query.error?.statusCode === 404;
    return (
      <Card>
        <Result
          status={notFound ? '404' : 'error'}
          title={notFound ? MESSAGES.noticeNotFound : (query.error?.message ?? '公告加载失败')}
          extra={back}
        />
      </Card>
    );
  }
  return (
    <Card extra={back}>
      <Typography.Title level={3} style={{ marginTop: 0, textAlign: 'center' }} data-testid="notice-title">
        {result.noticeName}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
        发布时间：{result.releaseTimeToStr ?? result.releaseTime}
      </Typography.Paragraph>
      <Divider />
      <div
        className="notice-body"
        data-testid="notice-body"
        style={{ lineHeight: 1.8, overflowX: 'auto' }}
        dangerouslySetInnerHTML={{ __html: safeNoticeHtml(result.noticeContent) }}
      />
    </Card>
  );
}
