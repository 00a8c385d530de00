/**
 * 路由预览 (POST /operator/channels/route, forms/route-preview.json): a number and an SMS type →
 * the number's carrier and the enabled channels serving it by priority, with the share each gets
 * now (entities/route-preview.json). The server's note (没有可用的通道, the default link) and its
 * refusal are shown as they are.
 */
import { useState } from 'react';
import { Alert, Button, Card, Col, Descriptions, Progress, Row, Table, Tag, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import routePreviewForm from '@/generated/forms/route-preview';
import type { RoutePreview as Preview, RoutePreviewParams } from '@/generated/schemas';
import { SchemaForm } from '@/components/SchemaForm/SchemaForm';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { ApiError } from '@/providers/http';
import { schemas, schemaUi } from '@/schema';
import { channelName } from './channelName';
import { channelsApi } from './api';

type Candidate = Preview['candidates'][number];
const item = schemas.get('entities/route-preview').properties?.candidates?.items as {
  properties: Record<string, { title?: string }>;
};
const title = (field: keyof Candidate) => item.properties[field]?.title ?? field;
const previewUi = schemaUi('forms/route-preview');

export function RoutePreview() {
  const [values, setValues] = useState<Partial<RoutePreviewParams>>({ smstype: 0 });
  const [answer, setAnswer] = useState<Preview>();
  const [refusal, setRefusal] = useState<string>();
  const [loading, setLoading] = useState(false);

  const preview = async (v: RoutePreviewParams) => {
    setLoading(true);
    setRefusal(undefined);
    try {
      setAnswer(await channelsApi.route(v));
    } catch (e) {
      setAnswer(undefined);
      setRefusal(e instanceof ApiError ? e.body.msg : '预览失败');
    } finally {
      setLoading(false);
    }
  };

  return (
    <Card title="路由预览" size="small" style={{ marginTop: 16 }} data-testid="route-preview">
      <Row gutter={24}>
        <Col xs={24} lg={8}>
          <SchemaForm<RoutePreviewParams>
            schema={routePreviewForm}
            fields={['phone', 'smstype']}
            uiSchema={previewUi}
            formData={values}
            onChange={setValues}
            onSubmit={(v) => void preview(v)}
          >
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={loading}>
              预览
            </Button>
          </SchemaForm>
        </Col>
        <Col xs={24} lg={16}>
          {refusal && <Alert type="error" showIcon message={refusal} data-testid="route-refusal" />}
          {!refusal && !answer && (
            <Typography.Text type="secondary">
              输入号码和短信类型，查看此刻会由哪个通道发送及各通道的分配比例（各工作进程自己的退避与限速仍可能让个别短信改走其他通道）。
            </Typography.Text>
          )}
          {answer && (
            <div data-testid="route-answer">
              <Descriptions size="small" column={1} style={{ marginBottom: 8 }}>
                <Descriptions.Item label={schemas.get('entities/route-preview').properties?.carrier?.title}>
                  <EnumTag enumName="carrier" value={answer.carrier} />
                </Descriptions.Item>
              </Descriptions>
              {answer.message && (
                <Alert
                  type={answer.candidates.length ? 'info' : 'warning'}
                  showIcon
                  message={answer.message}
                  style={{ marginBottom: 8 }}
                />
              )}
              {answer.candidates.length > 0 && (
                <Table<Candidate>
                  size="small"
                  rowKey="name"
                  pagination={false}
                  dataSource={answer.candidates}
                  columns={[
                    { key: 'name', title: title('name'), dataIndex: 'name', render: (v: string) => channelName(v) },
                    { key: 'priority', title: title('priority'), dataIndex: 'priority' },
                    { key: 'weight', title: title('weight'), dataIndex: 'weight' },
                    {
                      key: 'bound',
                      title: title('bound'),
                      dataIndex: 'bound',
                      render: (v: boolean) => (v ? <Tag color="green">已连接</Tag> : <Tag>未连接</Tag>),
                    },
                    {
                      key: 'share',
                      title: title('share'),
                      dataIndex: 'share',
                      width: 200,
                      render: (v: number) => (
                        <Progress percent={v} size="small" status={v ? 'active' : 'normal'} format={(p) => `${p}%`} />
                      ),
                    },
                  ]}
                />
              )}
            </div>
          )}
        </Col>
      </Row>
    </Card>
  );
}
