/**
 * A synthetic city for the lab's Node-only benches (tick_bench, wire_bench): the object's
 * simulation with `players` seats fed the bots' input pattern (a batch of 4 frames about every
 * 66 ms, so three ticks in four; half of them driving their own car), no workerd, no sockets.
 * With `playout`, the batches go through the object's input playout (three frames a tick,
 * an `input:ack` per player after its snapshot when its last applied frame moved), as the object runs them;
 * without, each batch is applied whole when it arrives.
 */

import { City as Sim, FIRST_PLAYER_IDS, type Player } from "../src/sim.js";
import { keyframePhase } from "../src/streams.js";
import { InputPlayouts } from "../src/input_playout.js";
import { LagComp } from "../src/lag_comp.js";
import type { Buttons, InputAck, InputFrame, NearbyEntity } from "village-protocol";

/** The keyframe cadence of the object (every 5 s at 20 Hz). */
export const KEYFRAME_EVERY = 100;

function buttons(held: Partial<Buttons>): Buttons {
  return { forward: false, back: false, left: false, right: false, jump: false, sprint: false, interact: false, primary: false, aim: false, brake: false, horn: false, ...held };
}

function lcg(s: number): () => number {
  let x = s >>> 0 || 1;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 4294967296;
  };
}

/** One scripted player of the synthetic city. */
export interface Seat {
  readonly player: Player;
  readonly rand: () => number;
}

function frame(s: Seat): InputFrame {
  const r = s.rand;
  if (s.player.driving) {
    return { dt: 16, buttons: buttons({ forward: r() < 0.8, brake: r() < 0.05 }), look: [0, 0], steer: Math.round(30 + r() * 40) };
  }
  const turn = (r() - 0.5) * 0.2;
  const forward = r() < 0.7;
  return { dt: 16, buttons: buttons({ forward, sprint: forward && r() < 0.2 }), look: [Math.round(turn * 1000) / 1000, 0], steer: 0 };
}

/** The seeded city and its seats; `step` runs one tick and returns it. */
export class SyntheticCity {
  readonly sim: Sim;
  readonly seats: Seat[] = [];
  private first = 0;
  private t = 0;
  /** The object's input playout, when the city runs one (`playout`). */
  private readonly playouts: InputPlayouts | undefined;

  /** The cars' history, when drivers collide (`collide`). */
  private readonly lag: LagComp | undefined;

  /**
   * With `collide` (and `playout`), each frame the playout applies collides the player's car
   * with the traffic as the object's does by default: its lag compensation, the frames
   * unstamped (the world as the client drew it, 100 ms back); without, drivers' cars pass
   * through the traffic.
   */
  constructor(seed: number, players: number, firstPlayers = FIRST_PLAYER_IDS, playout = false, collide = false) {
    const lag = (this.lag = playout && collide ? new LagComp() : undefined);
    this.playouts = playout ? new InputPlayouts(lag === undefined ? undefined : (p, seq) => void lag.bumpFrame(p, seq)) : undefined;
    this.sim = new Sim(seed, 160, 80, firstPlayers);
    for (let i = 0; i < players; i++) {
      const player = this.sim.join(`bot${String(i).padStart(6, "0")}`);
      if (i % 2 === 0) this.sim.enter(player, player.car.id);
      this.seats.push({ player, rand: lcg(seed * 1000 + i) });
    }
  }

  /** The inputs that arrive before the next tick (a batch of 4 frames, three ticks in four). */
  inputs(): void {
    if (this.t % 4 !== 3)
      for (const s of this.seats) {
        const frames = [frame(s), frame(s), frame(s), frame(s)];
        if (this.playouts === undefined) this.sim.input(s.player, this.first, frames);
        else {
          this.playouts.push(s.player, this.first, frames);
          this.lag?.stamp(s.player, this.first, frames, this.sim.tick);
        }
      }
    this.first += 4;
    this.t += 1;
  }

  /** One step of the city; returns the new tick. */
  step(): number {
    this.sim.step();
    this.playouts?.step(this.sim.players.values(), this.sim.tick);
    this.lag?.record(this.sim);
    return this.sim.tick;
  }

  /**
   * The `input:ack` the object sends seat `s` after this tick's snapshot `view` (none without
   * `playout`, or when nothing new was applied; without `p` and `r` when `view` carries the body).
   */
  ack(s: Seat, view: readonly NearbyEntity[]): InputAck | undefined {
    return this.playouts?.ack(s.player, this.sim.tick, view);
  }

  /**
   * Whether `tick` is a keyframe for seat `i` (every seat joined at tick 0): as the object
   * schedules them, each seat's keyframes offset by its slot (`keyframePhase`), or with
   * `together` every seat's on the same tick.
   */
  static keyframe(tick: number, i: number, together = false): boolean {
    return tick === 1 || (tick + (together ? 0 : keyframePhase(i))) % KEYFRAME_EVERY === 0;
  }

  view(s: Seat): NearbyEntity[] {
    return this.sim.view(s.player);
  }
}
