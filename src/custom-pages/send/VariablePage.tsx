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
import { App, Button, Card, Descriptions, Form, Input, Space } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import variableForm from '@/generated/forms/send-variable';
import { SendKind, SendTimeType, TemplateType, type SmsTemplate, type SmsType } from '@/generated/schemas';
import { useCurrentUser } from '@/layout/hooks';
import { CertifiedNotice, useSendBlocked } from './CertifiedNotice';
import { isAgent } from '@/providers/access';
import { ApiError } from '@/providers/http';
import { defaultSendTime } from '@/domain/send';
import { useScreen, useScreenPath } from '@/layout/screens';
import { MESSAGES } from '../../../common/schema/messages';
import { countVariables } from '../../../common/template/rules';
import variableSchema from '../../../schemas/forms/send-variable.json';
import { TemplatePicker } from './TemplatePicker';
import {
  chargeVariable,
  FIELD_MESSAGES,
  sendTimedPage,
  sendVariable,
  VARIABLE_MESSAGES,
  type VariablePayload,
} from './api';
import { ChargeDialog } from './ChargeDialog';
import { AccountField, SignField, SmsTypeField } from './SenderFields';
import { ContentCounter, usePieces } from './ContentCounter';
import { useVariableNumbers, VariableNumbers } from './VariableNumbers';
import { SendTimeField } from './SendTimeField';
import { PhonePreview, WithPreview, WRAPPER } from './PhonePreview';
import { useSendForm } from './useSendForm';

interface Fields {
  clientId?: string;
  smstype?: SmsType;
  sign: string;
  /** the filled content of typed numbers */
  content: string;
  sendType: number;
  sendtime: Dayjs;
}

const blank = (): Fields => ({ sign: '', content: '', sendType: SendTimeType.Immediate, sendtime: defaultSendTime() });
const FIELDS = ['clientId', 'templateId', 'smstype', 'sign', 'content', 'file', 'mobile', 'sendtime'] as const;
/** the form's message for content longer than 500 characters (with its sign) */
const TOO_LONG = variableSchema.properties.content.errorMessage.maxLength;

export function VariablePage() {
  const screen = useScreen();
  const smsTaskPath = useScreenPath('sms_smstask');
  const timingDeliverPath = useScreenPath('sms_timingdeliver');
  const { message } = App.useApp();
  const { user } = useCurrentUser();
  const blocked = useSendBlocked();
  const agent = isAgent(user);
  const form = useSendForm<Fields, (typeof FIELDS)[number]>({
    form: variableForm,
    initial: blank,
    fields: FIELDS,
    shownAs: { importFilePath: 'file', fileName: 'file' },
    timeKind: 'variable',
  });
  const { values: f, set, patch, item } = form;
  const [template, setTemplate] = useState<SmsTemplate | null>(null);
  const [picking, setPicking] = useState(false);
  const clientId = agent ? f.clientId : (user?.clientid ?? undefined);
  const numbers = useVariableNumbers({
    template,
    clientId,
    sign: f.sign,
    noTemplate: () => form.fail('templateId', FIELD_MESSAGES.templateRequired),
    clear: (k) => form.clear(k),
  });
  const pieces = usePieces(f.content, f.sign);

  const openPicker = () => {
    if (agent && !clientId) return form.fail('clientId', MESSAGES.pickSubAccount);
    setPicking(true);
  };
  const pick = (t: SmsTemplate) => {
    setTemplate(t);
    setPicking(false);
    patch(
      (x) => ({
        sign: t.sign || x.sign,
        smstype: t.smstype !== undefined && t.smstype !== null ? t.smstype : x.smstype,
        content: t.content ?? '',
      }),
      'templateId',
    );
    numbers.forget();
  };

  const payload = (): VariablePayload => ({
    clientId,
    templateId: template?.templateId as number,
    smstype: f.smstype as number,
    sign: f.sign.trim(),
    ...(numbers.fromFile ? {} : { content: f.content }),
    ...numbers.fields(),
  });

  /** what the schema cannot say: the file parsed and not empty, or the typed content and numbers */
  const pageProblems = () => ({
    ...numbers.problems(),
    ...(numbers.fromFile
      ? {}
      : { content: !f.content.trim() ? VARIABLE_MESSAGES.contentEmpty : pieces.tooLong && TOO_LONG }),
  });

  const submit = async () => {
    if (form.validate({ ...payload() }, pageProblems())) return;
    if (form.submitLocked()) return;
    await form.prepare(async () => (await chargeVariable(payload())).data);
  };

  const done = (msg: string, path: string) => {
    form.done(msg, path);
    numbers.reset();
  };

  const timed = async (check: 0 | 1): Promise<void> => {
    try {
      const body = await sendTimedPage(SendKind.Variable, {
        ...payload(),
        sendtime: form.sendtimeText!,
        isCheckAvailableCredit: check,
      });
      done(body.msg, timingDeliverPath);
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
      done(body.msg, smsTaskPath);
    } catch {
      form.setCharge(null);
    } finally {
      form.setSending(false);
    }
  };

  return (
    <Card title={screen.label}>
      <CertifiedNotice blocked={blocked} />
      <WithPreview
        preview={
          <PhonePreview
            sign={f.sign}
            rows={numbers.fromFile ? (numbers.parsed?.preview ?? []) : f.content.trim() ? [{ content: f.content }] : []}
            emptyText={
              numbers.fromFile
                ? template
                  ? '上传变量文件后在此预览前几行'
                  : '选择变量模板并上传变量文件后在此预览'
                : '输入短信内容后在此预览'
            }
          />
        }
      >
        <Form layout="horizontal" labelCol={{ flex: '110px' }} wrapperCol={WRAPPER} onFinish={submit}>
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
                  <Descriptions.Item label="变量个数">{countVariables(template.content)}</Descriptions.Item>
                </Descriptions>
              )}
            </Space>
          </Form.Item>
          <SmsTypeField
            clientId={clientId}
            value={f.smstype}
            onChange={(v) => set('smstype', v)}
            status={item('smstype')}
          />
          <SignField clientId={clientId} value={f.sign} onChange={(v) => set('sign', v)} status={item('sign')} />
          <VariableNumbers
            box={numbers}
            fileStatus={item('file')}
            mobileStatus={item('mobile')}
            typedContent={
              <Form.Item label="短信内容" required {...item('content')}>
                <Input.TextArea
                  value={f.content}
                  onChange={(e) => set('content', e.target.value)}
                  rows={4}
                  placeholder="请将模板中的变量替换为实际内容"
                  data-testid="content-input"
                />
                <ContentCounter pieces={pieces} layout="inline" />
              </Form.Item>
            }
          />
          <SendTimeField
            kind="variable"
            sendType={f.sendType}
            sendtime={f.sendtime}
            onType={(v) => patch({ sendType: v }, 'sendtime')}
            onTime={(d) => patch({ sendtime: d }, 'sendtime')}
            status={item('sendtime')}
          />
          <Form.Item colon={false} label=" ">
            <Button
              type="primary"
              htmlType="submit"
              icon={<SendOutlined />}
              loading={form.preparing}
              disabled={blocked}
              data-testid="submit"
            >
              提交
            </Button>
          </Form.Item>
        </Form>
      </WithPreview>
      <TemplatePicker
        open={picking}
        clientId={clientId}
        smstype={f.smstype}
        templateType={TemplateType.Variable}
        onClose={() => setPicking(false)}
        onPick={pick}
      />
      <ChargeDialog
        wide
        info={form.charge}
        sendtime={form.sendtimeText}
        sending={form.sending}
        onOk={send}
        onCancel={() => form.setCharge(null)}
      />
    </Card>
  );
}

export default VariablePage;
