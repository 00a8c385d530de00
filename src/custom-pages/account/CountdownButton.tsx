/**
 * A send-code button: disabled while sending and for `seconds` after a successful send, counting
 * down (`60秒后重新发送`), then `点击重新发送`. Re-enabled at once when `onSend` fails.
 * (Minimal stand-in until src/components/CountdownButton lands on main.)
 */
import { useEffect, useRef, useState } from 'react';
import { Button, type ButtonProps } from 'antd';

export interface CountdownButtonProps extends Omit<ButtonProps, 'onClick' | 'loading'> {
  /** resolves when the code was sent; rejects (or resolves false) when it was not */
  onSend: () => Promise<unknown>;
  seconds?: number;
  label?: string;
  resendLabel?: string;
}

export function CountdownButton({ onSend, seconds = 60, label = '获取验证码', resendLabel = '点击重新发送', disabled, ...rest }: CountdownButtonProps) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  const [sentOnce, setSentOnce] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);

  const click = async () => {
    setSending(true);
    let ok = false;
    try {
      ok = (await onSend()) !== false;
    } catch {
      ok = false;
    }
    setSending(false);
    if (!ok) return;
    setSentOnce(true);
    setLeft(seconds);
    clearInterval(timer.current);
    timer.current = setInterval(() => {
      setLeft((n) => {
        if (n <= 1) clearInterval(timer.current);
        return n - 1;
      });
    }, 1000);
  };

  return (
    <Button {...rest} data-testid="countdown-button" disabled={disabled || left > 0} loading={sending} onClick={click}>
      {left > 0 ? `${left}秒后重新发送` : sentOnce ? resendLabel : label}
    </Button>
  );
}
