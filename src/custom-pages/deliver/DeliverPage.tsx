/**
 * 普通短信发送 (/customer/deliverlayout/deliver, route sms_deliver; ?id= re-edits a timed task):
 * sub-account (agents, POST /send/getclients), SMS type (POST /send/getsmstypes), an approved
 * template, sign and content with the counter (content + sign + 2 / 500) and the pieces
 * (common/sms/pieces), the number box (normalised as typed, counts, 确认号码, 清空, templates,
 * carrier check) or a number file of any size (ChunkedUpload → POST /send/parsefile; the send then
 * carries its importFilePath and the server reads the numbers from the file), then the charge confirmation (POST /send/chargeInfo) and the send:
 * now (POST /send/sending: fields cleared, the task list opens after 1 s) or scheduled
 * (POST /send/checkSubmitTime, then POST /send/sendTim; the timed-task list opens; code 403:
 * the server's message, and on confirm the send again without the credit check).
 * Every rule and message is schemas/forms/send.json's (validateForm, `x-messages`).
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { Dayjs } from 'dayjs';
import { Alert, App, Button, Card, DatePicker, Dropdown, Form, Input, Radio, Select, Space, Tag, Typography } from 'antd';
import { DownloadOutlined, FileSearchOutlined, SendOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import { useNavigate, useSearchParams } from 'react-router';
import sendForm from '@/generated/forms/send';
import { ChargeMode, NumberInputMode, SendTimeType, TemplateType, type SmsTemplate, type SmsType } from '@/generated/schemas';
import { validateForm } from '@/components/SchemaForm/validation';
import { ClientSelect } from '@/components/ClientSelect/ClientSelect';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { enumOptions } from '@/schema';
import { openDownload } from '@/lib/download';
import { businessTime } from '@/lib/businessTime';
import {
  chargeInfo,
  checkCarriers,
  checkSubmitTime,
  defaultSendTime,
  loadTask,
  NUMBER_TEMPLATES,
  OPEN_TASKS_AFTER_MS,
  SEND_MESSAGES,
  SEND_TIME_FORMAT,
  sendDateDisabled,
  sendNow,
  sendTimed,
  sendTimeProblem,
  SUBMIT_LOCK_MS,
  type CarrierCheck,
  type ChargeInfo,
  type SendPayload,
  type SmsTypeOption,
} from '@/domain/send';
import { smsTaskPath, timingDeliverPath } from '@/domain/sendRoutes';
import { NUMBER_FILE_ACCEPT, NUMBER_FILE_MAX_BYTES, parseFile, type FileParse } from '@/domain/files';
import { ChunkedUpload, type UploadedFile } from '@/components/ChunkedUpload';
import { countPieces, MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';
import { MAX_NUMBERS } from '../../../common/sms/numbers';
import { MESSAGES } from '../../../common/schema/messages';
import { checkNumbers, confirmText, normalizeNumbers, poolProblem } from './numberPool';
import { TemplatePicker } from './TemplatePicker';
import { ChargeConfirmDialog } from './ChargeConfirmDialog';

/** forms/send.json's message for a missing template */
const TEMPLATE_REQUIRED = String((sendForm.schema.properties as Record<string, { errorMessage?: unknown }>).templateId.errorMessage);

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

type Errors = Partial<Record<'clientId' | 'smstype' | 'templateId' | 'sign' | 'content' | 'mobile' | 'sendtime', string>>;

export function DeliverPage() {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const editId = search.get('id');
  const { user } = useCurrentUser();
  const agent = isAgent(user);

  const [f, setF] = useState<Fields>(blank);
  const [numbers, setNumbers] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [picking, setPicking] = useState(false);
  /** the parsed number file: while set, the send goes to its numbers (importFilePath) */
  const [imported, setImported] = useState<FileParse | null>(null);
  const [parsing, setParsing] = useState(false);
  /** remounts the upload (its queue item) after a reset */
  const [uploadKey, setUploadKey] = useState(0);
  const [carriers, setCarriers] = useState<CarrierCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const [charge, setCharge] = useState<ChargeInfo | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [sending, setSending] = useState(false);
  const lastSubmit = useRef(0);
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => clearTimeout(t)), []);

  const set = useCallback(<K extends keyof Fields>(k: K, v: Fields[K]) => {
    setF((x) => ({ ...x, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  }, []);

  // a sub-account sends as itself
  const clientId = agent ? f.clientId : (user?.clientid ?? undefined);

  const { result: typesResult, query: typesQuery } = useCustom<SmsTypeOption[]>({
    url: '/send/getsmstypes',
    method: 'post',
    config: { payload: { clientid: clientId } },
    queryOptions: { enabled: !!clientId, staleTime: 60_000 },
  });
  const smsTypes: SmsTypeOption[] = clientId && Array.isArray(typesResult?.data) ? (typesResult.data as SmsTypeOption[]) : [];
  const typeOptions = smsTypes.length
    ? smsTypes.map((t) => ({ value: Number(t.value), label: t.label }))
    : enumOptions<number>('sms-type').map((o) => ({ value: o.value, label: o.label }));

  // re-edit of a timed task (?id=): POST /send/edit
  useEffect(() => {
    if (!editId) return;
    let live = true;
    loadTask(editId)
      .then(({ data: t }) => {
        if (!live || !t) return;
        // the task's time is Shanghai's, shown as it is whatever the browser's zone
        const at = t.sendtime ? businessTime(t.sendtime) : null;
        setF({
          clientId: t.clientId,
          smstype: t.smstype === undefined ? undefined : (Number(t.smstype) as SmsType),
          templateId: t.templateId,
          templateType: t.templateType,
          templateContent: t.templateType === TemplateType.Fixed ? t.content : undefined,
          sign: t.sign ?? '',
          content: t.content ?? '',
          sendType: SendTimeType.Scheduled,
          sendtime: at && !sendTimeProblem(at) ? at : defaultSendTime(),
          taskId: t.taskId ?? editId,
        });
        setNumbers(normalizeNumbers(t.mobile ?? ''));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [editId]);

  const pieces = useMemo(() => countPieces({ content: f.content, sign: f.sign.trim() }), [f.content, f.sign]);
  const templateChanged = f.templateType === TemplateType.Fixed && f.templateContent !== undefined && f.content !== f.templateContent;
  // counting 60,000 numbers takes a few ms: typing stays responsive, the counts follow
  const shownText = useDeferredValue(numbers);
  const check = useMemo(() => checkNumbers(shownText), [shownText]);
  /** the counts of the box as it is now (the shown ones may lag a keystroke behind) */
  const current = () => (shownText === numbers ? check : checkNumbers(numbers));
  const tooMany = check.total > MAX_NUMBERS;

  const onClient = (v?: string) => {
    setF((x) => ({ ...x, clientId: v, smstype: undefined, templateId: undefined, templateType: undefined, templateContent: undefined }));
    setErrors((e) => ({ ...e, clientId: undefined }));
  };

  const openPicker = () => {
    if (agent && !f.clientId) {
      setErrors((e) => ({ ...e, clientId: MESSAGES.pickSubAccount }));
      message.error(MESSAGES.pickSubAccount);
      return;
    }
    setPicking(true);
  };

  const pickTemplate = (t: SmsTemplate) => {
    setPicking(false);
    setF((x) => ({
      ...x,
      templateId: t.templateId,
      templateType: t.templateType,
      templateContent: t.content,
      content: t.content,
      sign: t.sign || x.sign,
      smstype: t.smstype !== undefined && t.smstype !== null ? (Number(t.smstype) as SmsType) : x.smstype,
    }));
    setErrors((e) => ({ ...e, templateId: undefined, content: undefined, sign: undefined }));
  };

  const onNumbers = (raw: string) => {
    setNumbers(normalizeNumbers(raw));
    setCarriers(null);
    setErrors((e) => ({ ...e, mobile: undefined }));
  };

  const confirm = () => {
    setNumbers(confirmText(numbers));
    setCarriers(null);
  };

  const clearNumbers = () =>
    modal.confirm({
      title: '提示',
      content: SEND_MESSAGES.clearConfirm,
      okText: '确定',
      cancelText: '取消',
      onOk: () => {
        setNumbers('');
        setImported(null);
        setCarriers(null);
      },
    });

  const importFile = async (file: UploadedFile) => {
    setParsing(true);
    try {
      const body = await parseFile(file.importFilePath);
      setImported(body.data ?? null);
      setCarriers(null);
    } catch {
      /* toasted: 文件解析失败, 文件解析超时, ... */
    } finally {
      setParsing(false);
    }
  };

  const carrierCheck = async () => {
    if (imported) {
      setCarriers({ mobileNum: imported.mobileNum, unicomNum: imported.unicomNum, telecomNum: imported.telecomNum } as CarrierCheck);
      return;
    }
    const now = current();
    const err = poolProblem(now);
    if (err) {
      message.error(err);
      return;
    }
    setChecking(true);
    try {
      const body = await checkCarriers(now.unique.join(','));
      setCarriers(body.data ?? null);
    } catch {
      /* toasted */
    } finally {
      setChecking(false);
    }
  };

  const payload = (): SendPayload => ({
    clientId: clientId ?? '',
    content: f.content,
    sign: f.sign.trim(),
    smstype: f.smstype as SmsType,
    mobile: imported ? undefined : current().unique.join(','),
    ...(imported ? { importFilePath: imported.importFilePath } : {}),
    templateId: f.templateId,
    templateType: f.templateType,
    fileType: imported ? NumberInputMode.File : NumberInputMode.Manual,
    fileName: imported?.fileName,
  });

  /** 提交: lock, the form's rules, the time rule, then the charge confirmation. */
  const submit = async () => {
    const now = Date.now();
    if (now - lastSubmit.current < SUBMIT_LOCK_MS) {
      message.warning(SEND_MESSAGES.submitLock);
      return;
    }
    lastSubmit.current = now;
    const p = payload();
    const found: Errors = {};
    const res = validateForm(sendForm, { ...p, mobile: p.mobile || undefined, fileName: undefined, fileType: undefined });
    for (const e of res.errors) if (!(e.field in found)) found[e.field as keyof Errors] = e.message;
    // a send goes with an approved template (the server refuses one without: docs/api-send.md)
    if (f.templateId === undefined && !found.templateId) found.templateId = TEMPLATE_REQUIRED;
    const pool = imported ? null : poolProblem(current());
    if (pool) found.mobile = pool;
    if (f.sendType === SendTimeType.Scheduled) {
      const t = sendTimeProblem(f.sendtime);
      if (t) found.sendtime = t;
    }
    const firstField = (['clientId', 'smstype', 'templateId', 'sign', 'content', 'mobile', 'sendtime'] as const).find((k) => found[k]);
    if (firstField) {
      setErrors(found);
      message.error(found[firstField]!);
      return;
    }
    setErrors({});
    setPreparing(true);
    try {
      if (f.sendType === SendTimeType.Scheduled) await checkSubmitTime(f.sendtime.format(SEND_TIME_FORMAT));
      const body = await chargeInfo({ clientId: p.clientId, content: p.content, sign: p.sign, mobile: p.mobile ?? '', importFilePath: p.importFilePath, smstype: p.smstype });
      setCharge(body.data ?? { smsNum: pieces.pieces, chargeNum: pieces.pieces * (imported ? imported.sendNum : current().unique.length), chargeMode: ChargeMode.Pool });
    } catch {
      /* the client toasted the server's message */
    } finally {
      setPreparing(false);
    }
  };

  const reset = () => {
    setF((x) => ({ ...blank(), clientId: x.clientId }));
    setNumbers('');
    setImported(null);
    setUploadKey((k) => k + 1);
    setCarriers(null);
  };

  const timed = async (isCheckAvailableCredit: 0 | 1) => {
    const p = payload();
    const body = await sendTimed({ ...p, sendtime: f.sendtime.format(SEND_TIME_FORMAT), taskId: f.taskId, chargeNumTotal: charge?.chargeNum, isCheckAvailableCredit }).catch((e) => e.body);
    const code = Number(body?.code);
    if (code === 0) {
      setCharge(null);
      message.success(body.msg || SEND_MESSAGES.sent);
      reset();
      navigate(timingDeliverPath());
      return;
    }
    setCharge(null);
    if (code === 403 && isCheckAvailableCredit === 1) {
      modal.confirm({
        title: '提示',
        content: body.msg,
        okText: '确定',
        cancelText: '取消',
        onOk: () => timed(0),
      });
      return;
    }
    message.error(body?.msg || MESSAGES.badParam);
  };

  const send = async () => {
    setSending(true);
    try {
      if (f.sendType === SendTimeType.Scheduled) {
        await timed(1);
        return;
      }
      const body = await sendNow(payload());
      setCharge(null);
      message.success(body.msg || SEND_MESSAGES.sent);
      reset();
      timers.current.push(window.setTimeout(() => navigate(smsTaskPath()), OPEN_TASKS_AFTER_MS));
    } catch {
      setCharge(null);
    } finally {
      setSending(false);
    }
  };

  const item = (k: keyof Errors) => (errors[k] ? { validateStatus: 'error' as const, help: errors[k] } : {});

  return (
    <Card title={f.taskId ? '普通短信发送（重新编辑定时任务）' : '普通短信发送'}>
      <Form layout="horizontal" labelCol={{ flex: '110px' }} wrapperCol={{ flex: 'auto' }} style={{ maxWidth: 900 }} onFinish={submit}>
        {agent && (
          <Form.Item label="子账号" required {...item('clientId')}>
            <ClientSelect phoneInoutType={0} value={f.clientId} onChange={(v) => onClient(v || undefined)} placeholder={MESSAGES.pickSubAccount} />
          </Form.Item>
        )}
        <Form.Item label="短信类型" required {...item('smstype')}>
          <Select<number>
            value={f.smstype}
            onChange={(v) => set('smstype', v as SmsType)}
            options={typeOptions}
            placeholder="请选择短信类型"
            loading={typesQuery.isFetching && !!clientId}
            style={{ width: 220 }}
            data-testid="smstype-select"
          />
        </Form.Item>
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
        <Form.Item label="签名" required {...item('sign')}>
          <Input value={f.sign} onChange={(e) => set('sign', e.target.value)} maxLength={12} showCount placeholder="签名2-12个字符" style={{ width: 260 }} />
        </Form.Item>
        <Form.Item label="短信内容" required {...item('content')}>
          <Input.TextArea value={f.content} onChange={(e) => set('content', e.target.value)} rows={5} placeholder="请输入短信内容" />
        </Form.Item>
        <Form.Item colon={false} label=" " style={{ marginTop: -16 }}>
          <Space size="large" wrap>
            <Typography.Text type={pieces.tooLong ? 'danger' : 'secondary'} data-testid="content-counter">
              {pieces.chars} / {MAX_MESSAGE_CHARS}
            </Typography.Text>
            <Typography.Text type="secondary" data-testid="content-pieces">
              预计每个号码计费 {pieces.pieces} 条{pieces.chars > 0 && `（${pieces.isEnglish ? '英文短信：140字一条，超过按134字一条' : '中文短信：70字一条，超过按67字一条'}）`}
            </Typography.Text>
          </Space>
          {templateChanged && <Alert type="warning" showIcon message={SEND_MESSAGES.templateChanged} style={{ marginTop: 8 }} data-testid="template-changed" />}
        </Form.Item>

        <Form.Item label="手机号码" required {...item('mobile')}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <ChunkedUpload
              key={uploadKey}
              accept={NUMBER_FILE_ACCEPT}
              maxSize={NUMBER_FILE_MAX_BYTES}
              buttonText="导入号码"
              onDone={(file) => void importFile(file)}
              onRemove={() => {
                setImported(null);
                setCarriers(null);
              }}
            />
            <Space wrap>
              <Dropdown menu={{ items: NUMBER_TEMPLATES.map((t) => ({ key: t.key, label: t.label, onClick: () => openDownload(t.url) })) }}>
                <Button icon={<DownloadOutlined />}>下载模板</Button>
              </Dropdown>
              <Button icon={<FileSearchOutlined />} loading={checking} onClick={carrierCheck}>
                运营商检测
              </Button>
              <Button onClick={confirm} disabled={!numbers}>
                确认号码
              </Button>
              <Button danger onClick={clearNumbers} disabled={!numbers}>
                清空号码
              </Button>
            </Space>
            <Input.TextArea
              value={numbers}
              onChange={(e) => onNumbers(e.target.value)}
              disabled={!!imported}
              rows={8}
              placeholder="请输入手机号码，多个号码以逗号或换行分隔，最多60000个"
              data-testid="numbers-input"
            />
            {!imported && (
              <Space wrap data-testid="number-counts">
                <span>
                  号码总数：<b>{check.total}</b>
                </span>
                <span>
                  有效号码：<b>{check.valid}</b>
                </span>
                <span>
                  无效号码：<b style={{ color: check.invalid ? '#cf1322' : undefined }}>{check.invalid}</b>
                </span>
                <span>
                  重复号码：<b>{check.repeat}</b>
                </span>
              </Space>
            )}
            {tooMany && <Alert type="error" showIcon message={poolProblem(check)} data-testid="too-many" />}
            {parsing && <Alert type="info" showIcon message="号码识别中，数据量较大请稍候…" data-testid="import-parsing" />}
            {imported && (
              <Alert
                type="info"
                showIcon
                data-testid="import-result"
                message={`已导入 ${imported.fileName}：共 ${imported.submitTotal} 个号码，错误 ${imported.errNum} 个，重复 ${imported.repeatNum} 个，可发送 ${imported.sendNum} 个（移动 ${imported.mobileNum}，联通 ${imported.unicomNum}，电信 ${imported.telecomNum}）`}
                description="发送时使用文件中的号码；移除文件后可手动输入号码"
              />
            )}
            {carriers && (
              <Space wrap data-testid="carrier-counts">
                <Tag color="green">移动 {carriers.mobileNum}</Tag>
                <Tag color="red">联通 {carriers.unicomNum}</Tag>
                <Tag color="blue">电信 {carriers.telecomNum}</Tag>
              </Space>
            )}
          </Space>
        </Form.Item>

        <Form.Item label="发送时间" {...item('sendtime')}>
          <Space wrap>
            <Radio.Group
              value={f.sendType}
              onChange={(e) => set('sendType', e.target.value)}
              options={enumOptions<number>('send-time-type').map((o) => ({ value: o.value, label: o.label }))}
            />
            {f.sendType === SendTimeType.Scheduled && (
              <DatePicker
                showTime
                inputReadOnly
                allowClear={false}
                value={f.sendtime}
                format={SEND_TIME_FORMAT}
                disabledDate={(d) => sendDateDisabled(d)}
                onChange={(d) => d && set('sendtime', businessTime(d))}
                data-testid="sendtime"
              />
            )}
          </Space>
        </Form.Item>
        <Form.Item colon={false} label=" ">
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={preparing} data-testid="submit">
            提交
          </Button>
        </Form.Item>
      </Form>
      <TemplatePicker open={picking} clientId={clientId} onClose={() => setPicking(false)} onPick={pickTemplate} />
      <ChargeConfirmDialog
        info={charge}
        numbers={imported ? imported.sendNum : check.unique.length}
        sendtime={f.sendType === SendTimeType.Scheduled ? f.sendtime.format(SEND_TIME_FORMAT) : undefined}
        sending={sending}
        onOk={send}
        onCancel={() => setCharge(null)}
      />
    </Card>
  );
}

export default DeliverPage;
