import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { http } from 'msw';
import { AppProviders } from '@/providers/AppProviders';
import { ok } from '@/components/PublicLayout/mocks';
import { SliderCaptcha } from '@/components/SliderCaptcha';
import { isHumanTrack } from '../../../server/modules/captcha/track';

const TRACK = 340;
const bodies: { server: string; width: number; track: [number, number][] }[] = [];
const server = setupServer(
  http.get('*/api/captcha/slider', () => ok({ server: 's1' })),
  http.post('*/api/captcha/slider/verify', async ({ request }) => {
    bodies.push((await request.json()) as any);
    return ok({ token: 't1' });
  }),
);

beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' });
  // jsdom has no layout: give the track its width
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(TRACK);
});
afterEach(cleanup);
afterAll(() => {
  server.close();
  vi.restoreAllMocks();
});

describe('SliderCaptcha by keyboard', () => {
  it('glides to the end, posting a track a person could have made, and reports the pass', async () => {
    const onVerified = vi.fn();
    render(
      <AppProviders>
        <SliderCaptcha onVerified={onVerified} />
      </AppProviders>,
    );
    act(() => screen.getByRole('slider').focus());
    await userEvent.keyboard('{End}');
    expect(await screen.findByText('验证通过')).toBeInTheDocument();
    expect(onVerified).toHaveBeenCalledWith({ server: 's1', token: 't1' });

    const { width, track } = bodies[0];
    expect(width).toBe(TRACK - 40);
    // the server's rules (docs/api-auth.md): >= 10 points, 400 ms .. 120 s, starts near 0,
    // ends at the width, no step over half the width, time never runs backwards
    expect(track.length).toBeGreaterThanOrEqual(10);
    expect(track.at(-1)![1] - track[0][1]).toBeGreaterThanOrEqual(400);
    // and the server's own check, machine-perfect tracks refused, lets this keyboard glide pass
    expect(isHumanTrack(width, track)).toBe(true);
    expect(track[0][0]).toBeLessThanOrEqual(width * 0.1);
    expect(Math.abs(track.at(-1)![0] - width)).toBeLessThanOrEqual(Math.max(3, width * 0.03));
    for (let i = 1; i < track.length; i++) {
      expect(Math.abs(track[i][0] - track[i - 1][0])).toBeLessThanOrEqual(width / 2);
      expect(track[i][1]).toBeGreaterThanOrEqual(track[i - 1][1]);
    }
  });
});
