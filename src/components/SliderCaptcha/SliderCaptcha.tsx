/**
 * Slider captcha: drag the handle to the right end of the track. The first touch (pointer down
 * or keyboard focus) arms it by fetching a challenge (GET /captcha/slider); releasing at the end
 * posts the recorded track (POST /captcha/slider/verify) and, once the server answers a token,
 * shows 验证通过 and reports {server, token}. Anything else snaps the handle back.
 *
 * Works with mouse, touch and pen (pointer events) and with the keyboard: the handle is a
 * focusable `role="slider"`; arrow keys glide it a tenth of the way, End glides it to the end.
 * A keyboard move is animated frame by frame and each frame is recorded, so a keyboard user's
 * track is an actual movement of the handle like a drag's (the server refuses jumps of more
 * than half the width, tracks under 400 ms or of fewer than 10 points, constant speed and
 * straight lines). A pointer drag also records the vertical position ([x, ms, y]): a hand
 * always wobbles a little, a script's straight line does not; keyboard glides carry no y.
 */
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type Ref,
} from 'react';
import { CheckCircleFilled, DoubleRightOutlined, LoadingOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { ApiError, get, postJson } from '../../providers/http';
import { MESSAGES } from '../../../common/schema/messages';

export const SLIDER_PROMPT = MESSAGES.sliderPrompt;
export const SLIDER_PASSED = MESSAGES.sliderPassed;

export interface SliderResult {
  server: string;
  token: string;
}

export interface SliderCaptchaHandle {
  /** back to the start; the next touch fetches a new challenge */
  reset(): void;
}

export interface SliderCaptchaProps {
  onVerified?: (result: SliderResult) => void;
  /** called when a finished drag is refused (message from the server) */
  onFailed?: (message: string) => void;
  /** changing it resets the slider (e.g. after a failed login) */
  resetKey?: unknown;
  ref?: Ref<SliderCaptchaHandle>;
  id?: string;
  disabled?: boolean;
}

type Phase = 'idle' | 'dragging' | 'verifying' | 'passed';

const HANDLE = 40;
const HEIGHT = 40;
/** keyboard glides: a tenth of the way, and all the way to the end */
const STEP_MS = 120;
const END_MS = 500;

export function SliderCaptcha({ onVerified, onFailed, resetKey, ref, id, disabled }: SliderCaptchaProps) {
  const { token: t } = theme.useToken();
  const trackRef = useRef<HTMLDivElement>(null);
  const challenge = useRef<Promise<string> | null>(null);
  const drag = useRef<{
    startX: number;
    startY?: number;
    t0: number;
    points: ([number, number] | [number, number, number])[];
  } | null>(null);
  const gliding = useRef(false);
  const xRef = useRef(0);
  const [x, setXState] = useState(0);
  const setX = (nx: number) => {
    xRef.current = nx;
    setXState(nx);
  };
  const [phase, setPhase] = useState<Phase>('idle');
  const [animate, setAnimate] = useState(false);
  const [error, setError] = useState('');

  // the track's width, measured before the first paint and again whenever it is resized
  const [trackWidth, setTrackWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const track = trackRef.current;
    if (!track) return;
    setTrackWidth(track.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setTrackWidth(track.clientWidth));
    observer.observe(track);
    return () => observer.disconnect();
  }, []);
  /** how far the handle travels: from 0 to the end of the track */
  const maxX = Math.max(1, (trackWidth ?? 300) - HANDLE);

  /** Fetches a challenge once per attempt ("a first click arms it"). */
  const arm = useCallback(() => {
    if (!challenge.current) {
      challenge.current = get<{ server: string }>('/captcha/slider', undefined, { silent: true }).then(
        (b) => b.data!.server,
      );
      challenge.current.catch(() => (challenge.current = null));
    }
    return challenge.current;
  }, []);

  const reset = useCallback(() => {
    challenge.current = null;
    drag.current = null;
    setAnimate(true);
    setX(0);
    setPhase('idle');
  }, []);

  useImperativeHandle(ref, () => ({ reset }), [reset]);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else reset();
  }, [resetKey, reset]);

  /** records a sample; `clientY` for pointer drags (then every sample of the drag has a y) */
  const record = (nx: number, clientY?: number) => {
    const d = drag.current;
    if (!d) return;
    const ms = Math.round(performance.now() - d.t0);
    if (d.startY !== undefined) d.points.push([Math.round(nx), ms, Math.round((clientY ?? d.startY) - d.startY)]);
    else d.points.push([Math.round(nx), ms]);
    setX(nx);
  };

  const begin = (clientX: number, clientY?: number) => {
    setError('');
    setAnimate(false);
    drag.current = {
      startX: clientX,
      startY: clientY,
      t0: performance.now(),
      points: [clientY === undefined ? [0, 0] : [0, 0, 0]],
    };
    setPhase('dragging');
    void arm().catch(() => undefined);
  };

  const finish = async (endX: number) => {
    const d = drag.current;
    drag.current = null;
    const width = maxX;
    if (!d || endX < width - 2) {
      setAnimate(true);
      setX(0);
      setPhase('idle');
      return;
    }
    setPhase('verifying');
    try {
      const server = await arm();
      const body = await postJson<{ token: string }>(
        '/captcha/slider/verify',
        { server, width: Math.round(width), track: d.points },
        { silent: true },
      );
      setX(width);
      setPhase('passed');
      onVerified?.({ server, token: body.data!.token });
    } catch (e) {
      const msg = e instanceof ApiError ? e.message : SLIDER_PROMPT;
      setError(msg);
      onFailed?.(msg);
      reset();
    }
  };

  const locked = disabled || phase === 'passed' || phase === 'verifying';

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (locked || e.button > 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    e.currentTarget.focus();
    begin(e.clientX, e.clientY);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || phase !== 'dragging') return;
    record(Math.min(maxX, Math.max(0, e.clientX - d.startX)), e.clientY);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    e.currentTarget.releasePointerCapture?.(e.pointerId);
    void finish(Math.min(maxX, Math.max(0, e.clientX - drag.current.startX)));
  };

  /** Moves the handle from where it is to `to` over `ms`, recording every frame. */
  const glide = (to: number, ms: number) =>
    new Promise<void>((resolve) => {
      const from = xRef.current;
      const t0 = performance.now();
      const frame = () => {
        const p = Math.min(1, (performance.now() - t0) / ms);
        record(from + (to - from) * (1 - (1 - p) ** 2));
        if (p < 1) requestAnimationFrame(frame);
        else resolve();
      };
      requestAnimationFrame(frame);
    });

  /** Where a key sends the handle, and how long the glide takes; undefined for other keys. */
  const keyTarget = (key: string, width: number): [number, number] | undefined => {
    const step = width / 10;
    const from = xRef.current;
    const targets: Record<string, [number, number]> = {
      ArrowRight: [from + step, STEP_MS],
      ArrowUp: [from + step, STEP_MS],
      ArrowLeft: [from - step, STEP_MS],
      ArrowDown: [from - step, STEP_MS],
      End: [width, END_MS],
      Home: [0, END_MS],
    };
    return targets[key];
  };

  /** keys pressed while the handle glides run after it, in order */
  const queued = useRef<string[]>([]);

  const onKeyDown = async (e: KeyboardEvent<HTMLDivElement>) => {
    if (!keyTarget(e.key, 1)) return;
    e.preventDefault();
    if (locked) return;
    queued.current.push(e.key);
    if (gliding.current) return;
    gliding.current = true;
    if (!drag.current) begin(0);
    const width = maxX;
    let key: string | undefined;
    while ((key = queued.current.shift())) {
      const [target, ms] = keyTarget(key, width)!;
      const to = Math.min(width, Math.max(0, target));
      await glide(to, ms);
      if (to >= width) {
        queued.current = [];
        gliding.current = false;
        void finish(to);
        return;
      }
    }
    gliding.current = false;
  };

  const passed = phase === 'passed';
  const percent = Math.round((x / maxX) * 100);

  return (
    <div>
      <div
        ref={trackRef}
        data-testid="slider-captcha"
        style={{
          position: 'relative',
          height: HEIGHT,
          lineHeight: `${HEIGHT - 2}px`,
          borderRadius: t.borderRadius,
          border: `1px solid ${passed ? t.colorSuccessBorder : error ? t.colorErrorBorder : t.colorBorder}`,
          background: passed ? t.colorSuccessBg : t.colorFillQuaternary,
          textAlign: 'center',
          userSelect: 'none',
          overflow: 'hidden',
          touchAction: 'none',
        }}
      >
        <div
          aria-hidden
          style={{
            position: 'absolute',
            inset: '0 auto 0 0',
            width: x + HANDLE / 2,
            background: passed ? t.colorSuccessBg : t.colorPrimaryBg,
            transition: animate ? 'width .25s' : undefined,
          }}
        />
        <span
          aria-live="polite"
          style={{ position: 'relative', color: passed ? t.colorSuccess : t.colorTextSecondary, fontSize: t.fontSize }}
        >
          {passed ? SLIDER_PASSED : phase === 'verifying' ? '验证中…' : SLIDER_PROMPT}
        </span>
        <div
          id={id}
          role="slider"
          tabIndex={disabled ? -1 : 0}
          aria-label="滑块验证"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={passed ? SLIDER_PASSED : SLIDER_PROMPT}
          aria-disabled={locked || undefined}
          onFocus={() => !locked && void arm().catch(() => undefined)}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
          style={{
            position: 'absolute',
            top: 0,
            left: x,
            width: HANDLE,
            height: HEIGHT - 2,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            background: t.colorBgContainer,
            boxShadow: t.boxShadowTertiary,
            borderRadius: t.borderRadius,
            cursor: locked ? 'default' : 'grab',
            color: passed ? t.colorSuccess : t.colorTextTertiary,
            transition: animate ? 'left .25s' : undefined,
            outlineOffset: -2,
          }}
        >
          {passed ? <CheckCircleFilled /> : phase === 'verifying' ? <LoadingOutlined /> : <DoubleRightOutlined />}
        </div>
      </div>
      {error && !passed && (
        <div role="alert" style={{ color: t.colorError, fontSize: t.fontSizeSM, marginTop: 4 }}>
          {error}
        </div>
      )}
    </div>
  );
}
