import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { AppProviders } from '@/providers/AppProviders';
import { CountdownButton } from '@/components/CountdownButton';
import { ApiError } from '@/providers/http';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const flush = () => act(async () => {});

describe('CountdownButton', () => {
  it('counts down after a successful send, then offers to resend', async () => {
    vi.useFakeTimers();
    const onSend = vi.fn().mockResolvedValue(undefined);
    render(
      <AppProviders>
        <CountdownButton onSend={onSend} seconds={3} resendText="点击重新发送" />
      </AppProviders>,
    );
    act(() => screen.getByRole('button').click());
    await flush();
    expect(screen.getByRole('button')).toHaveTextContent('3秒后重新发送');
    expect(screen.getByRole('button')).toBeDisabled();
    for (let i = 0; i < 3; i++) await act(async () => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('button')).toHaveTextContent('点击重新发送');
    expect(screen.getByRole('button')).toBeEnabled();
  });

  it('re-enables at once on error and shows the message', async () => {
    const onSend = vi.fn().mockRejectedValue(new ApiError({ code: 500, msg: '验证码发送过于频繁，请60秒后再试' }));
    render(
      <AppProviders>
        <CountdownButton onSend={onSend} />
      </AppProviders>,
    );
    act(() => screen.getByRole('button').click());
    expect(await screen.findByText('验证码发送过于频繁，请60秒后再试')).toBeInTheDocument();
    expect(screen.getByRole('button')).toBeEnabled();
    expect(screen.getByRole('button')).toHaveTextContent('获取验证码');
  });

  it('does not count down when the send resolves false (nothing sent)', async () => {
    render(
      <AppProviders>
        <CountdownButton onSend={async () => false} />
      </AppProviders>,
    );
    act(() => screen.getByRole('button').click());
    await flush();
    expect(screen.getByRole('button')).toHaveTextContent('获取验证码');
    expect(screen.getByRole('button')).toBeEnabled();
  });
});
