/**
 * The slider captcha as a form field. ui:options: `onVerified({server, token})`, `resetKey`.
 * The result goes to `onVerified` (the page adds server and token to the payload); the field's
 * own value is the token, so a required rule on it would read "not verified yet".
 */
import type { WidgetProps } from '@rjsf/utils';
import { SliderCaptcha, type SliderResult } from '../../SliderCaptcha';

export function SliderWidget({ id, onChange, disabled, options }: WidgetProps) {
  const { onVerified, resetKey } = options as { onVerified?: (r: SliderResult) => void; resetKey?: unknown };
  return (
    <SliderCaptcha
      id={id}
      disabled={disabled}
      resetKey={resetKey}
      onVerified={(r) => (onVerified ? onVerified(r) : onChange(r.token))}
    />
  );
}
