/** Text input beside the image captcha (GET /api/captcha.jpg); clicking the image loads a new one. ui:options: `src`, `onRefresh`. */
import { Input, Space } from 'antd';
import type { WidgetProps } from '@rjsf/utils';

export function ImageCaptchaWidget({
  id,
  value,
  onChange,
  onBlur,
  onFocus,
  disabled,
  placeholder,
  options,
}: WidgetProps) {
  const { src, onRefresh } = options as { src: string; onRefresh: () => void };
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        id={id}
        name={id}
        value={value ?? ''}
        placeholder={placeholder}
        disabled={disabled}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        onBlur={(e) => onBlur(id, e.target.value)}
        onFocus={(e) => onFocus(id, e.target.value)}
      />
      <button
        type="button"
        onClick={onRefresh}
        title="看不清？换一张"
        aria-label="看不清？换一张"
        style={{
          padding: 0,
          border: '1px solid #d9d9d9',
          borderLeft: 0,
          borderRadius: '0 8px 8px 0',
          background: '#fff',
          cursor: 'pointer',
          height: 40,
        }}
      >
        <img
          src={src}
          alt="图形验证码"
          width={100}
          height={38}
          style={{ display: 'block', borderRadius: '0 8px 8px 0' }}
        />
      </button>
    </Space.Compact>
  );
}
