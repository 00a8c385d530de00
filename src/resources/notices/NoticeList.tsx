/** 公告 (/notice/notice): search by content (Enter or 查询), click a row to read the notice. */
import { useNavigate } from 'react-router';
import { Card, Typography } from 'antd';
import { YesNo, type Notice } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { noticePlainText } from './noticeHtml';
import { noticeListScreen, notices, noticeViewPath } from '.';

export default function NoticeList() {
  const navigate = useNavigate();
  const { tableProps, searchFormProps } = useSchemaList<Notice>(notices);
  return (
    <Card title={noticeListScreen.label}>
      <SchemaFilterBar filter={notices.filter} formProps={searchFormProps} />
      <SchemaTable<Notice>
        {...tableProps}
        entity={notices.entity}
        data-testid="notice-table"
        columns={[
          {
            field: 'noticeName',
            width: 280,
            render: (v: string, r) => (
              <Typography.Link onClick={() => navigate(noticeViewPath(r.id))}>
                {r.isTop === YesNo.Yes && <Typography.Text type="danger">[置顶] </Typography.Text>}
                {v}
              </Typography.Link>
            ),
          },
          {
            field: 'noticeContent',
            render: (v: string) => <Typography.Text type="secondary">{noticePlainText(v, 60)}</Typography.Text>,
          },
          { field: 'releaseTimeToStr', width: 180 },
        ]}
        onRow={(r) => ({ onClick: () => void navigate(noticeViewPath(r.id)), style: { cursor: 'pointer' } })}
      />
    </Card>
  );
}
