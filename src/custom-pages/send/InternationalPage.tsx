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
import type { Dayjs } from 'dayjs';
import { App, Button, Card, Form, Input, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import intlForm from '@/generated/forms/send-international';
import { SendKind, SendTimeType, type SmsType } from '@/generated/schemas';
import { useCurrentUser } from '@/layout/hooks';
import { CertifiedNotice, useSendBlocked } from './CertifiedNotice';
import { isAgent } from '@/providers/access';
import { ApiError } from '@/providers/http';
import { defaultSendTime } from '@/domain/send';
import { useScreen, useScreenPath } from '@/layout/screens';
import { MESSAGES } from '../../../common/schema/messages';
import intlSchema from '../../../schemas/forms/send-international.json';
import { chargeInternational, sendInternational, sendTimedPage, type IntlPayload } from './api';
import { ChargeDialog } from './ChargeDialog';
import { AccountField, SignField, SmsTypeField } from './SenderFields';
import { ContentCounter, usePieces } from './ContentCounter';
import { IntlNumbers, useIntlNumbers } from './IntlNumbers';
import { SendTimeField } from './SendTimeField';
import { PhonePreview, WithPreview, WRAPPER } from './PhonePreview';
import { useSendForm } from './useSendForm';

interface Fields {
  clientId?: string;
  smstype?: SmsType;
  sign: string;
  content: string;
  sendType: number;
  sendtime: Dayjs;
}

const blank = (): Fields => ({ sign: '', content: '', sendType: SendTimeType.Immediate, sendtime: defaultSendTime() });
const FIELDS = ['clientId', 'smstype', 'sign', 'content', 'mobile', 'sendtime'] as const;
/** the form's message for content longer than 500 characters (with its sign) */
const TOO_LONG = intlSchema.properties.content.errorMessage.maxLength;

export function InternationalPage() {
  const screen = useScreen();
  const smsTaskPath = useScreenPath('sms_smstask');
  const timingDeliverPath = useScreenPath('sms_timingdeliver');
  const { modal } = App.useApp();
  const { user } = useCurrentUser();
  const blocked = useSendBlocked();
  const agent = isAgent(user);
  const form = useSendForm<Fields, (typeof FIELDS)[number]>({
    form: intlForm,
    initial: blank,
    fields: FIELDS,
    shownAs: { importFilePath: 'mobile', fileName: 'mobile' },
    timeKind: 'international',
  });
  const { values: f, set, item } = form;
  const numbers = useIntlNumbers({ fail: (m) => form.fail('mobile', m), clear: () => form.clear('mobile') });

  const clientId = agent ? f.clientId : (user?.clientid ?? undefined);
  const pieces = usePieces(f.content, f.sign);

  const payload = (): IntlPayload => ({
    clientId,
    smstype: f.smstype as number,
    sign: f.sign.trim(),
    content: f.content,
    ...numbers.fields(),
  });

  const submit = async () => {
    if (
      form.validate(
        { ...payload() },
        { content: pieces.tooLong && f.content.trim() !== '' && TOO_LONG, mobile: numbers.problem() },
      )
    )
      return;
    if (form.submitLocked()) return;
    await form.prepare(async () => (await chargeInternational(payload())).data);
  };

  const done = (msg: string, path: string) => {
    form.done(msg, path);
    numbers.reset();
  };

  const send = async () => {
    form.setSending(true);
    try {
      if (form.scheduled) {
        const body = await sendTimedPage(SendKind.International, { ...payload(), sendtime: form.sendtimeText! });
        done(body.msg, timingDeliverPath);
        return;
      }
      const body = await sendInternational(payload());
      done(body.msg, smsTaskPath);
    } catch (e) {
      form.setCharge(null);
      if (e instanceof ApiError && form.scheduled) modal.error({ title: '提示', content: e.message });
    } finally {
      form.setSending(false);
    }
  };

  return (
    <Card title={screen.label}>
      <CertifiedNotice blocked={blocked} />
      <WithPreview preview={<PhonePreview sign={f.sign} content={f.content} />}>
        <Form layout="horizontal" labelCol={{ flex: '110px' }} wrapperCol={WRAPPER} onFinish={submit}>
          <AccountField
            agent={agent}
            phoneInoutType={1}
            value={f.clientId}
            onChange={(v) => set('clientId', v)}
            status={item('clientId')}
          />
          <SmsTypeField
            clientId={clientId}
            value={f.smstype}
            onChange={(v) => set('smstype', v)}
            status={item('smstype')}
          />
          <SignField
            optional
            clientId={clientId}
            value={f.sign}
            onChange={(v) => set('sign', v)}
            status={item('sign')}
          />
          <Form.Item label="短信内容" required {...item('content')}>
            <Input.TextArea
              value={f.content}
              onChange={(e) => set('content', e.target.value)}
              rows={5}
              placeholder="请输入短信内容"
              data-testid="content-input"
            />
          </Form.Item>
          <Form.Item colon={false} label=" " style={{ marginTop: -16 }}>
            <ContentCounter pieces={pieces} />
          </Form.Item>
          <IntlNumbers box={numbers} status={item('mobile')} />
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

export default InternationalPage;
