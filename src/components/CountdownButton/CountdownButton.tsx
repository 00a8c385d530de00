/**
 * A "send code" button: runs `onSend`; once it succeeds the button is disabled and counts
 * down (60 s by default, "60秒后重新发送"), then offers to resend. It re-enables at once when
 * the send fails, showing the server's message.
 */
import { useState, type ReactNode } from 'react';
import { App, Button, type ButtonProps } from 'antd';
import { ApiError } from '../../providers/http';
import { useCountdown } from './useCountdown';

export interface CountdownButtonProps extends Omit<ButtonProps, 'onClick' | 'loading' | 'children'> {
  /** Sends the code. Resolve `false` when nothing was sent (e.g. the number is invalid); throw on failure. */
  onSend: () => Promise<unknown>;
  /** cooldown after a successful send, seconds */
  seconds?: number;
  children?: ReactNode;
  /** label once a countdown has ended */
  resendText?: ReactNode;
  /** label while counting down */
  countingText?: (secondsLeft: number) => ReactNode;
  /** how a failure is shown; by default the error's message as a toast */
  onError?: (error: unknown) => void;
}

export function CountdownButton({
  onSend,
  seconds = 60,
  children = '获取验证码',
  resendText = '重新发送',
  countingText = (s) => `${s}秒后重新发送`,
  onError,
  disabled,
  ...rest
}: CountdownButtonProps) {
  const { message } = App.useApp();
  const [sending, setSending] = useState(false);
  const [sentOnce, setSentOnce] = useState(false);
  const { left, start, running } = useCountdown();

  const click = async () => {
    if (sending || running) return;
    setSending(true);
    try {
      if ((await onSend()) === false) return;
      setSentOnce(true);
      start(seconds);
    } catch (e) {
      if (onError) onError(e);
      else message.error(e instanceof ApiError || e instanceof Error ? e.message : '发送失败');
    } finally {
      setSending(false);
    }
  };

  return (
    <Button {...rest} onClick={click} loading={sending} disabled={disabled || running} aria-live="polite">
      {running ? countingText(left) : sentOnce ? resendText : children}
    </Button>
  );
}
