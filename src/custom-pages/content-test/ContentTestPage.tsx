/**
 * 内容检测 (/content/test): paste an SMS text, 开始检测 asks POST /content/content/test,
 * the result dialog says 未检测到敏感词 or shows the content with each offending range marked.
 */
import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Modal, Space, Typography } from 'antd';
import { postForm } from '@/providers/http';
import { CONTENT_MAX, contentError } from './validation';
import {
  HighlightedContent,
  parseContentTestAnswer,
  type ContentTestResult,
} from '@/components/ContentHighlight/highlight';
import { MESSAGES } from '../../../common/schema/messages';
import { useScreen } from '@/layout/screens';

interface Values {
  content?: string;
}

const codePoints = (s: string) => [...s].length;

export default function ContentTestPage() {
  const contentTestScreen = useScreen();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<(ContentTestResult & { text: string }) | null>(null);

  const submit = async ({ content = '' }: Values) => {
    setBusy(true);
    try {
      const body = await postForm<Record<string, string>>('/content/content/test', { content });
      setResult({ ...parseContentTestAnswer(body.data, content.length), text: content });
    } catch {
      /* the message is toasted by the http client */
    } finally {
      setBusy(false);
    }
  };

  const clear = () => {
    form.resetFields();
    setResult(null);
  };

  return (
    <Card title={contentTestScreen.label}>
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        message="敏感内容绝对拦截"
        description="短信内容中含有敏感词的，将被绝对拦截，无法发送。请在发送前检测短信内容，并修改被标出的部分。"
      />
      <Form form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 720 }}>
        <Form.Item
          name="content"
          label="短信内容"
          validateTrigger={['onSubmit']}
          rules={[
            {
              validator: async (_r, v: string | undefined) => {
                const m = contentError(v);
                if (m) throw new Error(m);
              },
            },
          ]}
        >
          <Input.TextArea
            rows={8}
            placeholder="请输入需要检测的短信内容"
            aria-label="短信内容"
            count={{ show: true, max: CONTENT_MAX, strategy: codePoints }}
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={busy}>
              开始检测
            </Button>
            <Button onClick={clear}>清空</Button>
          </Space>
        </Form.Item>
      </Form>
      <Modal
        title="检测结果"
        open={!!result}
        onCancel={() => setResult(null)}
        footer={
          <Button type="primary" onClick={() => setResult(null)}>
            确定
          </Button>
        }
        destroyOnHidden
      >
        {result?.clean ? (
          <Alert
            type="success"
            showIcon
            message={MESSAGES.noSensitiveWords}
            description="no sensitive words：该内容可以正常发送。"
            data-testid="content-test-clean"
          />
        ) : result ? (
          <>
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 12 }}
              message={`检测到 ${result.ranges.length} 处敏感内容`}
              description="以下标红部分为敏感内容，含敏感内容的短信将被绝对拦截，请修改后再发送。"
            />
            <Typography.Paragraph strong>命中内容：</Typography.Paragraph>
            <HighlightedContent text={result.text} ranges={result.ranges} />
          </>
        ) : null}
      </Modal>
    </Card>
  );
}
