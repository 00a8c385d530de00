/** The slider's drag-track check: pure code (the console's unit tests run it too). */

/** One sample of the drag: [x px, ms since the start] or [x, ms, y px] (pointer drags carry y). */
export type TrackPoint = [number, number] | [number, number, number];

/** Rules a drag track must satisfy (documented in docs/api-auth.md). */
export const TRACK_RULES = {
  /** a person's drag gives a pointer event every frame: a 300 px drag has dozens */
  minPoints: 10,
  /** faster than this is a script */
  minDurationMs: 400,
  maxDurationMs: 120_000,
  /** the last point must be within this many px (or 3 % of the width, whichever is larger) of the end */
  endTolerancePx: 3,
  /** the first point must lie in the first 10 % of the width */
  startFraction: 0.1,
  /** at most this share of the steps may go backwards */
  maxBackwardShare: 0.2,
  /** no single step may cover more than this share of the width */
  maxStepShare: 0.5,
  /** constant speed: the spread of the step speeds (standard deviation / mean) must be at least this */
  minSpeedVariation: 0.2,
  /** a straight line x(t): somewhere the drag must be this share of the width off the line from start to end */
  minLineDeviation: 0.02,
  /** pointer tracks (with y) must move vertically by at least this many px somewhere */
  minVerticalJitterPx: 1,
};

/**
 * Does this drag look like a person pulling the handle to the right end? Besides the shape (starts
 * at the left, ends at the right, time only goes forward, no jumps, little going back) it refuses
 * the tracks a script makes without trying: too few points, too fast, constant speed, x growing
 * in a straight line with time, and (when the track has y) a hand that never moved vertically.
 * Keyboard users' glides carry no y and are eased, so they pass. This is a speed bump for scripts,
 * not a wall: the lockout policy (auth/service.ts) does not rely on it.
 */
export function isHumanTrack(width: number, track: TrackPoint[]): boolean {
  const r = TRACK_RULES;
  if (!(width > 0) || track.length < r.minPoints) return false;
  if (!track.every((p) => p.every((v) => Number.isFinite(v)))) return false;
  const first = track[0];
  const last = track[track.length - 1];
  const duration = last[1] - first[1];
  if (duration < r.minDurationMs || duration > r.maxDurationMs) return false;
  if (first[0] < -r.endTolerancePx || first[0] > width * r.startFraction) return false;
  const tolerance = Math.max(r.endTolerancePx, width * 0.03);
  if (last[0] < width - tolerance || last[0] > width + tolerance) return false;
  let backward = 0;
  const speeds: number[] = [];
  for (let i = 1; i < track.length; i++) {
    const dx = track[i][0] - track[i - 1][0];
    const dt = track[i][1] - track[i - 1][1];
    if (dt < 0) return false; // time never runs backwards
    if (dx < 0) backward++;
    if (Math.abs(dx) > width * r.maxStepShare) return false;
    if (dt > 0) speeds.push(dx / dt);
  }
  if (backward > (track.length - 1) * r.maxBackwardShare) return false;
  // constant speed
  if (speeds.length < 2) return false;
  const mean = speeds.reduce((a, b) => a + b, 0) / speeds.length;
  const sd = Math.sqrt(speeds.reduce((a, v) => a + (v - mean) ** 2, 0) / speeds.length);
  if (!(Math.abs(mean) > 0) || sd / Math.abs(mean) < r.minSpeedVariation) return false;
  // perfectly linear in time
  let deviation = 0;
  for (const [x, t] of track) {
    const onLine = first[0] + ((last[0] - first[0]) * (t - first[1])) / duration;
    deviation = Math.max(deviation, Math.abs(x - onLine));
  }
  if (deviation < width * r.minLineDeviation) return false;
  // no vertical jitter (tracks with y: every point must carry it)
  const withY = track.filter((p) => p.length === 3).length;
  if (withY > 0) {
    if (withY !== track.length) return false;
    const ys = track.map((p) => p[2]!);
    if (Math.max(...ys) - Math.min(...ys) < r.minVerticalJitterPx) return false;
  }
  return true;
}
