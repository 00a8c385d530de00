/**
 * 变量短信发送 (/customer/deliverlayout/variablesms): a variable template (approved, templateType 1;
 * 请先选择变量模板), SMS type, sign 2-12, then the numbers: a variable file (xlsx ≤ 300M, name ≤ 50;
 * first column the mobile, one column per variable; POST /send/uploadVariateFile then
 * /send/parsefileVariate: counts, the error file with each refused row's reason) or typed numbers
 * with the filled content; screening by carrier, province and blocked city (the submit total
 * follows); the send time (now, or within 24 hours and ≥ 5 minutes ahead: common/send); the charge
 * confirmation (POST /send/chargeInfoVariable: each row its own pieces) and the send (POST
 * /send/sendingVariable → the task list; scheduled: POST /send/send_time_sms → the timed list;
 * code 403: the message, and on confirm again without the credit check). The fields' rules and
 * messages are schemas/forms/send-variable.json's (useSendForm).
 */
import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import { Alert, App, Button, Card, Descriptions, Form, Input, Space, Typography } from 'antd';
import { DownloadOutlined, SendOutlined } from '@ant-design/icons';
import { ChunkedUpload, type UploadedFile } from '@/components/ChunkedUpload';
import variableForm from '@/generated/forms/send-variable';
import { NumberInputMode, SendTimeType, TemplateType, type SmsTemplate, type SmsType } from '@/generated/schemas';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { ApiError } from '@/providers/http';
import { openDownload } from '@/lib/download';
import { defaultSendTime } from '@/domain/send';
import { smsTaskPath, timingDeliverPath } from '@/domain/sendRoutes';
import { MESSAGES } from '../../../common/schema/messages';
import { checkNumbers } from '../../../common/sms/numbers';
import { countVariables } from '../../../common/template/rules';
import variableSchema from '../../../schemas/forms/send-variable.json';
import { TemplatePicker } from './TemplatePicker';
import {
  chargeVariable,
  FIELD_MESSAGES,
  parseVariableFile,
  sendTimedPage,
  sendVariable,
  VARIABLE_FILE,
  VARIABLE_MESSAGES,
  VARIABLE_TEMPLATE_URL,
  variableErrorUrl,
  type Screened,
  type VariablePayload,
  type VariableParse,
} from './api';
import { ChargeDialog } from './ChargeDialog';
import { ScreeningPanel } from './ScreeningPanel';
import { AccountField, SignField, SmsTypeField } from './SenderFields';
import { ContentCounter, usePieces } from './ContentCounter';
import { NumberSource, type NumberMode } from './NumberSource';
import { SendTimeField } from './SendTimeField';
import { useSendForm } from './useSendForm';

interface Fields {
  clientId?: string;
  smstype?: SmsType;
  sign: string;
  mode: NumberMode;
  content: string;
  numbers: string;
  sendType: number;
  sendtime: Dayjs;
}

const blank = (): Fields => ({ sign: '', mode: NumberInputMode.File, content: '', numbers: '', sendType: SendTimeType.Immediate, sendtime: defaultSendTime() });
const FIELDS = ['clientId', 'templateId', 'smstype', 'sign', 'content', 'file', 'mobile', 'sendtime'] as const;
/** the form's message for content longer than 500 characters (with its sign) */
const TOO_LONG = variableSchema.properties.content.errorMessage.maxLength;

export function VariablePage() {
  const { message } = App.useApp();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const form = useSendForm<Fields, (typeof FIELDS)[number]>({ form: variableForm, initial: blank, fields: FIELDS, shownAs: { importFilePath: 'file', fileName: 'file' }, timeKind: 'variable' });
  const { values: f, set, patch, item } = form;
  const [template, setTemplate] = useState<SmsTemplate | null>(null);
  const [picking, setPicking] = useState(false);
  const [parsed, setParsed] = useState<VariableParse | null>(null);
  const [screened, setScreened] = useState<Screened | null>(null);
  const [uploading, setUploading] = useState(false);

  const clientId = agent ? f.clientId : (user?.clientid ?? undefined);
  const pieces = usePieces(f.content, f.sign);
  const manual = checkNumbers(f.numbers);
  const fromFile = f.mode === NumberInputMode.File;
  const sendFilePath = screened?.sendFilePath ?? parsed?.sendFilePath ?? '';
  const submitTotal = fromFile ? (screened?.submitTotal ?? parsed?.submitTotal ?? 0) : (screened?.submitTotal ?? manual.unique.length);

  const openPicker = () => {
    if (agent && !clientId) return form.fail('clientId', MESSAGES.pickSubAccount);
    setPicking(true);
  };
  const pick = (t: SmsTemplate) => {
    setTemplate(t);
    setPicking(false);
    patch((x) => ({ sign: t.sign || x.sign, smstype: t.smstype !== undefined && t.smstype !== null ? (t.smstype as SmsType) : x.smstype, content: t.content ?? '' }), 'templateId');
    setParsed(null);
    setScreened(null);
  };

  /** the chunked upload is done: parse the file with the template's rules */
  const parseUploaded = async (up: UploadedFile) => {
    if (!template) return form.fail('templateId', FIELD_MESSAGES.templateRequired);
    setUploading(true);
    setParsed(null);
    setScreened(null);
    try {
      const r = await parseVariableFile({ clientId, importFilePath: up.importFilePath, templateId: template.templateId!, sign: f.sign.trim(), fileName: up.fileName });
      setParsed(r.data);
      form.clear('file');
    } catch (e) {
      const body = e instanceof ApiError ? (e.body as { data?: VariableParse }) : undefined;
      if (body?.data) setParsed(body.data);
      message.error(e instanceof ApiError ? e.message : '文件解析失败');
    } finally {
      setUploading(false);
    }
  };

  const payload = (): VariablePayload => ({
    clientId,
    templateId: template?.templateId as number,
    smstype: f.smstype as number,
    sign: f.sign.trim(),
    fileType: f.mode,
    ...(fromFile ? { importFilePath: sendFilePath, fileName: parsed?.fileName } : { content: f.content, mobile: screened?.phones ?? f.numbers }),
  });

  /** what the schema cannot say: the file parsed and not empty, or the typed content and numbers */
  const pageProblems = () =>
    fromFile
      ? { file: !parsed ? VARIABLE_MESSAGES.noFile : (!sendFilePath || submitTotal === 0) && VARIABLE_MESSAGES.emptyFile }
      : { content: !f.content.trim() ? VARIABLE_MESSAGES.contentEmpty : pieces.tooLong && TOO_LONG, mobile: !manual.valid && VARIABLE_MESSAGES.noUpload };

  const submit = async () => {
    if (form.validate({ ...payload() }, pageProblems())) return;
    if (form.submitLocked()) return;
    await form.prepare(async () => (await chargeVariable(payload())).data);
  };

  const done = (msg: string, path: string) => {
    form.done(msg, path);
    setParsed(null);
    setScreened(null);
    set('numbers', '');
  };

  const timed = async (check: 0 | 1): Promise<void> => {
    try {
      const body = await sendTimedPage(1, { ...payload(), sendtime: form.sendtimeText!, isCheckAvailableCredit: check });
      done(body.msg, timingDeliverPath());
    } catch (e) {
      form.setCharge(null);
      if (e instanceof ApiError && e.code === 403 && check === 1) form.askCredit(e.message, () => timed(0));
      else if (e instanceof ApiError) message.error(e.message);
    }
  };

  const send = async () => {
    form.setSending(true);
    try {
      if (form.scheduled) return await timed(1);
      const body = await sendVariable(payload());
      done(body.msg, smsTaskPath());
    } catch {
      form.setCharge(null);
    } finally {
      form.setSending(false);
    }
  };

  const varCount = template ? countVariables(template.content) : 0;

  return (
    <Card title="变量短信发送">
      <Form layout="horizontal" labelCol={{ flex: '110px' }} wrapperCol={{ flex: 'auto' }} style={{ maxWidth: 960 }} onFinish={submit}>
        <AccountField
          agent={agent}
          phoneInoutType={0}
          value={f.clientId}
          onChange={(v) => {
            set('clientId', v);
            setTemplate(null);
          }}
          status={item('clientId')}
        />
        <Form.Item label="变量模板" required {...item('templateId')}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <Button onClick={openPicker} data-testid="pick-template">
              {template ? '更换变量模板' : '选择变量模板'}
            </Button>
            {template && (
              <Descriptions size="small" column={1} bordered data-testid="picked-template">
                <Descriptions.Item label="模板ID">{template.templateId}</Descriptions.Item>
                <Descriptions.Item label="模板内容">{template.content}</Descriptions.Item>
                <Descriptions.Item label="变量个数">{varCount}</Descriptions.Item>
              </Descriptions>
            )}
          </Space>
        </Form.Item>
        <SmsTypeField clientId={clientId} value={f.smstype} onChange={(v) => set('smstype', v)} status={item('smstype')} />
        <SignField value={f.sign} onChange={(v) => set('sign', v)} status={item('sign')} />
        <NumberSource
          value={f.mode}
          onChange={(v) => {
            set('mode', v);
            setScreened(null);
          }}
          fileLabel="导入变量文件"
          fileFirst
          file={
            <Form.Item label="变量文件" required {...item('file')}>
              <Space direction="vertical" style={{ width: '100%' }}>
                <Space wrap>
                  <ChunkedUpload
                    accept={['.xlsx']}
                    maxSize={VARIABLE_FILE.maxBytes}
                    maxNameLength={VARIABLE_FILE.nameMax}
                    messages={{ badType: VARIABLE_MESSAGES.fileBadType, tooLarge: VARIABLE_MESSAGES.fileTooLarge, nameTooLong: VARIABLE_MESSAGES.fileNameTooLong }}
                    buttonText="上传变量文件"
                    disabled={!template}
                    onDone={parseUploaded}
                    onRemove={() => (setParsed(null), setScreened(null))}
                  />
                  <Button icon={<DownloadOutlined />} onClick={() => openDownload(VARIABLE_TEMPLATE_URL)}>
                    下载模板
                  </Button>
                </Space>
                <Typography.Text type="secondary">
                  仅支持 xlsx，单个文件不超过300M，文件名不超过50个字符；第一列为手机号码，其后每列一个变量（按模板中变量的顺序），每个变量小于20字节，最多30个变量，每行变量、模板与签名合计不超过500字，最多1000000行
                </Typography.Text>
                {!template && <Typography.Text type="warning">{FIELD_MESSAGES.templateRequired}</Typography.Text>}
                {uploading && <Typography.Text type="secondary">文件解析中，数据量较大请稍候…</Typography.Text>}
                {parsed && (
                  <Alert
                    type={parsed.errNum + parsed.repeatNum ? 'warning' : 'success'}
                    showIcon
                    data-testid="variable-result"
                    message={`${parsed.fileName}：共 ${parsed.totalNum} 行，有效 ${parsed.submitTotal} 行，错误 ${parsed.errNum} 行，重复 ${parsed.repeatNum} 行（移动 ${parsed.mobileNum}，联通 ${parsed.unicomNum}，电信 ${parsed.telecomNum}）`}
                    action={
                      parsed.errorFilePath ? (
                        <Button size="small" onClick={() => openDownload(variableErrorUrl(parsed.errorFilePath))} data-testid="download-errors">
                          下载错误数据
                        </Button>
                      ) : undefined
                    }
                  />
                )}
              </Space>
            </Form.Item>
          }
          typed={
            <>
              <Form.Item label="短信内容" required {...item('content')}>
                <Input.TextArea value={f.content} onChange={(e) => set('content', e.target.value)} rows={4} placeholder="请将模板中的变量替换为实际内容" data-testid="content-input" />
                <ContentCounter pieces={pieces} layout="inline" />
              </Form.Item>
              <Form.Item label="手机号码" required {...item('mobile')}>
                <Input.TextArea
                  value={f.numbers}
                  onChange={(e) => {
                    set('numbers', e.target.value);
                    setScreened(null);
                    form.clear('mobile');
                  }}
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
              source={fromFile ? { type: 2, importFilePath: parsed!.sendFilePath, variateNum: parsed!.variateNum } : { type: 1, phones: manual.unique.join(',') }}
              onScreened={setScreened}
            />
          </Form.Item>
        )}
        <Form.Item label="提交号码数">
          <Typography.Text strong data-testid="submit-total">
            {submitTotal}
          </Typography.Text>
          {screened && (
            <Typography.Text type="secondary" style={{ marginLeft: 12 }} data-testid="screened-counts">
              （筛选后：移动 {screened.mobileNum}，联通 {screened.unicomNum}，电信 {screened.telecomNum}）
            </Typography.Text>
          )}
        </Form.Item>
        <SendTimeField
          kind="variable"
          sendType={f.sendType}
          sendtime={f.sendtime}
          onType={(v) => patch({ sendType: v }, 'sendtime')}
          onTime={(d) => patch({ sendtime: d }, 'sendtime')}
          status={item('sendtime')}
        />
        <Form.Item colon={false} label=" ">
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={form.preparing} data-testid="submit">
            提交
          </Button>
        </Form.Item>
      </Form>
      <TemplatePicker open={picking} clientId={clientId} templateType={TemplateType.Variable} onClose={() => setPicking(false)} onPick={pick} />
      <ChargeDialog wide info={form.charge} sendtime={form.sendtimeText} sending={form.sending} onOk={send} onCancel={() => form.setCharge(null)} />
    </Card>
  );
}

export default VariablePage;
