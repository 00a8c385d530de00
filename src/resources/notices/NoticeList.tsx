/** 公告 (/notice/notice): search by content (Enter or 查询), click a row to read the notice. */
import { useNavigate } from 'react-router';
import { Card, Typography } from 'antd';
import { YesNo, type Notice } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { CutText, ELLIPSIS_WIDTH, SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { noticePlainText } from '@/components/NoticeHtml/noticeHtml';
import { notices, noticeViewPath } from './data';
import { useScreen, useScreenPath } from '@/layout/screens';

export default function NoticeList() {
  const noticeListScreen = useScreen();
  const viewPath = useScreenPath('notice_view');
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
              <Typography.Link onClick={() => navigate(noticeViewPath(viewPath, r.id))}>
                {r.isTop === YesNo.Yes && <Typography.Text type="danger">[置顶] </Typography.Text>}
                {v}
              </Typography.Link>
            ),
          },
          {
            field: 'noticeContent',
            // one line, cut (the start of the text in a tooltip): the 发布时间 stays in view
            render: (v: string) => {
              const text = noticePlainText(v, 200);
              return (
                <CutText width={ELLIPSIS_WIDTH + 120} title={text}>
                  <Typography.Text type="secondary">{text}</Typography.Text>
                </CutText>
              );
            },
          },
          { field: 'releaseTimeToStr', width: 180 },
        ]}
        onRow={(r) => ({ onClick: () => void navigate(noticeViewPath(viewPath, r.id)), style: { cursor: 'pointer' } })}
      />
    </Card>
  );
}
