/**
 * Checks the city's `input:ack` rule (src/input_playout.ts, src/ack_pose.ts) on the synthetic
 * city (50 players, half of them driving, their inputs through the object's playout): each
 * tick, every player's snapshot goes through tuplet's `Tracker` into a client `Mirror` and
 * then its ack through the codec, as the object sends them. Checked: every ack leaves out
 * `p` and `r` (the snapshot carries the body), and the body the client reads from its
 * Mirror (`ackedPose`) is exactly the one `p` and `r` would have carried, in whole
 * centimetres and milliradians; a view without the body gets an ack with `p` and `r`, taken
 * as it is. Exits 1 on a failed check.
 *
 *   node build/ack_check.mjs [--ticks 300]
 */

import { InputAckCodec, Mirror, newReader, readInt, WorldSnapshot$delta, WorldSnapshotCodec, type InputAck, type WorldSnapshot } from "village-protocol";
import { ackedPose, type HeldSnapshot } from "../src/ack_pose.js";
import { TupletStream } from "../src/streams.js";
import { SyntheticCity } from "./synthetic.js";
import { jsonAck } from "./worker/json_delta.js";

const at = process.argv.indexOf("--ticks");
const ticks = at > 0 ? Number(process.argv[at + 1]) : 300;
const fails: string[] = [];
const check = (ok: boolean, what: string): void => {
  if (!ok && fails.push(what) <= 5) process.stderr.write(`FAIL ${what}\n`);
};

/** One client: the socket the stream writes to, and its Mirror. */
class Client {
  private readonly mirror = new Mirror<WorldSnapshot>(WorldSnapshot$delta);
  held: HeldSnapshot | undefined;
  send(bytes: Uint8Array): void {
    const r = newReader(bytes);
    if (readInt(r, 0, 4294967295) !== WorldSnapshotCodec.id) throw new Error("not a snapshot");
    this.held = this.mirror.apply(bytes.subarray(r.pos));
  }
}

/** `v` through the wire: encoded and decoded by the ack's codec. */
function wire(v: InputAck): InputAck {
  const res = InputAckCodec.decode(InputAckCodec.encode(v));
  if (!res.ok) throw new Error(`input:ack: ${res.issues[0]?.code}`);
  return res.value;
}

const city = new SyntheticCity(1, 50, undefined, true);
const seats = city.seats.map((seat) => ({ seat, stream: new TupletStream(), client: new Client() }));
let acks = 0;
let driving = 0;
for (let t = 0; t < ticks; t++) {
  city.inputs();
  const tick = city.step();
  for (const { seat, stream, client } of seats) {
    const keyframe = SyntheticCity.keyframe(tick, seat.player.slot);
    if (keyframe) stream.requestKeyframe();
    const view = city.view(seat);
    stream.send(client as unknown as WebSocket, tick, keyframe, view);
    const sent = city.ack(seat, view);
    if (sent === undefined) continue;
    acks += 1;
    const p = seat.player;
    const b = p.driving ? p.car : p.body;
    if (p.driving) driving += 1;
    const ack = wire(sent);
    check(ack.p === undefined && ack.r === undefined, `tick ${tick}, ${p.name}: the ack carries p or r beside a snapshot that carries the body`);
    // What the ack carried before the rule: the body, through the same codec.
    const full = wire({ ...sent, p: [b.x, b.y, 0], r: b.heading });
    const got = ackedPose(ack, client.held, b.id);
    check(got !== undefined && got.x === full.p![0] && got.y === full.p![1] && got.heading === full.r, `tick ${tick}, ${p.name}: the Mirror's body ${JSON.stringify(got)} is not the ack's ${JSON.stringify([full.p, full.r])}`);
    // The JSON twin's ack: the same fields, as JSON text.
    const j = JSON.parse(jsonAck(sent)) as Record<string, unknown>;
    check(j.t === "ack" && j.applied === sent.applied && j.tick === sent.tick && j.queued === sent.queued && !("p" in j) && !("r" in j), `tick ${tick}, ${p.name}: the twin's ack ${JSON.stringify(j)} is not ${JSON.stringify(sent)}`);
  }
}
check(acks > ticks * 40 && driving > acks / 3, `${acks} acks checked, ${driving} of them driving`);

// A view without the body (as from the Rust room server): the ack carries it, taken as it is.
const other = city.seats[1]!;
city.inputs();
city.step();
const sent = city.ack(other, []);
const b = other.player.driving ? other.player.car : other.player.body;
check(sent?.p !== undefined && sent.r !== undefined, "an ack beside a view without the body leaves out p or r");
const pose = sent === undefined ? undefined : ackedPose(wire(sent), undefined, b.id);
check(pose !== undefined && Math.abs(pose.x - b.x) <= 0.005 && Math.abs(pose.y - b.y) <= 0.005, `the ack's own p, r not taken: ${JSON.stringify(pose)}`);
const jp = sent === undefined ? undefined : (JSON.parse(jsonAck(sent)) as { p?: number[]; r?: number });
check(jp?.p !== undefined && Math.abs(jp.p[0]! - b.x) <= 0.005 && Math.abs(jp.p[1]! - b.y) <= 0.005 && Math.abs(jp.r! - b.heading) <= 0.0005, `the twin's ack beside a view without the body: ${JSON.stringify(jp)}`);

if (fails.length > 0) {
  process.stderr.write(`ack_check: ${fails.length} failed\n`);
  process.exit(1);
}
console.log(`ack_check: ${acks} acks over ${ticks} ticks (${driving} driving): each without p and r, the body read from the Mirror equal to what p and r carried; the twin's JSON acks with the same fields`);
