// The true trajectories of the interpolation browser test's bots (tests/browser/interp.mjs):
// positions on the ground (x, z, metres) as functions of `s`, seconds of the bot's own clock
// since its first move. Shared by the bots (what they send), the test (the truth each drawn
// frame is measured against) and the page (the picture's true paths).

const TAU = 2 * Math.PI;

/** A circle at constant speed `v` (m/s), radius `r`, centre (cx, cz), starting east of it. */
function circle(cx, cz, r, v) {
  return {
    at: (s) => [cx + r * Math.cos((v * s) / r), cz + r * Math.sin((v * s) / r)],
    speed: () => v,
  };
}

/** A circle whose speed swings between `v - dv` and `v + dv` every `period` seconds (a car). */
function swinging(cx, cz, r, v, dv, period) {
  const w = TAU / period;
  const arc = (s) => v * s + (dv / w) * (1 - Math.cos(w * s));
  return {
    at: (s) => [cx + r * Math.cos(arc(s) / r), cz + r * Math.sin(arc(s) / r)],
    speed: (s) => v + dv * Math.sin(w * s),
  };
}

/** A figure eight (a jogger weaving): x = a·sin(ωs), z = b·sin(2ωs) around (cx, cz). */
function eight(cx, cz, a, b, period) {
  const w = TAU / period;
  return {
    at: (s) => [cx + a * Math.sin(w * s), cz + b * Math.sin(2 * w * s)],
    speed: (s) => Math.hypot(a * w * Math.cos(w * s), 2 * b * w * Math.cos(2 * w * s)),
  };
}

/**
 * The bots, in join order (after the page's viewer at the origin). `near`: within the room
 * server's first relay tier (50 m: every move relayed); the far walker is 100 m out (every
 * 3rd move). `spawn` is where each path starts (the server's `--spawn` for its join).
 */
export const PATHS = [
  { name: "walker", near: true, ...circle(10, 0, 6, 3) },
  { name: "car", near: true, ...swinging(-20, 10, 15, 7, 3, 6) },
  { name: "jogger", near: true, ...eight(0, -15, 8, 4, 9) },
  { name: "far walker", near: false, ...circle(100, 0, 5, 4) },
].map((p) => ({ ...p, spawn: p.at(0) }));

/** The heading of `path` at `s` (radians in ±π, the direction of motion on the ground). */
export function headingOf(path, s) {
  const [x0, z0] = path.at(s - 0.01);
  const [x1, z1] = path.at(s + 0.01);
  return Math.atan2(z1 - z0, x1 - x0);
}
