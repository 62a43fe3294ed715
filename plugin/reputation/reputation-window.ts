/**
 * The time window receipts are counted in: `<n>d` or `<n>h` ending at a given time (the shell
 * passes `--at`, the clock, or at publish the publication time), or an explicit
 * `<start>/<end>` pair of RFC 3339 date-times with their zones. Receipts issued outside it are
 * ignored (and counted as such). Pure: the end time comes from the caller.
 */
import { dateTimeStampMillis } from '../trust/data-integrity';

export const DEFAULT_REPUTATION_WINDOW = '30d';
const MAX_WINDOW_DAYS = 3660;

export interface ReputationWindow {
  /** Inclusive, RFC 3339 UTC. */
  from: string;
  /** Inclusive, RFC 3339 UTC. */
  until: string;
  fromMs: number;
  untilMs: number;
}

export type WindowResult = { ok: true; window: ReputationWindow } | { ok: false; message: string };

const DURATION = /^([1-9]\d{0,5})(d|h)$/;

function utc(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** `spec` (`30d`, `12h`, or `<start>/<end>`) as a window; `endsAt` is the end of a duration window. */
export function parseReputationWindow(spec: string, endsAt: string): WindowResult {
  const end = dateTimeStampMillis(endsAt);
  const duration = DURATION.exec(spec);
  if (duration !== null) {
    if (end === undefined || !Number.isFinite(end))
      return { ok: false, message: `the window's end "${endsAt}" is not an RFC 3339 date-time with its time zone` };
    const hours = Number(duration[1]) * (duration[2] === 'd' ? 24 : 1);
    if (hours > MAX_WINDOW_DAYS * 24) return { ok: false, message: `a window is at most ${MAX_WINDOW_DAYS} days` };
    const fromMs = end - hours * 3_600_000;
    return { ok: true, window: { from: utc(fromMs), until: utc(end), fromMs, untilMs: end } };
  }
  const parts = spec.split('/');
  if (parts.length === 2) {
    const [fromMs, untilMs] = parts.map((p) => dateTimeStampMillis(p));
    if (fromMs !== undefined && untilMs !== undefined && Number.isFinite(fromMs) && Number.isFinite(untilMs)) {
      if (fromMs > untilMs) return { ok: false, message: `the window "${spec}" ends before it starts` };
      return { ok: true, window: { from: utc(fromMs), until: utc(untilMs), fromMs, untilMs } };
    }
  }
  return {
    ok: false,
    message: `the window must be a duration ending now (e.g. 30d, 12h) or <start>/<end> RFC 3339 date-times (e.g. 2026-01-01T00:00:00Z/2026-02-01T00:00:00Z), not "${spec}"`,
  };
}
