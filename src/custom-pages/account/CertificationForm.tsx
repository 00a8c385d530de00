/**
 * The certification form: personal (1) or enterprise (2) certification, id type
 * (schemas/enums/id-type.json: 个人身份证 for personal; 三证合一, 四证合一, 组织机构证 for
 * enterprise), company (name for personal), id number, 1-5 images uploaded through
 * POST /file/upload (field photoFile) with previews, and two agreements that must be read and
 * accepted before 提交 is enabled. Fields, rules, messages and layout (`x-ui`, the upload widget
 * imageUpload): schemas/forms/certification.json, shown by SchemaForm.
 */
import { useState } from 'react';
import { App, Checkbox, Modal, Space, Typography } from 'antd';
import { type CertificationInfo, CertType } from '@/generated/schemas';
import { SchemaForm } from '@/components/SchemaForm';
import { UploadAwareSubmit } from '@/components/SchemaForm/FormButtons';
import certificationForm from '@/generated/forms/certification';
import { enumOptions, schemaUi } from '@/schema';
import { accountApi } from './api';

export const MAX_IMAGES = 5;
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const FORM = 'forms/certification';
const UI = schemaUi(FORM);
type IdTypeRule = { when: { cert_type: number }; 'ui:enumValues': number[] };
/** id types per certification type (the form's `x-ui`: id_type `ui:when`) */
export const ID_TYPES_FOR = Object.fromEntries(
  (UI.id_type['ui:when'] as IdTypeRule[]).map((r) => [r.when.cert_type, r['ui:enumValues']]),
) as Record<1 | 2, number[]>;

export const AGREEMENTS = [
  {
    key: 'service',
    title: '《短信服务平台服务协议》',
    text: '用户应遵守国家有关法律法规，不得利用本平台发送违法、违规、欺诈及未经用户同意的营销短信。平台有权对短信内容进行审核，对违规内容予以拦截并停止服务。用户对其账户下发送的全部短信内容承担责任。',
  },
  {
    key: 'promise',
    title: '《资质认证信息真实性承诺书》',
    text: '本人/本单位承诺所提交的证件信息及图片真实、合法、有效，公司名称与营业执照一致；个人认证已上传本人手持身份证照片。如有虚假，愿承担由此产生的一切法律责任。',
  },
] as const;

export interface CertificationFormProps {
  /** add: first certification (/admin/cer/add); edit: re-certification (/admin/cer/edit) */
  mode: 'add' | 'edit';
  /** previous submission (re-certification): prefills the form */
  initial?: CertificationInfo;
  /** 1 personal / 2 enterprise (query `type`) */
  defaultType?: 1 | 2;
  onSubmitted?: (oauthStatus: number) => void;
  /** an agent certifying one of its sub-accounts (POST /client/cer/edit?clientId=) instead of itself */
  clientId?: string;
}

interface Values {
  cert_type: 1 | 2;
  id_type?: number;
  company?: string;
  id_nbr?: string;
  imgUrl?: string;
}

export function CertificationForm({ mode, initial, defaultType, onSubmitted, clientId }: CertificationFormProps) {
  const { message } = App.useApp();
  const startType: 1 | 2 =
    initial?.cert_type === CertType.Personal || initial?.cert_type === CertType.Enterprise
      ? initial.cert_type
      : (defaultType ?? CertType.Personal);
  const startIdType =
    initial?.id_typeNum && ID_TYPES_FOR[startType].includes(initial.id_typeNum)
      ? initial.id_typeNum
      : ID_TYPES_FOR[startType][0];
  const [values, setValues] = useState<Values>({
    cert_type: startType,
    id_type: startIdType,
    company: initial?.company ?? '',
    id_nbr: initial?.id_nbr ?? '',
    imgUrl: initial?.img_url || undefined,
  });
  const [uploading, setUploading] = useState(false);
  const [accepted, setAccepted] = useState<Record<string, boolean>>({});
  const [reading, setReading] = useState<(typeof AGREEMENTS)[number] | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const allAccepted = AGREEMENTS.every((a) => accepted[a.key]);
  const [uiSchema] = useState(() => ({
    ...UI,
    // the id types' names: the id-type enum's titles
    id_type: {
      ...UI.id_type,
      'ui:enumNames': Object.fromEntries(enumOptions('id-type').map((o) => [String(o.value), o.label])),
    },
    // the stored images' previews come from the file service the certification names
    imgUrl: {
      ...UI.imgUrl,
      'ui:options': {
        ...UI.imgUrl['ui:options'],
        maxCount: MAX_IMAGES,
        maxBytes: MAX_IMAGE_BYTES,
        fileUrl: (p: string) => `${initial?.smsp_img_url ?? '/api/files/'}${p}`,
        onBusy: setUploading,
      },
    },
  }));

  const change = (v: Partial<Values>) => {
    const t = v.cert_type ?? values.cert_type;
    // the form's own data back as it is (a copy would reset what is typed meanwhile); another
    // certification type: its first id type
    setValues(t === values.cert_type ? (v as Values) : { ...v, cert_type: t, id_type: ID_TYPES_FOR[t][0] });
  };

  const submit = async (v: Values) => {
    setSubmitting(true);
    try {
      // the certification type only chooses the id types: it is not sent
      const data = { id_type: v.id_type, company: v.company ?? '', id_nbr: v.id_nbr ?? '', imgUrl: v.imgUrl ?? '' };
      const r = clientId
        ? await accountApi.editClientCertification(clientId, data)
        : mode === 'add'
          ? await accountApi.addCertification(data)
          : await accountApi.editCertification(data);
      message.success(r.msg ?? '提交成功');
      onSubmitted?.(r.data?.oauth_status ?? 2);
    } catch {
      // the server's message is already shown
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div style={{ maxWidth: 720 }} data-testid="certification-form">
      <SchemaForm<Values>
        schema={certificationForm}
        uiSchema={uiSchema}
        formData={values}
        onChange={change}
        onSubmit={(v) => void submit(v)}
        onError={(errors) => errors[0] && message.error(errors[0].message)}
      >
        <Space direction="vertical" style={{ marginBottom: 16 }}>
          {AGREEMENTS.map((a) => (
            <Checkbox
              key={a.key}
              checked={!!accepted[a.key]}
              onChange={(e) => (e.target.checked ? setReading(a) : setAccepted((s) => ({ ...s, [a.key]: false })))}
            >
              我已阅读并同意
              <Typography.Link
                onClick={(e) => {
                  e.preventDefault();
                  setReading(a);
                }}
              >
                {a.title}
              </Typography.Link>
            </Checkbox>
          ))}
        </Space>
        <div>
          <UploadAwareSubmit uploading={uploading} loading={submitting} disabled={!allAccepted}>
            {mode === 'add' ? '提交认证' : '重新提交认证'}
          </UploadAwareSubmit>
        </div>
      </SchemaForm>
      <Modal
        open={!!reading}
        title={reading?.title}
        okText="已阅读并同意"
        cancelText="关闭"
        onOk={() => {
          if (reading) setAccepted((s) => ({ ...s, [reading.key]: true }));
          setReading(null);
        }}
        onCancel={() => setReading(null)}
      >
        <Typography.Paragraph>{reading?.text}</Typography.Paragraph>
      </Modal>
    </div>
  );
}
