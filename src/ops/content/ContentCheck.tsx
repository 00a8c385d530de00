/**
 * 检测文字: a text checked against the whole sensitive-word list (POST /operator/words/test, the
 * users' content check's answer), the result under the form: 未检测到敏感词, or the text with each
 * hit marked (highlighting from text only: no HTML is built from what is typed).
 */
import { useState } from 'react';
import { Alert, Button, Space } from 'antd';
import contentTestForm from '@/generated/forms/content-test';
import type { ContentTestForm } from '@/generated/schemas';
import { SchemaForm } from '@/components/SchemaForm/SchemaForm';
import { schemaUi } from '@/schema';
import {
  HighlightedContent,
  parseContentTestAnswer,
  type ContentTestResult,
} from '@/components/ContentHighlight/highlight';
import { MESSAGES } from '../../../common/schema/messages';
import { contentApi } from './api';

const ui = schemaUi('forms/content-test');

export function ContentCheck() {
  const [values, setValues] = useState<Partial<ContentTestForm>>({});
  const [round, setRound] = useState(0);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<(ContentTestResult & { text: string }) | null>(null);

  const check = async (v: ContentTestForm) => {
    setBusy(true);
    try {
      const { data } = await contentApi.testText(v);
      setResult({ ...parseContentTestAnswer(data, v.content.length), text: v.content });
    } catch {
      setResult(null); // toasted by the HTTP client
    } finally {
      setBusy(false);
    }
  };

  const clear = () => {
    setValues({});
    setResult(null);
    setRound((r) => r + 1);
  };

  return (
    <div style={{ maxWidth: 720 }} data-testid="content-check">
      <SchemaForm<ContentTestForm>
        key={round}
        schema={contentTestForm}
        fields={['content']}
        uiSchema={ui}
        formData={values}
        onChange={setValues}
        onSubmit={(v) => void check(v)}
      >
        <Space>
          <Button type="primary" htmlType="submit" loading={busy}>
            检测
          </Button>
          <Button onClick={clear}>清空</Button>
        </Space>
      </SchemaForm>
      {result?.clean && (
        <Alert
          type="success"
          showIcon
          style={{ marginTop: 16 }}
          message={MESSAGES.noSensitiveWords}
          data-testid="content-check-clean"
        />
      )}
      {result && !result.clean && (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 16 }}
          message={`检测到 ${result.ranges.length} 处敏感内容`}
          description={<HighlightedContent text={result.text} ranges={result.ranges} />}
          data-testid="content-check-hits"
        />
      )}
    </div>
  );
}
