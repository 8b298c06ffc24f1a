// The room logic both Colyseus rooms share with the Rust reference server, ported line for
// line from examples/village-server (world.rs, the spawn ring in room.rs) and the runtime
// (relay.rs's default tiers, silence.rs's rule): so the Colyseus rooms do the same work
// per move and per tick, and only the framework differs. Plus the tick clock that measures
// tick lateness the way the Rust ticker does.

import { createRequire } from "node:module";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The generated package (generated/ts/src), bundled for Node 22 by tests/ts's esbuild. */
export async function loadGenerated() {
  const { build } = createRequire(join(root, "tests", "ts", "package.json"))("esbuild");
  const out = await build({
    entryPoints: [join(root, "generated", "ts", "src", "index.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
    write: false,
    logLevel: "silent",
  });
  const tmp = mkdtempSync(join(tmpdir(), "tuplet-ppc-"));
  try {
    const file = join(tmp, "village.mjs");
    writeFileSync(file, out.outputFiles[0].contents);
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The reference server's defaults (config.rs): 24 NPCs, a 120 m view, a keyframe every 100. */
export const NPCS = 24;
export const VIEW_RADIUS = 120;
export const KEYFRAME_EVERY = 100;
export const TICK_MS = 50;

/** The reference server's tiers (relay.rs's default): every update within 50 m, every 3rd within 200 m, every 10th beyond. */
const TIERS = [
  [50 * 50, 1],
  [200 * 200, 3],
];
const BEYOND = 10;

/** Whether update `n` of a mover reaches a viewer at squared distance `d2` (relay.rs `should_send`). */
export function shouldSend(n, d2, seen, forced) {
  if (forced || !seen) return true;
  let stride = BEYOND;
  for (const [r2, s] of TIERS) {
    if (d2 <= r2) {
      stride = s;
      break;
    }
  }
  return n % stride === 0;
}

/** Squared ground distance (x, z). */
export function dist2(a, b) {
  const dx = a[0] - b[0];
  const dz = a[2] - b[2];
  return dx * dx + dz * dz;
}

/** Spawn `joins` of a room: the golden-angle ring of room.rs. */
export function spawnAt(joins) {
  const a = joins * 2.399963;
  const r = 5 + (joins % 8) * 3;
  return [r * Math.cos(a), 0, r * Math.sin(a)];
}

/** Silence (silence.rs): "changed", "first" (the first unchanged report: forced) or "unchanged" (not relayed). */
export function observe(p, pos, r) {
  const same = p.last !== undefined && p.last[0] === pos[0] && p.last[1] === pos[1] && p.last[2] === pos[2] && p.lastR === r;
  if (!same) {
    p.last = pos;
    p.lastR = r;
    p.resting = false;
    return "changed";
  }
  if (p.resting) return "unchanged";
  p.resting = true;
  return "first";
}

function wrap(a) {
  const t = (a + Math.PI) % (2 * Math.PI);
  return (t < 0 ? t + 2 * Math.PI : t) - Math.PI;
}

/** The NPCs of world.rs (no birds: the bots do not subscribe), stepped in place. */
export class World {
  constructor(n = NPCS) {
    this.npcs = [];
    for (let i = 0; i < n; i++) {
      this.npcs.push({
        id: 1000 + i,
        kind: i % 4 === 3 ? "Pet" : "Npc",
        pos: [0, 0, 0],
        heading: 0,
        speed: 1.25,
        anim: 1,
        label: i % 4 !== 3 ? `Villager ${i}` : undefined,
      });
    }
    this.step(0);
  }

  step(tick) {
    const t = tick / 20;
    this.npcs.forEach((e, i) => {
      const radius = 10 + (i % 12) * 12;
      const a = i * 1.3 + (t * 1.25) / radius;
      e.pos = [radius * Math.cos(a), 0, radius * Math.sin(a)];
      e.heading = wrap(a + Math.PI / 2);
    });
  }

  /** The NPCs within the view radius of `at`, by id (at most 50, the field's cap). */
  inView(at) {
    const r2 = VIEW_RADIUS * VIEW_RADIUS;
    return this.npcs.filter((e) => dist2(e.pos, at) <= r2).slice(0, 50);
  }
}

/**
 * A 20 Hz tick on a fixed grid, late ticks delayed rather than bunched (tokio's
 * `MissedTickBehavior::Delay`, as the Rust ticker): `late` holds how late each tick ran, ms,
 * since the last `reset()`.
 */
export class Ticker {
  constructor(fn) {
    this.late = [];
    this.next = performance.now() + TICK_MS;
    this.stopped = false;
    const run = () => {
      if (this.stopped) return;
      const now = performance.now();
      this.late.push(Math.max(0, now - this.next));
      this.next = now - this.next > TICK_MS ? now + TICK_MS : this.next + TICK_MS;
      fn();
      this.timer = setTimeout(run, Math.max(0, this.next - performance.now()));
    };
    this.timer = setTimeout(run, TICK_MS);
  }

  reset() {
    this.late = [];
  }

  /** The p95 of the lateness since the last reset, ms. */
  p95() {
    const xs = [...this.late].sort((a, b) => a - b);
    return xs.length === 0 ? 0 : xs[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)];
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
