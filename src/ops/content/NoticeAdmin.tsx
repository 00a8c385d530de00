/**
 * 内容 / 平台公告 (/ops/content/notices): the platform's notices (POST /operator/notices/list, newest
 * first; the accounts read them on their home page and 公告 list), 发布公告 (forms/notice-publish.json:
 * title, HTML content cleaned by the notices' allow-list on the server, 置顶) and 删除.
 */
import { useState } from 'react';
import { App, Button, Card, Popconfirm, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import noticePublishForm from '@/generated/forms/notice-publish';
import type { NoticePublishForm, OperatorNotice } from '@/generated/schemas';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { schemaUi } from '@/schema';
import { contentApi } from './api';
import { operatorNotices } from './data';
import { useScreen } from '@/layout/screens';

const publishUi = schemaUi('forms/notice-publish');

const columns: (string | SchemaColumn<OperatorNotice>)[] = [
  {
    field: 'name',
    render: (_v: string, r, _i, cell) => (
      <span>
        {r.top && (
          <Tag color="red" data-testid="notice-top">
            置顶
          </Tag>
        )}
        {cell}
      </span>
    ),
  },
  // the cell already cut to one line (the whole excerpt in its tooltip)
  {
    field: 'excerpt',
    render: (_v: string, _r, _i, cell) => <Typography.Text type="secondary">{cell}</Typography.Text>,
  },
  'releaseTime',
];

export default function NoticeAdmin() {
  const noticesScreen = useScreen();
  const { message } = App.useApp();
  const { tableProps, tableQuery } = useSchemaList<OperatorNotice>(operatorNotices);
  const [publishing, setPublishing] = useState(false);
  const [deleting, setDeleting] = useState<number>();
  const refresh = () => void tableQuery.refetch();

  const remove = async (r: OperatorNotice) => {
    setDeleting(r.id);
    try {
      const msg = await contentApi.deleteNotice(r.id);
      if (msg) message.success(msg);
    } catch {
      // toasted by the HTTP client
    } finally {
      setDeleting(undefined);
      refresh();
    }
  };

  return (
    <Card
      title={noticesScreen.label}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setPublishing(true)}>
          发布公告
        </Button>
      }
    >
      <SchemaTable<OperatorNotice>
        {...tableProps}
        entity={operatorNotices.entity}
        columns={columns}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            width: 100,
            render: (_: unknown, r: OperatorNotice) => (
              <Popconfirm
                title={`确定删除公告“${r.name}”吗？`}
                description="删除后账户将不再看到此公告。"
                okText="删除"
                cancelText="取消"
                onConfirm={() => remove(r)}
              >
                <Button type="link" size="small" danger icon={<DeleteOutlined />} loading={deleting === r.id}>
                  删除
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      <SchemaFormDialog<NoticePublishForm>
        open={publishing}
        title="发布公告"
        form={noticePublishForm}
        fields={['name', 'html', 'top']}
        uiSchema={publishUi}
        initial={{ top: false }}
        save={(v) => contentApi.publishNotice(v)}
        onDone={refresh}
        onClose={() => setPublishing(false)}
        okText="发布"
        errorTestId="notice-refusal"
      >
        <Typography.Paragraph type="secondary">
          发布后所有账户在首页和公告列表中可见；内容中的脚本、样式和表单会被清除。
        </Typography.Paragraph>
      </SchemaFormDialog>
    </Card>
  );
}
