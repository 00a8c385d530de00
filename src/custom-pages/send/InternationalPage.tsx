/**
 * 国际短信发送 (/customer/deliverlayout/internaldeliver; accounts with phone_inout_type 1 or 2, agents):
 * SMS type, optional sign (2-12 when given), content with its counter (content + sign + 2) and
 * pieces, numbers typed (digits and commas only; 号码检测 → the country of each number, POST
 * /send/checkMobileInternational) or from a txt / csv / xlsx file (≤ 250M, name ≤ 30), the send
 * time (now, or within 24 hours and ≥ 5 minutes ahead: common/send), then the character and charge
 * confirmation (POST /send/chargeInfoInternational: per country count × price) and the send
 * (POST /send/sendingInternational → the task list; scheduled: POST /send/send_time_sms → the
 * timed list; a scheduled international send cannot be cancelled). The fields' rules and messages
 * are schemas/forms/send-international.json's (useSendForm).
 */
import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import { Alert, App, Button, Card, Form, Input, Space, Typography } from 'antd';
import { FileSearchOutlined, SendOutlined } from '@ant-design/icons';
import { ChunkedUpload, type UploadedFile } from '@/components/ChunkedUpload';
import intlForm from '@/generated/forms/send-international';
import { NumberInputMode, SendTimeType, type SmsType } from '@/generated/schemas';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { ApiError } from '@/providers/http';
import { defaultSendTime } from '@/domain/send';
import { smsTaskPath, timingDeliverPath } from '@/domain/sendRoutes';
import { MESSAGES } from '../../../common/schema/messages';
import intlSchema from '../../../schemas/forms/send-international.json';
import { chargeInternational, checkInternational, INTL_FILE, INTL_MESSAGES, intlNumbersOnly, parseInternationalFile, sendInternational, sendTimedPage, type IntlCheck, type IntlPayload } from './api';
import { ChargeDialog } from './ChargeDialog';
import { CountryTable } from './CountryTable';
import { AccountField, SignField, SmsTypeField } from './SenderFields';
import { ContentCounter, usePieces } from './ContentCounter';
import { NumberSource, type NumberMode } from './NumberSource';
import { SendTimeField } from './SendTimeField';
import { useSendForm } from './useSendForm';

interface Fields {
  clientId?: string;
  smstype?: SmsType;
  sign: string;
  content: string;
  mode: NumberMode;
  numbers: string;
  sendType: number;
  sendtime: Dayjs;
}

const blank = (): Fields => ({ sign: '', content: '', mode: NumberInputMode.Manual, numbers: '', sendType: SendTimeType.Immediate, sendtime: defaultSendTime() });
const FIELDS = ['clientId', 'smstype', 'sign', 'content', 'mobile', 'sendtime'] as const;
/** the form's message for content longer than 500 characters (with its sign) */
const TOO_LONG = intlSchema.properties.content.errorMessage.maxLength;

export function InternationalPage() {
  const { message, modal } = App.useApp();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const form = useSendForm<Fields, (typeof FIELDS)[number]>({ form: intlForm, initial: blank, fields: FIELDS, shownAs: { importFilePath: 'mobile', fileName: 'mobile' }, timeKind: 'international' });
  const { values: f, set, item } = form;
  const [checked, setChecked] = useState<IntlCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const [file, setFile] = useState<{ importFilePath: string; fileName: string; parsed: IntlCheck } | null>(null);
  const [uploading, setUploading] = useState(false);

  const clientId = agent ? f.clientId : (user?.clientid ?? undefined);
  const pieces = usePieces(f.content, f.sign);

  const check = async () => {
    if (!f.numbers.replace(/,/g, '')) return form.fail('mobile', INTL_MESSAGES.noNumbers);
    setChecking(true);
    try {
      setChecked((await checkInternational(f.numbers)).data);
    } catch {
      setChecked(null);
    } finally {
      setChecking(false);
    }
  };

  /** the chunked upload is done: the numbers of the file and their countries */
  const parseUploaded = async (up: UploadedFile) => {
    setUploading(true);
    try {
      const parsed = (await parseInternationalFile({ importFilePath: up.importFilePath, fileName: up.fileName })).data;
      setFile({ importFilePath: up.importFilePath, fileName: up.fileName, parsed });
      form.clear('mobile');
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : '文件解析失败');
      setFile(null);
    } finally {
      setUploading(false);
    }
  };

  const payload = (): IntlPayload => ({
    clientId,
    smstype: f.smstype as number,
    sign: f.sign.trim(),
    content: f.content,
    fileType: f.mode,
    ...(f.mode === NumberInputMode.Manual ? { mobile: f.numbers } : { importFilePath: file?.importFilePath, fileName: file?.fileName }),
  });

  const submit = async () => {
    const typed = f.mode === NumberInputMode.Manual;
    const noNumbers = typed ? !/[0-9]/.test(f.numbers) || checked?.internationalPhoneNum === 0 : !file;
    if (form.validate({ ...payload() }, { content: pieces.tooLong && f.content.trim() !== '' && TOO_LONG, mobile: noNumbers && INTL_MESSAGES.noNumbers })) return;
    if (form.submitLocked()) return;
    await form.prepare(async () => (await chargeInternational(payload())).data);
  };

  const done = (msg: string, path: string) => {
    form.done(msg, path);
    set('numbers', '');
    setChecked(null);
    setFile(null);
  };

  const send = async () => {
    form.setSending(true);
    try {
      if (form.scheduled) {
        const body = await sendTimedPage(2, { ...payload(), sendtime: form.sendtimeText! });
        done(body.msg, timingDeliverPath());
        return;
      }
      const body = await sendInternational(payload());
      done(body.msg, smsTaskPath());
    } catch (e) {
      form.setCharge(null);
      if (e instanceof ApiError && form.scheduled) modal.error({ title: '提示', content: e.message });
    } finally {
      form.setSending(false);
    }
  };

  const shownCheck = f.mode === NumberInputMode.Manual ? checked : file?.parsed;

  return (
    <Card title="国际短信发送">
      <Form layout="horizontal" labelCol={{ flex: '110px' }} wrapperCol={{ flex: 'auto' }} style={{ maxWidth: 900 }} onFinish={submit}>
        <AccountField agent={agent} phoneInoutType={1} value={f.clientId} onChange={(v) => set('clientId', v)} status={item('clientId')} />
        <SmsTypeField clientId={clientId} value={f.smstype} onChange={(v) => set('smstype', v)} status={item('smstype')} />
        <SignField optional value={f.sign} onChange={(v) => set('sign', v)} status={item('sign')} />
        <Form.Item label="短信内容" required {...item('content')}>
          <Input.TextArea value={f.content} onChange={(e) => set('content', e.target.value)} rows={5} placeholder="请输入短信内容" data-testid="content-input" />
        </Form.Item>
        <Form.Item colon={false} label=" " style={{ marginTop: -16 }}>
          <ContentCounter pieces={pieces} />
        </Form.Item>
        <NumberSource
          value={f.mode}
          onChange={(v) => set('mode', v)}
          fileLabel="导入文件"
          typed={
            <Form.Item label="国际号码" required {...item('mobile')}>
              <Space direction="vertical" style={{ width: '100%' }}>
                <Input.TextArea
                  value={f.numbers}
                  onChange={(e) => {
                    form.patch({ numbers: intlNumbersOnly(e.target.value) }, 'mobile');
                    setChecked(null);
                  }}
                  rows={6}
                  placeholder="请输入国际号码（国际区号 + 号码，如 14155552671），多个号码以逗号分隔"
                  data-testid="intl-numbers"
                />
                <Button icon={<FileSearchOutlined />} loading={checking} onClick={check} data-testid="check-intl">
                  号码检测
                </Button>
              </Space>
            </Form.Item>
          }
          file={
            <Form.Item label="国际号码" required {...item('mobile')}>
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
            </Form.Item>
          }
        />
        {shownCheck && (
          <Form.Item colon={false} label=" ">
            {f.mode === NumberInputMode.Manual && checked && (
              <Typography.Paragraph data-testid="intl-counts">
                号码总数 {checked.parseMobilesInfo.submitTotal}，有效 {checked.internationalPhoneNum}，错误 {checked.parseMobilesInfo.errNum}，重复 {checked.parseMobilesInfo.repeatNum}
              </Typography.Paragraph>
            )}
            <CountryTable countries={shownCheck.countries} />
          </Form.Item>
        )}
        <SendTimeField
          kind="international"
          sendType={f.sendType}
          sendtime={f.sendtime}
          onType={(v) => form.patch({ sendType: v }, 'sendtime')}
          onTime={(d) => form.patch({ sendtime: d }, 'sendtime')}
          status={item('sendtime')}
          scheduledNote={<Typography.Text type="warning">{MESSAGES.intlTimedNoCancel}</Typography.Text>}
        />
        <Form.Item colon={false} label=" ">
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={form.preparing} data-testid="submit">
            提交
          </Button>
        </Form.Item>
      </Form>
      <ChargeDialog wide info={form.charge} sendtime={form.sendtimeText} sending={form.sending} onOk={send} onCancel={() => form.setCharge(null)} />
    </Card>
  );
}

export default InternationalPage;
