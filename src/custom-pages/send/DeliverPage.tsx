/**
 * 普通短信发送 (/customer/deliverlayout/deliver, route sms_deliver; ?id= re-edits a timed task):
 * sub-account (agents), SMS type, an approved template, sign and content with the counter
 * (content + sign + 2 / 500) and the pieces, the numbers typed or from a file (DomesticNumbers),
 * then the charge confirmation (POST /send/chargeInfo) and the send: now (POST /send/sending:
 * fields cleared, the task list opens after 1 s) or scheduled (POST /send/checkSubmitTime, then
 * POST /send/sendTim; the timed-task list opens; code 403: the server's message, and on confirm the
 * send again without the credit check). Every rule and message is schemas/forms/send.json's
 * (useSendForm → its compiled validators, `x-messages`) or common/send's (the time).
 */
import { useEffect, useState } from 'react';
import type { Dayjs } from 'dayjs';
import { Alert, App, Button, Card, Form, Input, Space, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import sendForm from '@/generated/forms/send';
import {
  ChargeMode,
  NumberInputMode,
  SendTimeType,
  TemplateType,
  type SmsTemplate,
  type SmsType,
} from '@/generated/schemas';
import { useCurrentUser } from '@/layout/hooks';
import { CertifiedNotice, useSendBlocked } from './CertifiedNotice';
import { isAgent } from '@/providers/access';
import { businessTime } from '@/lib/businessTime';
import {
  chargeInfo,
  checkSubmitTime,
  defaultSendTime,
  loadTask,
  SEND_MESSAGES,
  sendNow,
  sendTimed,
  sendTimeProblem,
  type SendPayload,
} from '@/domain/send';
import { useScreen, useScreenPath } from '@/layout/screens';
import { MESSAGES } from '../../../common/schema/messages';
import { TemplatePicker } from './TemplatePicker';
import { ChargeDialog } from './ChargeDialog';
import { AccountField, SignField, SmsTypeField, useSmsTypeOptions } from './SenderFields';
import { ContentCounter, usePieces } from './ContentCounter';
import { DomesticNumbers, useDomesticNumbers } from './DomesticNumbers';
import { SendTimeField } from './SendTimeField';
import { PhonePreview, WithPreview, WRAPPER } from './PhonePreview';
import { useSendForm } from './useSendForm';

/** forms/send.json's message for a missing template */
const TEMPLATE_REQUIRED = String(
  (sendForm.schema.properties as Record<string, { errorMessage?: unknown }>).templateId.errorMessage,
);

/** File types the number import takes. */
export const IMPORT_ACCEPT = '.txt,.csv,.xlsx';

interface Fields {
  clientId?: string;
  smstype?: SmsType;
  templateId?: number;
  templateType?: TemplateType;
  /** the chosen template's text: a fixed template's content should not change */
  templateContent?: string;
  sign: string;
  content: string;
  sendType: number;
  sendtime: Dayjs;
  /** re-edit: the timed task it replaces */
  taskId?: string;
}

const blank = (): Fields => ({ sign: '', content: '', sendType: SendTimeType.Immediate, sendtime: defaultSendTime() });
const FIELDS = ['clientId', 'smstype', 'templateId', 'sign', 'content', 'mobile', 'sendtime'] as const;

export function DeliverPage() {
  const screen = useScreen();
  const smsTaskPath = useScreenPath('sms_smstask');
  const timingDeliverPath = useScreenPath('sms_timingdeliver');
  const { message } = App.useApp();
  const [search] = useSearchParams();
  const editId = search.get('id');
  const { user } = useCurrentUser();
  const blocked = useSendBlocked();
  const agent = isAgent(user);
  const form = useSendForm<Fields, (typeof FIELDS)[number]>({
    form: sendForm,
    initial: blank,
    fields: FIELDS,
    timeKind: 'ordinary',
  });
  const { values: f, set, patch, item } = form;
  const box = useDomesticNumbers();
  const [picking, setPicking] = useState(false);

  // a sub-account sends as itself
  const clientId = agent ? f.clientId : (user?.clientid ?? undefined);
  const pieces = usePieces(f.content, f.sign);
  const types = useSmsTypeOptions(clientId);
  const templateChanged =
    f.templateType === TemplateType.Fixed && f.templateContent !== undefined && f.content !== f.templateContent;

  // re-edit of a timed task (?id=): POST /send/edit
  const { replace } = form;
  const { load } = box;
  useEffect(() => {
    if (!editId) return;
    let live = true;
    loadTask(editId)
      .then(({ data: t }) => {
        if (!live || !t) return;
        // the task's time is Shanghai's, shown as it is whatever the browser's zone
        const at = t.sendtime ? businessTime(t.sendtime) : null;
        replace({
          clientId: t.clientId,
          smstype: t.smstype === undefined ? undefined : (Number(t.smstype) as SmsType),
          // null when the task was written without a template
          templateId: t.templateId ?? undefined,
          templateType: (t.templateType ?? undefined) as TemplateType | undefined,
          templateContent: t.templateType === TemplateType.Fixed ? t.content : undefined,
          sign: t.sign ?? '',
          content: t.content ?? '',
          sendType: SendTimeType.Scheduled,
          sendtime: at && !sendTimeProblem(at) ? at : defaultSendTime(),
          taskId: t.taskId ?? editId,
        });
        load(t.mobile ?? '');
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [editId, replace, load]);

  const onClient = (v?: string) =>
    patch(
      { clientId: v, smstype: undefined, templateId: undefined, templateType: undefined, templateContent: undefined },
      'clientId',
    );

  const openPicker = () => {
    if (agent && !f.clientId) {
      form.fail('clientId', MESSAGES.pickSubAccount);
      message.error(MESSAGES.pickSubAccount);
      return;
    }
    setPicking(true);
  };

  const pickTemplate = (t: SmsTemplate) => {
    setPicking(false);
    patch(
      (x) => ({
        templateId: t.templateId,
        templateType: t.templateType,
        templateContent: t.content,
        content: t.content,
        sign: t.sign || x.sign,
        smstype: t.smstype !== undefined && t.smstype !== null ? (Number(t.smstype) as SmsType) : x.smstype,
      }),
      'templateId',
      'content',
      'sign',
    );
  };

  const payload = (): SendPayload => {
    const file = box.imported;
    return {
      clientId: clientId ?? '',
      content: f.content,
      sign: f.sign.trim(),
      smstype: f.smstype as SmsType,
      mobile: box.mobiles(),
      ...(file ? { importFilePath: file.importFilePath } : {}),
      templateId: f.templateId,
      templateType: f.templateType,
      fileType: file ? NumberInputMode.File : NumberInputMode.Manual,
      fileName: file?.fileName,
    };
  };

  /** 提交: lock, the form's rules, the time rule, then the charge confirmation. */
  const submit = async () => {
    if (form.submitLocked()) return;
    const p = payload();
    const problem = form.validate(
      { ...p, mobile: p.mobile || undefined, fileName: undefined, fileType: undefined },
      // a send goes with an approved template (the server refuses one without: docs/api-send.md)
      { templateId: f.templateId === undefined && TEMPLATE_REQUIRED, mobile: box.problem() },
    );
    if (problem) {
      message.error(problem);
      return;
    }
    await form.prepare(async () => {
      if (form.scheduled) await checkSubmitTime(form.sendtimeText!);
      const body = await chargeInfo({
        clientId: p.clientId,
        content: p.content,
        sign: p.sign,
        mobile: p.mobile ?? '',
        importFilePath: p.importFilePath,
        smstype: p.smstype,
      });
      return (
        body.data ?? { smsNum: pieces.pieces, chargeNum: pieces.pieces * box.count(), chargeMode: ChargeMode.Pool }
      );
    });
  };

  const reset = () => {
    form.reset('clientId');
    box.reset();
  };

  const timed = async (isCheckAvailableCredit: 0 | 1) => {
    const body = await sendTimed({
      ...payload(),
      sendtime: form.sendtimeText!,
      taskId: f.taskId,
      chargeNumTotal: form.charge?.chargeNum,
      isCheckAvailableCredit,
    }).catch((e) => e.body);
    const code = Number(body?.code);
    if (code === 0) {
      form.done(body.msg, timingDeliverPath, { now: true });
      reset();
      return;
    }
    form.setCharge(null);
    if (code === 403 && isCheckAvailableCredit === 1) {
      form.askCredit(body.msg, () => timed(0));
      return;
    }
    message.error(body?.msg || MESSAGES.badParam);
  };

  const send = async () => {
    form.setSending(true);
    try {
      if (form.scheduled) {
        await timed(1);
        return;
      }
      const body = await sendNow(payload());
      form.done(body.msg, smsTaskPath);
      reset();
    } catch {
      form.setCharge(null);
    } finally {
      form.setSending(false);
    }
  };

  return (
    <Card title={f.taskId ? `${screen.label}（重新编辑定时任务）` : screen.label}>
      <CertifiedNotice blocked={blocked} />
      <WithPreview preview={<PhonePreview sign={f.sign} content={f.content} />}>
        <Form layout="horizontal" labelCol={{ flex: '110px' }} wrapperCol={WRAPPER} onFinish={submit}>
          <AccountField
            agent={agent}
            phoneInoutType={0}
            value={f.clientId}
            onChange={onClient}
            status={item('clientId')}
          />
          <SmsTypeField
            clientId={clientId}
            value={f.smstype}
            onChange={(v) =>
              patch(
                (x) => ({
                  smstype: v,
                  ...(x.smstype !== v
                    ? { templateId: undefined, templateType: undefined, templateContent: undefined }
                    : {}),
                }),
                'smstype',
              )
            }
            status={item('smstype')}
          />
          <Form.Item label="短信模板" required {...item('templateId')}>
            <Space>
              <Button onClick={openPicker} data-testid="pick-template">
                {f.templateId ? '更换模板' : '选择模板'}
              </Button>
              {f.templateId !== undefined && (
                <Typography.Text type="secondary" data-testid="picked-template">
                  模板ID {f.templateId}
                </Typography.Text>
              )}
            </Space>
          </Form.Item>
          <SignField clientId={clientId} value={f.sign} onChange={(v) => set('sign', v)} status={item('sign')} />
          <Form.Item label="短信内容" required {...item('content')}>
            {/* a fixed template's text is sent as approved: read-only (a changed text would be refused at the end) */}
            <Input.TextArea
              value={f.content}
              onChange={(e) => set('content', e.target.value)}
              readOnly={f.templateType === TemplateType.Fixed}
              // read-only looks it: filled, no caret (issue 41 item 7)
              variant={f.templateType === TemplateType.Fixed ? 'filled' : 'outlined'}
              style={f.templateType === TemplateType.Fixed ? { cursor: 'default' } : undefined}
              rows={5}
              placeholder={f.templateId === undefined ? '请先选择模板' : '请输入短信内容'}
              data-testid="content-input"
            />
            {f.templateType === TemplateType.Fixed && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="content-readonly-hint">
                固定模板的内容按审核通过的原文发送，不可修改
              </Typography.Text>
            )}
          </Form.Item>
          <Form.Item colon={false} label=" " style={{ marginTop: -16 }}>
            <ContentCounter pieces={pieces} explain />
            {templateChanged && (
              <Alert
                type="warning"
                showIcon
                message={SEND_MESSAGES.templateChanged}
                style={{ marginTop: 8 }}
                data-testid="template-changed"
              />
            )}
          </Form.Item>
          <DomesticNumbers box={box} status={item('mobile')} onTyped={() => form.clear('mobile')} />
          <SendTimeField
            kind="ordinary"
            sendType={f.sendType}
            sendtime={f.sendtime}
            onType={(v) => set('sendType', v)}
            onTime={(d) => set('sendtime', d)}
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
        allowedTypes={types.known ? types.options.map((o) => o.value) : undefined}
        onClose={() => setPicking(false)}
        onPick={pickTemplate}
      />
      <ChargeDialog
        info={form.charge}
        numbers={box.count()}
        sendtime={form.sendtimeText}
        sending={form.sending}
        onOk={send}
        onCancel={() => form.setCharge(null)}
      />
    </Card>
  );
}

export default DeliverPage;
