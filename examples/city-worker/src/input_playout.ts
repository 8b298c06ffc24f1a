/**
 * The city's input playout: each player's `input:batch` frames go into a jitter buffer
 * (the runtime's `Playout`), and every 50 ms tick applies exactly three of them per player
 * (60 Hz frames), so a player moves the same distance every tick however unevenly the
 * network delivered the batches. After the tick's snapshot, each controlling player is sent
 * `input:ack` (the last frame applied, the tick, the frames still queued) for its client's
 * reconciliation. Its `p` and `r` (the body the player controls) are left out when that
 * snapshot carries the body, as the city's always does: the client reads them from its
 * `Mirror` (ack_pose.ts).
 */

import { Playout } from "village-protocol/runtime";
import type { InputAck, InputFrame, NearbyEntity } from "village-protocol";
import { stepPlayer, type Player } from "./sim.js";

/** Input frames applied per tick and player: 60 Hz frames at 20 ticks a second. */
export const INPUT_STEPS_PER_TICK = 3;

/** Every connected player's playout, by name. */
export class InputPlayouts {
  /**
   * `collide` runs after each applied frame (`seq`, applied in the tick after `tick`): the
   * player's car against the world (now, or as the player saw it).
   */
  constructor(private readonly collide: (p: Player, seq: number, tick: number) => void = () => {}) {}

  private readonly byName = new Map<string, Playout<InputFrame>>();
  /** The last applied number acknowledged to each player (an ack goes out when it moves). */
  private readonly acked = new Map<string, number>();

  /** Queues a batch (`first` numbers `frames[0]`). */
  push(p: Player, first: number, frames: readonly InputFrame[]): void {
    let q = this.byName.get(p.name);
    if (q === undefined) {
      q = new Playout<InputFrame>();
      this.byName.set(p.name, q);
    }
    q.push(first, frames);
  }

  /** Forgets a player who left. */
  leave(name: string): void {
    this.byName.delete(name);
    this.acked.delete(name);
  }

  /** The input steps of one tick: three frames per player, in order, through the city's step. */
  step(players: Iterable<Player>, tick = 0): void {
    for (const p of players) {
      const q = this.byName.get(p.name);
      if (q === undefined) continue;
      for (let k = 0; k < INPUT_STEPS_PER_TICK; k++) {
        q.step((seq, f) => {
          p.frames += 1;
          p.nextFirst = seq + 1;
          stepPlayer(p, f);
          this.collide(p, seq, tick);
        });
      }
      p.gaps = q.stats.skipped + q.stats.dropped;
    }
  }

  /**
   * The `input:ack` for `p` after tick `tick`, when its last applied frame moved since the last
   * one. `view` is the tick's snapshot sent to `p` just before it: when it carries the body `p`
   * controls (its car while driving), the ack leaves out `p` and `r` and the client reads that
   * body from its `Mirror` (ack_pose.ts); otherwise the ack carries it, as the snapshot would
   * place it, to reconcile on.
   */
  ack(p: Player, tick: number, view: readonly NearbyEntity[] = []): InputAck | undefined {
    const q = this.byName.get(p.name);
    const applied = q?.lastApplied;
    if (q === undefined || applied === undefined || this.acked.get(p.name) === applied) return undefined;
    this.acked.set(p.name, applied);
    const queued = Math.min(32, q.held);
    const b = p.driving ? p.car : p.body;
    if (view.some((e) => e.id === b.id)) return { applied, tick, queued };
    return { applied, tick, queued, p: [b.x, b.y, 0], r: b.heading };
  }

  /** A player's playout (the lab reads its counters). */
  of(name: string): Playout<InputFrame> | undefined {
    return this.byName.get(name);
  }
}
