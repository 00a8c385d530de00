/**
 * The numbers of a variable send (变量短信发送): a variable file (xlsx ≤ 300M, name ≤ 50; first column
 * the mobile, one column per variable; ChunkedUpload → POST /send/parsefileVariate with the
 * template and sign: counts, the error file with each refused row's reason) or typed numbers with
 * the filled content (the page's content field, `typedContent`); screening by carrier, province and
 * blocked city (the submit total follows). `useVariableNumbers` holds them; the page reads what to
 * send (`fields`) and the page rules (`problems`).
 */
import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Form, Input, Space, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { ChunkedUpload, type UploadedFile } from '@/components/ChunkedUpload';
import { ScreeningType, NumberInputMode, type SmsTemplate } from '@/generated/schemas';
import { ApiError } from '@/providers/http';
import { openDownload } from '@/lib/download';
import { downloadPosted, SEND_MESSAGES } from '@/domain/send';
import { checkNumbers } from '../../../common/sms/numbers';
import {
  FIELD_MESSAGES,
  parseVariableFile,
  VARIABLE_FILE,
  VARIABLE_MESSAGES,
  VARIABLE_TEMPLATE_URL,
  variableErrorUrl,
  type Screened,
  type VariableParse,
} from './api';
import { NumberSource, type NumberMode } from './NumberSource';
import { ScreeningPanel } from './ScreeningPanel';
import type { FieldStatus } from './useSendForm';
import { MESSAGES } from '../../../common/schema/messages';

export interface VariableSource {
  template: SmsTemplate | null;
  clientId?: string;
  /** the sign as typed (the file's rows are checked with it) */
  sign: string;
  /** a file came before the template */
  noTemplate: () => void;
  /** the problem of the file or the typed numbers is gone */
  clear: (field: 'file' | 'mobile') => void;
}

export function useVariableNumbers({ template, clientId, sign, noTemplate, clear }: VariableSource) {
  const { message } = App.useApp();
  const [mode, setModeState] = useState<NumberMode>(NumberInputMode.File);
  const [text, setText] = useState('');
  const [parsed, setParsed] = useState<VariableParse | null>(null);
  /** the uploaded file of the last parse (its wrong-number lines: POST /send/downloadtemplateVariateErrorTxt) */
  const [uploadPath, setUploadPath] = useState('');
  const [screened, setScreened] = useState<Screened | null>(null);
  const [uploading, setUploading] = useState(false);
  const fromFile = mode === NumberInputMode.File;
  const manual = checkNumbers(text);
  const sendFilePath = screened?.sendFilePath ?? parsed?.sendFilePath ?? '';
  const submitTotal = fromFile
    ? (screened?.submitTotal ?? parsed?.submitTotal ?? 0)
    : (screened?.submitTotal ?? manual.unique.length);

  /** the chunked upload is done: parse the file with the template's rules */
  const parseUploaded = async (up: UploadedFile) => {
    if (!template) return noTemplate();
    setUploading(true);
    setUploadPath(up.importFilePath);
    setParsed(null);
    setScreened(null);
    try {
      const r = await parseVariableFile({
        clientId,
        importFilePath: up.importFilePath,
        templateId: template.templateId,
        sign: sign.trim(),
        fileName: up.fileName,
      });
      setParsed(r.data);
      clear('file');
    } catch (e) {
      const body = e instanceof ApiError ? (e.body as { data?: VariableParse }) : undefined;
      if (body?.data) setParsed(body.data);
      message.error(e instanceof ApiError ? e.message : '文件解析失败');
    } finally {
      setUploading(false);
    }
  };

  return {
    mode,
    setMode: (v: NumberMode) => {
      setModeState(v);
      setScreened(null);
    },
    fromFile,
    text,
    type: (raw: string) => {
      setText(raw);
      setScreened(null);
      clear('mobile');
    },
    manual,
    parsed,
    /** 错误号码.txt of the uploaded file: the row and value of each row whose number is wrong */
    downloadErrorLines: async () => {
      try {
        await downloadPosted('/send/downloadtemplateVariateErrorTxt', { importFilePath: uploadPath }, '错误号码.txt');
      } catch (e) {
        message.error(e instanceof ApiError ? e.message : SEND_MESSAGES.noData);
      }
    },
    screened,
    setScreened,
    uploading,
    parseUploaded,
    removeFile: () => {
      setParsed(null);
      setScreened(null);
    },
    template,
    submitTotal,
    /** the form's number fields of the send (the typed content is the page's) */
    fields: () =>
      fromFile
        ? { fileType: mode, importFilePath: sendFilePath, fileName: parsed?.fileName }
        : { fileType: mode, mobile: screened?.phones ?? text },
    /** the file parsed and not empty, or valid typed numbers */
    problems: () =>
      fromFile
        ? {
            file: !parsed
              ? VARIABLE_MESSAGES.noFile
              : (!sendFilePath || submitTotal === 0) && VARIABLE_MESSAGES.emptyFile,
          }
        : { mobile: !manual.valid && VARIABLE_MESSAGES.noUpload },
    /** a new template: the parsed file is no longer its */
    forget: () => {
      setParsed(null);
      setScreened(null);
    },
    /** after a send */
    reset: () => {
      setParsed(null);
      setScreened(null);
      setText('');
    },
  };
}

export type VariableNumbersState = ReturnType<typeof useVariableNumbers>;

export interface VariableNumbersProps {
  box: VariableNumbersState;
  fileStatus: FieldStatus;
  mobileStatus: FieldStatus;
  /** the page's content field, shown with the typed numbers */
  typedContent: ReactNode;
}

export function VariableNumbers({ box, fileStatus, mobileStatus, typedContent }: VariableNumbersProps) {
  const { parsed, screened, template, fromFile, manual } = box;
  return (
    <>
      <NumberSource
        value={box.mode}
        onChange={box.setMode}
        fileLabel="导入变量文件"
        fileFirst
        file={
          <Form.Item label="变量文件" required {...fileStatus}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space wrap>
                <ChunkedUpload
                  accept={['.xlsx']}
                  maxSize={VARIABLE_FILE.maxBytes}
                  maxNameLength={VARIABLE_FILE.nameMax}
                  messages={{
                    badType: VARIABLE_MESSAGES.fileBadType,
                    tooLarge: VARIABLE_MESSAGES.fileTooLarge,
                    nameTooLong: VARIABLE_MESSAGES.fileNameTooLong,
                  }}
                  buttonText="上传变量文件"
                  disabled={!template}
                  onDone={box.parseUploaded}
                  onRemove={box.removeFile}
                />
                <Button icon={<DownloadOutlined />} onClick={() => openDownload(VARIABLE_TEMPLATE_URL)}>
                  下载模板
                </Button>
              </Space>
              <Typography.Text type="secondary">
                仅支持
                xlsx，单个文件不超过300M，文件名不超过50个字符；第一列为手机号码，其后每列一个变量（按模板中变量的顺序），每个变量小于20字节，最多30个变量，每行变量、模板与签名合计不超过500字，最多1,000,000行
              </Typography.Text>
              {!template && <Typography.Text type="warning">{FIELD_MESSAGES.templateRequired}</Typography.Text>}
              {box.uploading && (
                <Typography.Text type="secondary">{`${MESSAGES.statusRecognizing}，${MESSAGES.statusLargeData}…`}</Typography.Text>
              )}
              {parsed && (
                <Alert
                  type={parsed.errNum + parsed.repeatNum ? 'warning' : 'success'}
                  showIcon
                  data-testid="variable-result"
                  message={`${parsed.fileName}：共 ${parsed.totalNum} 行，有效 ${parsed.submitTotal} 行，错误 ${parsed.errNum} 行，重复 ${parsed.repeatNum} 行（移动 ${parsed.mobileNum}，联通 ${parsed.unicomNum}，电信 ${parsed.telecomNum}）`}
                  action={
                    parsed.errorFilePath || parsed.errNum > 0 ? (
                      <Space direction="vertical" size={4}>
                        {parsed.errorFilePath && (
                          <Button
                            size="small"
                            onClick={() => openDownload(variableErrorUrl(parsed.errorFilePath))}
                            data-testid="download-errors"
                          >
                            下载错误数据
                          </Button>
                        )}
                        {parsed.errNum > 0 && (
                          <Button
                            size="small"
                            onClick={() => void box.downloadErrorLines()}
                            data-testid="download-error-lines"
                          >
                            错误号码（txt）
                          </Button>
                        )}
                      </Space>
                    ) : undefined
                  }
                />
              )}
            </Space>
          </Form.Item>
        }
        typed={
          <>
            {typedContent}
            <Form.Item label="手机号码" required {...mobileStatus}>
              <Input.TextArea
                value={box.text}
                onChange={(e) => box.type(e.target.value)}
                rows={5}
                placeholder="请输入手机号码，多个号码以逗号分隔"
                data-testid="numbers-input"
              />
            </Form.Item>
          </>
        }
      />
      {((fromFile && parsed?.sendFilePath) || (!fromFile && manual.valid > 0)) && (
        <Form.Item label="号码筛选">
          <ScreeningPanel
            source={
              fromFile
                ? { type: ScreeningType.File, importFilePath: parsed!.sendFilePath, variateNum: parsed!.variateNum }
                : { type: ScreeningType.Manual, phones: manual.unique.join(',') }
            }
            onScreened={box.setScreened}
          />
        </Form.Item>
      )}
      <Form.Item label="提交号码数">
        <Typography.Text strong data-testid="submit-total">
          {box.submitTotal}
        </Typography.Text>
        {screened && (
          <Typography.Text type="secondary" style={{ marginLeft: 12 }} data-testid="screened-counts">
            （筛选后：移动 {screened.mobileNum}，联通 {screened.unicomNum}，电信 {screened.telecomNum}）
          </Typography.Text>
        )}
      </Form.Item>
    </>
  );
}
