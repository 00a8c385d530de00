/**
 * The certification form: personal (1) or enterprise (2) certification, id type
 * (schemas/enums/id-type.json: 个人身份证 for personal; 三证合一, 四证合一, 组织机构证 for
 * enterprise), company (name for personal), id number, 1-5 images uploaded through
 * POST /file/upload (field photoFile) with previews, and two agreements that must be read and
 * accepted before 提交 is enabled. Rules: schemas/forms/certification.json.
 */
import { useMemo, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, Form, Input, Modal, Radio, Select, Space, Typography, Upload, type UploadFile, type UploadProps } from 'antd';

type UploadRequestOption = Parameters<NonNullable<UploadProps['customRequest']>>[0];
import { type CertificationInfo, CertType, IdType } from '@/generated/schemas';
import { validateForm } from '@/components/SchemaForm/validation';
import certificationForm from '@/generated/forms/certification';
import { enumOptions, fieldLabel } from '@/schema';
import { ApiError } from '@/providers/http';
import { accountApi } from './api';
import { MESSAGES } from '../../../common/schema/messages';

export const MAX_IMAGES = 5;
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const IMAGE_EXT = /\.(gif|jpe?g|png)$/i;
const IMAGE_MIME = ['image/gif', 'image/jpeg', 'image/png'];
/** id types per certification type */
export const ID_TYPES_FOR: Record<1 | 2, number[]> = {
  [CertType.Personal]: [IdType.IdCard],
  [CertType.Enterprise]: [IdType.ThreeInOne, IdType.FourInOne, IdType.OrganizationCode],
};

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
}

const FIELDS = ['id_type', 'company', 'id_nbr', 'imgUrl'];
const FORM = 'forms/certification';
const label = (field: string, certType?: number) => fieldLabel(FORM, field, { cert_type: certType });

function initialFiles(info?: CertificationInfo): UploadFile[] {
  if (!info?.img_url) return [];
  return info.img_url
    .split('|')
    .filter(Boolean)
    .map((p, i) => ({ uid: `prev-${i}`, name: p.split('/').pop() ?? p, status: 'done' as const, url: `${info.smsp_img_url ?? '/api/files/'}${p}`, response: { path: p } }));
}

export function CertificationForm({ mode, initial, defaultType, onSubmitted }: CertificationFormProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const startType: 1 | 2 = initial?.cert_type === CertType.Personal || initial?.cert_type === CertType.Enterprise ? initial.cert_type : (defaultType ?? CertType.Personal);
  const [certType, setCertType] = useState<1 | 2>(startType);
  const [files, setFiles] = useState<UploadFile[]>(() => initialFiles(initial));
  const [accepted, setAccepted] = useState<Record<string, boolean>>({});
  const [reading, setReading] = useState<(typeof AGREEMENTS)[number] | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const idTypeOptions = useMemo(() => enumOptions('id-type').filter((o) => ID_TYPES_FOR[certType].includes(Number(o.value))), [certType]);
  const allAccepted = AGREEMENTS.every((a) => accepted[a.key]);

  const startIdType = initial?.id_typeNum && ID_TYPES_FOR[startType].includes(initial.id_typeNum) ? initial.id_typeNum : ID_TYPES_FOR[startType][0];

  const beforeUpload = (file: File) => {
    if (!IMAGE_EXT.test(file.name) && !IMAGE_MIME.includes(file.type)) {
      message.error(MESSAGES.imageBadType);
      return Upload.LIST_IGNORE;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      message.error(MESSAGES.imageTooLarge);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest = async ({ file, onSuccess, onError }: UploadRequestOption) => {
    const f = file as File;
    try {
      const body = await accountApi.uploadImage(f, f.name);
      onSuccess?.(body.data);
    } catch (e) {
      const msg = e instanceof ApiError ? e.message : MESSAGES.imageUploadFailed;
      message.error(msg.startsWith(MESSAGES.imageUploadFailed) ? msg : `${MESSAGES.imageUploadFailed}：${msg}`);
      onError?.(new Error(msg));
    }
  };

  const submit = async () => {
    if (files.some((f) => f.status === 'uploading')) return void message.warning('图片正在上传，请稍候');
    const paths = files.filter((f) => f.status === 'done').map((f) => (f.response as { path: string }).path);
    const v = form.getFieldsValue(['id_type', 'company', 'id_nbr']) as Record<string, unknown>;
    const values = { id_type: v.id_type, company: v.company ?? '', id_nbr: v.id_nbr ?? '', imgUrl: paths.join('|') };
    const { data, errors } = validateForm(certificationForm, values);
    form.setFields(FIELDS.map((name) => ({ name, errors: errors.filter((e) => e.field === name).map((e) => e.message) })));
    if (errors.length) return void message.error(errors[0].message);
    setSubmitting(true);
    try {
      const r = mode === 'add' ? await accountApi.addCertification(data) : await accountApi.editCertification(data);
      message.success(r.msg ?? '提交成功');
      onSubmitted?.(r.data?.oauth_status ?? 2);
    } catch {
      // the server's message is already shown
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form
      form={form}
      labelCol={{ flex: '120px' }}
      style={{ maxWidth: 720 }}
      initialValues={{ id_type: startIdType, company: initial?.company ?? '', id_nbr: initial?.id_nbr ?? '' }}
      data-testid="certification-form"
    >
      <Form.Item label={fieldLabel('entities/certification-info', 'cert_type')}>
        <Radio.Group
          value={certType}
          onChange={(e) => {
            const t = e.target.value as 1 | 2;
            setCertType(t);
            form.setFieldsValue({ id_type: ID_TYPES_FOR[t][0] });
          }}
          options={enumOptions('cert-type').map((o) => ({ value: Number(o.value), label: o.label }))}
        />
      </Form.Item>
      <Form.Item label={label('id_type')} name="id_type" required>
        <Select style={{ width: 240 }} aria-label={label('id_type')} options={idTypeOptions.map((o) => ({ value: Number(o.value), label: o.label }))} />
      </Form.Item>
      <Form.Item
        label={label('company', certType)}
        name="company"
        required
        extra={certType === CertType.Enterprise ? '公司名称须与营业执照上的名称一致' : undefined}
      >
        <Input placeholder={certType === CertType.Personal ? '请输入证件上的姓名' : '请输入公司名称'} maxLength={80} />
      </Form.Item>
      <Form.Item label={label('id_nbr')} name="id_nbr" required>
        <Input placeholder="请输入证件号码" maxLength={40} />
      </Form.Item>
      <Form.Item
        label={label('imgUrl')}
        name="imgUrl"
        required
        extra={
          <>
            支持 JPG、PNG（及 GIF）格式，每张不超过2M，至少一张，最多五张。
            {certType === CertType.Personal ? '个人认证须上传本人手持身份证照片。' : '请上传清晰的营业执照等证件照片。'}
          </>
        }
      >
        <Upload
          listType="picture-card"
          name="photoFile"
          accept=".gif,.jpg,.jpeg,.png,image/gif,image/jpeg,image/png"
          multiple
          fileList={files}
          maxCount={MAX_IMAGES}
          beforeUpload={(f, list) => {
            if (files.length + list.indexOf(f) >= MAX_IMAGES) {
              message.error('最多五张图片');
              return Upload.LIST_IGNORE;
            }
            return beforeUpload(f);
          }}
          customRequest={customRequest}
          onChange={({ fileList }) => setFiles(fileList.filter((f) => f.status !== 'error'))}
          onPreview={(f) => setPreview(f.url ?? f.thumbUrl ?? ((f.response as { url?: string })?.url ?? null))}
        >
          {files.length >= MAX_IMAGES ? null : (
            <button type="button" style={{ border: 0, background: 'none' }} aria-label="上传图片">
              <PlusOutlined />
              <div style={{ marginTop: 8 }}>上传图片</div>
            </button>
          )}
        </Upload>
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Space direction="vertical">
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
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" loading={submitting} disabled={!allAccepted} onClick={submit}>
          {mode === 'add' ? '提交认证' : '重新提交认证'}
        </Button>
      </Form.Item>
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
      <Modal open={!!preview} footer={null} title="图片预览" onCancel={() => setPreview(null)}>
        {preview && <img alt="预览" style={{ width: '100%' }} src={preview} onError={() => message.error('图片预览失败')} />}
      </Modal>
    </Form>
  );
}
