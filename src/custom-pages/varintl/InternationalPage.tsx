/**
 * 国际短信发送 (/customer/deliverlayout/internaldeliver; accounts with phone_inout_type 1 or 2, agents):
 * SMS type, optional sign (2-12 when given), content with its counter (content + sign + 2) and
 * pieces, numbers typed (digits and commas only; 号码检测 → the country of each number, POST
 * /send/checkMobileInternational) or from a txt / csv / xlsx file (≤ 250M, name ≤ 30), the send
 * time (now, or within 24 hours and ≥ 5 minutes ahead), then the character and charge
 * confirmation (POST /send/chargeInfoInternational: per country count × price) and the send
 * (POST /send/sendingInternational → the task list; scheduled: POST /send/send_time_sms → the
 * timed list; a scheduled international send cannot be cancelled).
 */
import { useEffect, useRef, useState } from 'react';
import type { Dayjs } from 'dayjs';
import { Alert, App, Button, Card, Form, Input, Radio, Select, Space, Typography } from 'antd';
import { FileSearchOutlined, SendOutlined } from '@ant-design/icons';
import { ChunkedUpload, type UploadedFile } from '@/components/ChunkedUpload';
import { useNavigate } from 'react-router';
import { NumberInputMode, SendKind, SendTimeType, type SmsType } from '@/generated/schemas';
import { ClientSelect } from '@/components/ClientSelect/ClientSelect';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { ApiError } from '@/providers/http';
import { defaultSendTime, OPEN_TASKS_AFTER_MS, SEND_MESSAGES, SEND_TIME_FORMAT, SUBMIT_LOCK_MS } from '@/domain/send';
import { smsTaskPath, timingDeliverPath } from '@/domain/sendRoutes';
import { MESSAGES } from '../../../common/schema/messages';
import { countPieces, MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';
import {
  chargeInternational,
  checkInternational,
  FIELD_MESSAGES,
  INTL_FILE,
  INTL_MESSAGES,
  intlNumbersOnly,
  pageSendTimeProblem,
  parseInternationalFile,
  sendInternational,
  sendTimedPage,
  type IntlCheck,
  type IntlPayload,
  type VarIntlCharge,
} from './api';
import { ChargeDialog } from './ChargeDialog';
import { CountryTable } from './CountryTable';
import { SendTimeField, useSmsTypeOptions } from './shared';

type Errors = Partial<Record<'clientId' | 'smstype' | 'sign' | 'content' | 'mobile' | 'sendtime', string>>;

export function InternationalPage() {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [clientPick, setClientPick] = useState<string>();
  const [smstype, setSmstype] = useState<SmsType>();
  const [sign, setSign] = useState('');
  const [content, setContent] = useState('');
  const [mode, setMode] = useState<NumberInputMode>(NumberInputMode.Manual);
  const [numbers, setNumbers] = useState('');
  const [checked, setChecked] = useState<IntlCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const [file, setFile] = useState<{ importFilePath: string; fileName: string; parsed: IntlCheck } | null>(null);
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
  const pieces = countPieces({ content, sign: sign.trim() });
  const clear = (k: keyof Errors) => setErrors((e) => ({ ...e, [k]: undefined }));

  const check = async () => {
    if (!numbers.replace(/,/g, '')) return setErrors((e) => ({ ...e, mobile: INTL_MESSAGES.noNumbers }));
    setChecking(true);
    try {
      setChecked((await checkInternational(numbers)).data);
    } catch {
      setChecked(null);
    } finally {
      setChecking(false);
    }
  };

  /** the chunked upload is done: the numbers of the file and their countries */
  const parseUploaded = async (f: UploadedFile) => {
    setUploading(true);
    try {
      const parsed = (await parseInternationalFile({ importFilePath: f.importFilePath, fileName: f.fileName })).data;
      setFile({ importFilePath: f.importFilePath, fileName: f.fileName, parsed });
      clear('mobile');
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : '文件解析失败');
      setFile(null);
    } finally {
      setUploading(false);
    }
  };

  const payload = (): IntlPayload => ({
    clientId,
    smstype: smstype as number,
    sign: sign.trim(),
    content,
    fileType: mode,
    ...(mode === NumberInputMode.Manual ? { mobile: numbers } : { importFilePath: file?.importFilePath, fileName: file?.fileName }),
  });

  const validate = (): boolean => {
    const e: Errors = {};
    if (agent && !clientId) e.clientId = MESSAGES.pickSubAccount;
    if (smstype === undefined) e.smstype = FIELD_MESSAGES.smstypeRequired;
    const s = sign.trim();
    if (s && (s.length < 2 || s.length > 12)) e.sign = FIELD_MESSAGES.sign;
    if (!content.trim()) e.content = FIELD_MESSAGES.contentEmpty;
    else if (pieces.tooLong) e.content = `短信内容不能超过${MAX_MESSAGE_CHARS}个字符`;
    if (mode === NumberInputMode.Manual && !/[0-9]/.test(numbers)) e.mobile = INTL_MESSAGES.noNumbers;
    if (mode === NumberInputMode.Manual && checked && checked.internationalPhoneNum === 0) e.mobile = INTL_MESSAGES.noNumbers;
    if (mode === NumberInputMode.File && !file) e.mobile = INTL_MESSAGES.noNumbers;
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
      setCharge((await chargeInternational(payload())).data);
    } catch {
      /* the error was shown */
    } finally {
      setPreparing(false);
    }
  };

  const done = (msg: string, path: string) => {
    setCharge(null);
    message.success(msg || SEND_MESSAGES.sent);
    setNumbers('');
    setChecked(null);
    setFile(null);
    timers.current.push(window.setTimeout(() => navigate(path), OPEN_TASKS_AFTER_MS));
  };

  const send = async () => {
    setSending(true);
    try {
      if (sendType === SendTimeType.Scheduled) {
        const body = await sendTimedPage(SendKind.International, { ...payload(), sendtime: sendtime.format(SEND_TIME_FORMAT) });
        done(body.msg, timingDeliverPath());
        return;
      }
      const body = await sendInternational(payload());
      done(body.msg, smsTaskPath());
    } catch (e) {
      setCharge(null);
      if (e instanceof ApiError && sendType === SendTimeType.Scheduled) modal.error({ title: '提示', content: e.message });
    } finally {
      setSending(false);
    }
  };

  const item = (k: keyof Errors) => (errors[k] ? { validateStatus: 'error' as const, help: errors[k] } : {});

  return (
    <Card title="国际短信发送">
      <Form layout="horizontal" labelCol={{ flex: '110px' }} wrapperCol={{ flex: 'auto' }} style={{ maxWidth: 900 }} onFinish={submit}>
        {agent && (
          <Form.Item label="子账号" required {...item('clientId')}>
            <ClientSelect
              phoneInoutType={1}
              value={clientPick}
              onChange={(v) => {
                setClientPick(v || undefined);
                clear('clientId');
              }}
              placeholder={MESSAGES.pickSubAccount}
            />
          </Form.Item>
        )}
        <Form.Item label="短信类型" required {...item('smstype')}>
          <Select<number>
            value={smstype}
            onChange={(v) => {
              setSmstype(v as SmsType);
              clear('smstype');
            }}
            options={types.options}
            loading={types.loading}
            placeholder="请选择短信类型"
            style={{ width: 220 }}
            data-testid="smstype-select"
          />
        </Form.Item>
        <Form.Item label="签名" {...item('sign')}>
          <Input value={sign} onChange={(e) => (setSign(e.target.value), clear('sign'))} maxLength={12} showCount placeholder="选填，2-12个字符" style={{ width: 260 }} data-testid="sign-input" />
        </Form.Item>
        <Form.Item label="短信内容" required {...item('content')}>
          <Input.TextArea value={content} onChange={(e) => (setContent(e.target.value), clear('content'))} rows={5} placeholder="请输入短信内容" data-testid="content-input" />
        </Form.Item>
        <Form.Item colon={false} label=" " style={{ marginTop: -16 }}>
          <Space size="large" wrap>
            <Typography.Text type={pieces.tooLong ? 'danger' : 'secondary'} data-testid="content-counter">
              {pieces.chars} / {MAX_MESSAGE_CHARS}
            </Typography.Text>
            <Typography.Text type="secondary" data-testid="content-pieces">
              预计每个号码计费 {pieces.pieces} 条
            </Typography.Text>
          </Space>
        </Form.Item>
        <Form.Item label="号码来源">
          <Radio.Group
            value={mode}
            onChange={(e) => setMode(e.target.value)}
            options={[
              { value: 0, label: '手动输入' },
              { value: 1, label: '导入文件' },
            ]}
            data-testid="number-mode"
          />
        </Form.Item>
        <Form.Item label="国际号码" required {...item('mobile')}>
          {mode === NumberInputMode.Manual ? (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Input.TextArea
                value={numbers}
                onChange={(e) => {
                  setNumbers(intlNumbersOnly(e.target.value));
                  setChecked(null);
                  clear('mobile');
                }}
                rows={6}
                placeholder="请输入国际号码（国际区号 + 号码，如 14155552671），多个号码以逗号分隔"
                data-testid="intl-numbers"
              />
              <Button icon={<FileSearchOutlined />} loading={checking} onClick={check} data-testid="check-intl">
                号码检测
              </Button>
            </Space>
          ) : (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space wrap>
                <ChunkedUpload
                  accept={['.txt', '.csv', '.xlsx']}
                  maxSize={INTL_FILE.maxBytes}
                  maxNameLength={INTL_FILE.nameMax}
                  messages={{ badType: INTL_MESSAGES.fileBadType, tooLarge: INTL_MESSAGES.fileTooLarge, nameTooLong: INTL_MESSAGES.fileNameTooLong }}
                  onDone={parseUploaded}
                  onRemove={() => setFile(null)}
                />
                <Typography.Text type="secondary">支持 txt、csv、xlsx，单个文件不超过250M，文件名不超过30个字符</Typography.Text>
              </Space>
              {uploading && <Typography.Text type="secondary">号码识别中…</Typography.Text>}
              {file && (
                <Alert
                  type="info"
                  showIcon
                  data-testid="intl-file-result"
                  message={`${file.fileName}：有效号码 ${file.parsed.internationalPhoneNum} 个，错误 ${file.parsed.parseMobilesInfo.errNum} 个，重复 ${file.parsed.parseMobilesInfo.repeatNum} 个`}
                />
              )}
            </Space>
          )}
        </Form.Item>
        {(mode === NumberInputMode.Manual ? checked : file?.parsed) && (
          <Form.Item colon={false} label=" ">
            {mode === NumberInputMode.Manual && checked && (
              <Typography.Paragraph data-testid="intl-counts">
                号码总数 {checked.parseMobilesInfo.submitTotal}，有效 {checked.internationalPhoneNum}，错误 {checked.parseMobilesInfo.errNum}，重复 {checked.parseMobilesInfo.repeatNum}
              </Typography.Paragraph>
            )}
            <CountryTable countries={(mode === NumberInputMode.Manual ? checked : file?.parsed)!.countries} />
          </Form.Item>
        )}
        <Form.Item label="发送时间" {...item('sendtime')}>
          <SendTimeField sendType={sendType} sendtime={sendtime} onType={(v) => (setSendType(v), clear('sendtime'))} onTime={(d) => (setSendtime(d), clear('sendtime'))} />
        </Form.Item>
        {sendType === SendTimeType.Scheduled && (
          <Form.Item colon={false} label=" " style={{ marginTop: -16 }}>
            <Typography.Text type="warning">{INTL_MESSAGES_NOTE}</Typography.Text>
          </Form.Item>
        )}
        <Form.Item colon={false} label=" ">
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={preparing} data-testid="submit">
            提交
          </Button>
        </Form.Item>
      </Form>
      <ChargeDialog info={charge} sendtime={sendType === SendTimeType.Scheduled ? sendtime.format(SEND_TIME_FORMAT) : undefined} sending={sending} onOk={send} onCancel={() => setCharge(null)} />
    </Card>
  );
}

/** shown under a scheduled international send (spec 02 §4) */
const INTL_MESSAGES_NOTE = MESSAGES.intlTimedNoCancel;

export default InternationalPage;
