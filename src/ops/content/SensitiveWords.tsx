/**
 * 内容 / 敏感词 (/ops/content/words): the words added in the console (POST /operator/words/list,
 * newest first, filters/sensitive-word.json) with the count of SENSITIVE_WORDS_FILE's words beside
 * them (`fileCount`: changed in the file, not here), 删除 on each, 添加敏感词 (one a line, `#`
 * comments: forms/sensitive-words-add.json) and 导入文件 (a text file, UTF-8 or GB18030, read into the
 * same dialog to look over before it is added), and 检测文字: the users' content check over the
 * whole list, the hits marked. Every process reads a change within seconds.
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Popconfirm, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import sensitiveWordsAddForm from '@/generated/forms/sensitive-words-add';
import type { SensitiveWord, SensitiveWordsAddForm } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { schemas, schemaUi } from '@/schema';
import { keywordMessageOf } from '../../../common/schema/registry';
import { ContentCheck } from './ContentCheck';
import { readWordFile } from './wordFile';
import { contentApi } from './api';
import { sensitiveWords } from './data';
import { useScreen } from '@/layout/screens';

const addUi = schemaUi('forms/sensitive-words-add');
const WORDS = schemas.inline('forms/sensitive-words-add').properties?.words;
/** the form's own limit and its message (the server's too) */
const WORDS_MAX = Number(WORDS?.maxLength ?? 200_000);
const TOO_LONG = keywordMessageOf(WORDS, 'maxLength') ?? '内容过长';

export default function SensitiveWords() {
  const wordsScreen = useScreen();
  const { message } = App.useApp();
  const { tableProps, searchFormProps, tableQuery } = useSchemaList<SensitiveWord>(sensitiveWords);
  const fileCount = typeof tableQuery.data?.fileCount === 'number' ? tableQuery.data.fileCount : undefined;
  /** the add dialog's text when open (an imported file's, or empty) */
  const [adding, setAdding] = useState<string>();
  const [removing, setRemoving] = useState<number>();
  const refresh = () => void tableQuery.refetch();

  const importFile = async (file: File) => {
    const read = await readWordFile(file, WORDS_MAX);
    if (!read.ok)
      message.error(read.reason === 'too-long' ? TOO_LONG : '无法读取该文件，请使用 UTF-8 或 GB18030 编码的文本文件');
    else if (!read.text.trim()) message.error('文件中没有敏感词');
    else setAdding(read.text);
  };

  const remove = async (r: SensitiveWord) => {
    setRemoving(r.id);
    try {
      const msg = await contentApi.removeWord(r.id);
      if (msg) message.success(msg);
    } catch {
      // toasted by the HTTP client
    } finally {
      setRemoving(undefined);
      refresh();
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        title={wordsScreen.label}
        extra={
          <Space>
            <Upload
              accept=".txt,.csv,text/plain"
              showUploadList={false}
              beforeUpload={(file) => {
                void importFile(file);
                return Upload.LIST_IGNORE;
              }}
            >
              <Button icon={<ImportOutlined />}>导入文件</Button>
            </Upload>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding('')}>
              添加敏感词
            </Button>
          </Space>
        }
      >
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="words-file"
          message={
            fileCount === undefined
              ? '敏感词表'
              : `词表文件中另有 ${fileCount.toLocaleString('zh-CN')} 个敏感词（SENSITIVE_WORDS_FILE，请在文件中修改）；下表为控制台添加的敏感词`
          }
          description="添加或删除后数秒内在所有进程生效；发送、模板审核和用户的内容检测都使用完整的词表。"
        />
        <SchemaFilterBar filter={sensitiveWords.filter} formProps={searchFormProps} />
        <SchemaTable<SensitiveWord>
          {...tableProps}
          entity={sensitiveWords.entity}
          columns={['word', 'createdBy', 'createdAt']}
          extraColumns={[
            {
              key: 'actions',
              title: '操作',
              width: 100,
              render: (_: unknown, r: SensitiveWord) => (
                <Popconfirm
                  title={`确定删除敏感词“${r.word}”吗？`}
                  okText="删除"
                  cancelText="取消"
                  onConfirm={() => remove(r)}
                >
                  <Button type="link" size="small" danger icon={<DeleteOutlined />} loading={removing === r.id}>
                    删除
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>
      <Card title="检测文字">
        <Typography.Paragraph type="secondary">
          用完整的敏感词表检测一段短信内容，结果与用户的内容检测相同。
        </Typography.Paragraph>
        <ContentCheck />
      </Card>
      <SchemaFormDialog<SensitiveWordsAddForm>
        open={adding !== undefined}
        title="添加敏感词"
        form={sensitiveWordsAddForm}
        fields={['words']}
        uiSchema={addUi}
        initial={{ words: adding ?? '' }}
        save={(v) => contentApi.addWords(v)}
        onDone={refresh}
        onClose={() => setAdding(undefined)}
        okText="添加"
        errorTestId="words-refusal"
      >
        <Typography.Paragraph type="secondary">
          每行一个敏感词（至多50个字符），# 之后为注释；词表文件或列表中已有的词不会重复添加。
        </Typography.Paragraph>
      </SchemaFormDialog>
    </Space>
  );
}
