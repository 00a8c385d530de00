/**
 * A verification-code input with its send button. ui:options: `onSend` (required), `seconds`,
 * `sendText`, `resendText`, `onSendError` (see CountdownButton).
 */
import { Input, Space } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import type { ReactNode } from 'react';
import { CountdownButton, type CountdownButtonProps } from '../../CountdownButton';

export function CodeButtonWidget({
  id,
  value,
  onChange,
  onBlur,
  onFocus,
  disabled,
  readonly,
  placeholder,
  options,
}: WidgetProps) {
  const { onSend, seconds, sendText, resendText, onSendError } = options as {
    onSend: CountdownButtonProps['onSend'];
    seconds?: number;
    sendText?: ReactNode;
    resendText?: ReactNode;
    onSendError?: CountdownButtonProps['onError'];
  };
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        id={id}
        name={id}
        value={value ?? ''}
        placeholder={placeholder}
        disabled={disabled || readonly}
        autoComplete="one-time-code"
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        onBlur={(e) => onBlur(id, e.target.value)}
        onFocus={(e) => onFocus(id, e.target.value)}
      />
      <CountdownButton
        onSend={onSend}
        seconds={seconds}
        resendText={resendText}
        onError={onSendError}
        disabled={disabled}
      >
        {sendText}
      </CountdownButton>
    </Space.Compact>
  );
}
