// The measures of the interpolation browser test (tests/browser/interp.mjs), shared with its
// replay tool (interp_replay.mjs): the lab's off-speed, jank, error and added delay over the
// frames a page drew.

/** Frames drawn before this much of a bot's clock has passed are warm-up (ms). */
export const WARMUP_MS = 1_000;

/** The value at quantile `q` of `xs`. */
export function quantile(xs, q) {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/**
 * The lab's measures (examples/netcode-lab/src/metrics.ts, `Meter.frame`) over one player's
 * frames for one strategy: `pick(f, i)` gives [drawn, snapped, drawn time (bot clock), x, z].
 * A frame counts when it and the one before drew something at drawn times inside
 * [t0 + warm-up, last stamp sent); moving: true speed at the drawn time >= 0.5 m/s; off-speed:
 * drawn speed (distance since the previous frame over the frame time) more than 30% off it;
 * jank: no drawn motion; speed off: |drawn / true speed − 1| of each moving frame; error: distance to the truth at the drawn time; delay: the bot's
 * clock at the frame minus the drawn time.
 */
export function measure(f, pick, bot, path, toBotClock) {
  const m = { frames: 0, moving: 0, off: 0, jank: 0, snaps: 0, err: [], delay: [], speedOff: [] };
  let prev = null;
  for (let i = 0; i < f.length; i += 9) {
    const [drew, snapped, tt, x, z] = pick(f, i);
    const now = f[i];
    // Before the last stamp: a drawing that holds the last sample after the bot stopped sending
    // is the end of the stream, which no receiver can draw past.
    const inside = drew && tt >= bot.t0 + WARMUP_MS && tt < bot.tLast;
    const had = prev;
    prev = inside ? { now, x, z } : null;
    if (!inside || had === null) continue;
    const dt = now - had.now;
    if (dt <= 0) continue;
    const s = (tt - bot.t0) / 1000;
    const [tx, tz] = path.at(s);
    m.frames += 1;
    m.err.push(Math.hypot(x - tx, z - tz));
    m.delay.push(toBotClock(now) - tt);
    if (snapped) {
      m.snaps += 1;
      continue;
    }
    const vt = path.speed(s);
    if (vt < 0.5) continue;
    const d = Math.hypot(x - had.x, z - had.z);
    const vd = (d / dt) * 1000;
    m.moving += 1;
    m.speedOff.push(Math.abs(vd / vt - 1));
    if (Math.abs(vd - vt) > 0.3 * vt) m.off += 1;
    if (d < 1e-9) m.jank += 1;
  }
  return m;
}

/** Sums measures. */
export function total(ms) {
  const t = { frames: 0, moving: 0, off: 0, jank: 0, snaps: 0, err: [], delay: [], speedOff: [] };
  for (const m of ms) {
    for (const k of ["frames", "moving", "off", "jank", "snaps"]) t[k] += m[k];
    t.err.push(...m.err);
    t.delay.push(...m.delay);
    t.speedOff.push(...m.speedOff);
  }
  return t;
}

export const pct = (a, b) => `${((100 * a) / Math.max(1, b)).toFixed(2)}%`;

/** One printed line of a strategy's totals. */
export function row(name, t) {
  return (
    `${name.padEnd(22)} off-speed ${pct(t.off, t.moving).padStart(7)} (${t.off}/${t.moving})  jank ${pct(t.jank, t.moving).padStart(6)}  ` +
    `speed off p50 ${(quantile(t.speedOff, 0.5) * 100).toFixed(1)}%  error p95 ${(quantile(t.err, 0.95) * 100).toFixed(1)} cm  added delay p50 ${quantile(t.delay, 0.5).toFixed(0)} / p95 ${quantile(t.delay, 0.95).toFixed(0)} ms  snaps ${t.snaps}`
  );
}
