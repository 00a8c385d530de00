/**
 * 文档下载 (/help/document): the API documents that exist (systemInfoShow), the FAQ document for
 * agents, and below them the customer HTTP API (/openapi/v1: its OpenAPI document, signing, curl
 * and Node.js examples; OpenApiGuide.tsx).
 */
import { Alert, Button, Card, List, Skeleton } from 'antd';
import { DownloadOutlined, FileTextOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import { type Branding, YesNo } from '@/generated/schemas';
import { isAgent } from '@/providers/access';
import { useCurrentUser } from '@/layout/hooks';
import { HELP_DOCUMENTS } from './documents';
import { useScreen } from '@/layout/screens';
import OpenApiGuide from './OpenApiGuide';

export default function HelpDocumentPage() {
  const documentScreen = useScreen();
  const { user } = useCurrentUser();
  // fresh flags: a document the operator has just placed shows without a reload of the console
  const { result, query } = useCustom<Branding>({ url: '/loginInfo', method: 'get', queryOptions: { staleTime: 0 } });
  const flags = (result.data as Branding | undefined)?.systemInfoShow ?? {};
  const docs = HELP_DOCUMENTS.filter((d) => Number(flags[d.key]) === YesNo.Yes && (!d.agentOnly || isAgent(user)));
  return (
    <>
      <Card title={documentScreen.label}>
        {query.isLoading ? (
          <Skeleton active />
        ) : query.isError ? (
          <Alert type="error" showIcon message="文档列表加载失败，请稍后重试" />
        ) : (
          <List
            itemLayout="horizontal"
            dataSource={docs}
            locale={{ emptyText: '暂无可下载的文档' }}
            renderItem={(d) => (
              <List.Item
                data-testid={`help-doc-${d.key}`}
                actions={[
                  <Button key="dl" type="link" icon={<DownloadOutlined />} href={d.href} download>
                    下载
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  avatar={<FileTextOutlined style={{ fontSize: 24, color: '#1677ff' }} />}
                  title={
                    <a href={d.href} download>
                      {d.title}
                    </a>
                  }
                  description={d.description}
                />
              </List.Item>
            )}
          />
        )}
      </Card>
      <OpenApiGuide clientid={user?.clientid ?? 'YOUR_CLIENTID'} />
    </>
  );
}
