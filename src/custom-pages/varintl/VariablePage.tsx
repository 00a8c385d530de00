/**
 * 变量短信发送 (/customer/deliverlayout/variablesms): a variable template (approved, templateType 1;
 * 请先选择变量模板), SMS type, sign 2-12, then the numbers: a variable file (xlsx ≤ 300M, name ≤ 50;
 * first column the mobile, one column per variable; POST /send/uploadVariateFile then
 * /send/parsefileVariate: counts, the error file with each refused row's reason) or typed numbers
 * with the filled content; screening by carrier, province and blocked city (the submit total
 * follows); the send time (now, or within 24 hours and ≥ 5 minutes ahead); the charge confirmation
 * (POST /send/chargeInfoVariable: each row its own pieces) and the send (POST /send/sendingVariable
 * → the task list; scheduled: POST /send/send_time_sms → the timed list; code 403: the message,
 * and on confirm again without the credit check).
 */
import { useEffect, useRef, useState } from 'react';
import type { Dayjs } from 'dayjs';
import { Alert, App, Button, Card, Descriptions, Form, Input, Radio, Select, Space, Typography } from 'antd';
import { DownloadOutlined, SendOutlined } from '@ant-design/icons';
import { ChunkedUpload, type UploadedFile } from '@/components/ChunkedUpload';
import { useNavigate } from 'react-router';
import { NumberInputMode, ScreeningType, SendKind, SendTimeType, TemplateType, type SmsTemplate, type SmsType } from '@/generated/schemas';
import { ClientSelect } from '@/components/ClientSelect/ClientSelect';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { ApiError } from '@/providers/http';
import { openDownload } from '@/lib/download';
import { defaultSendTime, OPEN_TASKS_AFTER_MS, SEND_MESSAGES, SEND_TIME_FORMAT, SUBMIT_LOCK_MS } from '@/domain/send';
import { smsTaskPath, timingDeliverPath } from '@/domain/sendRoutes';
import { MESSAGES } from '../../../common/schema/messages';
import { checkNumbers } from '../../../common/sms/numbers';
import { countPieces, MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';
import { countVariables } from '../../../common/template/rules';
import { TemplatePicker } from '../deliver/TemplatePicker';
import {
  chargeVariable,
  FIELD_MESSAGES,
  pageSendTimeProblem,
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
  type VarIntlCharge,
} from './api';
import { ChargeDialog } from './ChargeDialog';
import { ScreeningPanel } from './ScreeningPanel';
import { SendTimeField, useSmsTypeOptions } from './shared';

type Errors = Partial<Record<'clientId' | 'templateId' | 'smstype' | 'sign' | 'content' | 'file' | 'mobile' | 'sendtime', string>>;

export function VariablePage() {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [clientPick, setClientPick] = useState<string>();
  const [template, setTemplate] = useState<SmsTemplate | null>(null);
  const [picking, setPicking] = useState(false);
  const [smstype, setSmstype] = useState<SmsType>();
  const [sign, setSign] = useState('');
  const [mode, setMode] = useState<NumberInputMode>(NumberInputMode.File);
  const [content, setContent] = useState('');
  const [numbers, setNumbers] = useState('');
  const [parsed, setParsed] = useState<VariableParse | null>(null);
  const [screened, setScreened] = useState<Screened | null>(null);
  const [uploading, setUploading] = useState(false);
  const [sendType, setSendType] = useState<number>(SendTimeType.Immediate);
  const [sendtime, setSendtime] = useState<Dayjs>(() => defaultSendTime());
  const [errors, setErrors] = useState<Errors>({});
  const [charge, setCharge] = useState<VarIntlCharge | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [sending, setSending] = useState(false);
  const lastSubmit = useRef(0);
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => clearTimeout(t)), []);

  const clientId = agent ? clientPick : (user?.clientid ?? undefined);
  const types = useSmsTypeOptions(clientId);
  const clear = (k: keyof Errors) => setErrors((e) => ({ ...e, [k]: undefined }));
  const pieces = countPieces({ content, sign: sign.trim() });
  const manual = checkNumbers(numbers);
  const sendFilePath = screened?.sendFilePath ?? parsed?.sendFilePath ?? '';
  const submitTotal = mode === NumberInputMode.File ? (screened?.submitTotal ?? parsed?.submitTotal ?? 0) : (screened?.submitTotal ?? manual.unique.length);

  const openPicker = () => {
    if (agent && !clientId) return setErrors((e) => ({ ...e, clientId: MESSAGES.pickSubAccount }));
    setPicking(true);
  };
  const pick = (t: SmsTemplate) => {
    setTemplate(t);
    setPicking(false);
    if (t.sign) setSign(t.sign);
    if (t.smstype !== undefined && t.smstype !== null) setSmstype(t.smstype as SmsType);
    setContent(t.content ?? '');
    setParsed(null);
    setScreened(null);
    clear('templateId');
  };

  /** the chunked upload is done: parse the file with the template's rules */
  const parseUploaded = async (f: UploadedFile) => {
    if (!template) return setErrors((e) => ({ ...e, templateId: FIELD_MESSAGES.templateRequired }));
    setUploading(true);
    setParsed(null);
    setScreened(null);
    try {
      const r = await parseVariableFile({ clientId, importFilePath: f.importFilePath, templateId: template.templateId!, sign: sign.trim(), fileName: f.fileName });
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

  const payload = (): VariablePayload => ({
    clientId,
    templateId: template?.templateId as number,
    smstype: smstype as number,
    sign: sign.trim(),
    fileType: mode,
    ...(mode === NumberInputMode.File ? { importFilePath: sendFilePath, fileName: parsed?.fileName } : { content, mobile: screened?.phones ?? numbers }),
  });

  const validate = () => {
    const e: Errors = {};
    if (agent && !clientId) e.clientId = MESSAGES.pickSubAccount;
    if (!template) e.templateId = FIELD_MESSAGES.templateRequired;
    if (smstype === undefined) e.smstype = FIELD_MESSAGES.smstypeRequired;
    const s = sign.trim();
    if (s.length < 2 || s.length > 12) e.sign = FIELD_MESSAGES.sign;
    if (mode === NumberInputMode.File) {
      if (!parsed) e.file = VARIABLE_MESSAGES.noFile;
      else if (!sendFilePath || submitTotal === 0) e.file = VARIABLE_MESSAGES.emptyFile;
    } else {
      if (!content.trim()) e.content = VARIABLE_MESSAGES.contentEmpty;
      else if (pieces.tooLong) e.content = `短信内容不能超过${MAX_MESSAGE_CHARS}个字符`;
      if (!manual.valid) e.mobile = VARIABLE_MESSAGES.noUpload;
    }
    if (sendType === SendTimeType.Scheduled) {
      const p = pageSendTimeProblem(sendtime);
      if (p) e.sendtime = p;
    }
    setErrors(e);
    return Object.values(e).every((v) => !v);
  };

  const submit = async () => {
    if (!validate()) return;
    if (Date.now() - lastSubmit.current < SUBMIT_LOCK_MS) return void message.warning(SEND_MESSAGES.submitLock);
    lastSubmit.current = Date.now();
    setPreparing(true);
    try {
      setCharge((await chargeVariable(payload())).data);
    } catch {
      /* shown */
    } finally {
      setPreparing(false);
    }
  };

  const done = (msg: string, path: string) => {
    setCharge(null);
    message.success(msg || SEND_MESSAGES.sent);
    setParsed(null);
    setScreened(null);
    setNumbers('');
    timers.current.push(window.setTimeout(() => navigate(path), OPEN_TASKS_AFTER_MS));
  };

  const timed = async (check: 0 | 1): Promise<void> => {
    try {
      const body = await sendTimedPage(SendKind.Variable, { ...payload(), sendtime: sendtime.format(SEND_TIME_FORMAT), isCheckAvailableCredit: check });
      done(body.msg, timingDeliverPath());
    } catch (e) {
      setCharge(null);
      if (e instanceof ApiError && e.code === 403 && check === 1) {
        modal.confirm({ title: '提示', content: e.message, okText: '确定', cancelText: '取消', onOk: () => timed(0) });
      } else if (e instanceof ApiError) message.error(e.message);
    }
  };

  const send = async () => {
    setSending(true);
    try {
      if (sendType === SendTimeType.Scheduled) return await timed(1);
      const body = await sendVariable(payload());
      done(body.msg, smsTaskPath());
    } catch {
      setCharge(null);
    } finally {
      setSending(false);
    }
  };

  const item = (k: keyof Errors) => (errors[k] ? { validateStatus: 'error' as const, help: errors[k] } : {});
  const varCount = template ? countVariables(template.content) : 0;

  return (
    <Card title="变量短信发送">
      <Form layout="horizontal" labelCol={{ flex: '110px' }} wrapperCol={{ flex: 'auto' }} style={{ maxWidth: 960 }} onFinish={submit}>
        {agent && (
          <Form.Item label="子账号" required {...item('clientId')}>
            <ClientSelect phoneInoutType={0} value={clientPick} onChange={(v) => (setClientPick(v || undefined), setTemplate(null), clear('clientId'))} placeholder={MESSAGES.pickSubAccount} />
          </Form.Item>
        )}
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
        <Form.Item label="短信类型" required {...item('smstype')}>
          <Select<number> value={smstype} onChange={(v) => (setSmstype(v as SmsType), clear('smstype'))} options={types.options} loading={types.loading} placeholder="请选择短信类型" style={{ width: 220 }} data-testid="smstype-select" />
        </Form.Item>
        <Form.Item label="签名" required {...item('sign')}>
          <Input value={sign} onChange={(e) => (setSign(e.target.value), clear('sign'))} maxLength={12} showCount placeholder="签名2-12个字符" style={{ width: 260 }} data-testid="sign-input" />
        </Form.Item>
        <Form.Item label="号码来源">
          <Radio.Group
            value={mode}
            onChange={(e) => (setMode(e.target.value), setScreened(null))}
            options={[
              { value: 1, label: '导入变量文件' },
              { value: 0, label: '手动输入' },
            ]}
            data-testid="number-mode"
          />
        </Form.Item>
        {mode === NumberInputMode.File ? (
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
        ) : (
          <>
            <Form.Item label="短信内容" required {...item('content')}>
              <Input.TextArea value={content} onChange={(e) => (setContent(e.target.value), clear('content'))} rows={4} placeholder="请将模板中的变量替换为实际内容" data-testid="content-input" />
              <Typography.Text type={pieces.tooLong ? 'danger' : 'secondary'} data-testid="content-counter">
                {pieces.chars} / {MAX_MESSAGE_CHARS}，预计每个号码计费 {pieces.pieces} 条
              </Typography.Text>
            </Form.Item>
            <Form.Item label="手机号码" required {...item('mobile')}>
              <Input.TextArea value={numbers} onChange={(e) => (setNumbers(e.target.value), setScreened(null), clear('mobile'))} rows={5} placeholder="请输入手机号码，多个号码以逗号分隔" data-testid="numbers-input" />
            </Form.Item>
          </>
        )}
        {((mode === NumberInputMode.File && parsed?.sendFilePath) || (mode === NumberInputMode.Manual && manual.valid > 0)) && (
          <Form.Item label="号码筛选">
            <ScreeningPanel
              source={mode === NumberInputMode.File ? { type: ScreeningType.File, importFilePath: parsed!.sendFilePath, variateNum: parsed!.variateNum } : { type: ScreeningType.Manual, phones: manual.unique.join(',') }}
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
        <Form.Item label="发送时间" {...item('sendtime')}>
          <SendTimeField sendType={sendType} sendtime={sendtime} onType={(v) => (setSendType(v), clear('sendtime'))} onTime={(d) => (setSendtime(d), clear('sendtime'))} />
        </Form.Item>
        <Form.Item colon={false} label=" ">
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={preparing} data-testid="submit">
            提交
          </Button>
        </Form.Item>
      </Form>
      <TemplatePicker open={picking} clientId={clientId} templateType={TemplateType.Variable} onClose={() => setPicking(false)} onPick={pick} />
      <ChargeDialog info={charge} sendtime={sendType === SendTimeType.Scheduled ? sendtime.format(SEND_TIME_FORMAT) : undefined} sending={sending} onOk={send} onCancel={() => setCharge(null)} />
    </Card>
  );
}

export default VariablePage;
