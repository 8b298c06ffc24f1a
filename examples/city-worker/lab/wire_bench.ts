/**
 * Where the wire bytes go: one seeded city (the synthetic city of tick_bench, no workerd, its
 * inputs through the object's playout), every player's messages recorded on both sides
 * (tuplet's `Tracker`, the JSON twin's deltas; on both, the `input:ack` the object sends
 * after each snapshot, tuplet's binary and the twin's JSON text, wire_acks.ts), then each stream put through permessage-deflate as workerd sends it (one raw
 * deflate context per connection, a sync flush per message with its trailing `00 00 ff ff`
 * removed, RFC 7692) plus the server's frame header (2 bytes up to 125 bytes of payload, 4 up
 * to 65,535).
 *
 *   node build/wire_bench.mjs [--players 50] [--ticks 400] [--seed 1] [--first-players 50] [--collide] [--json]
 *
 * `--collide`: the drivers' cars collide with the traffic as the object's do (its lag
 * compensation, synthetic.ts); by default they pass through it.
 *
 * Every byte of every message is given a part (the envelope, an entity's key, its field mask,
 * its position's differences, ...). A part's raw bytes are counted; its cost on the wire is
 * measured by deleting it from every message and deflating again: alone (what that part
 * costs given all the rest), and cumulatively in the order listed (the steps add up to the
 * whole, and what is left when every part is gone is the per-message overhead: frame headers
 * and deflate's block framing). Then the deflate settings a server may choose (level, window,
 * no context takeover), applied to both sides. Per player per tick throughout: over every
 * snapshot slot (players x ticks), as the lab counts.
 */

import zlib from "node:zlib";
import { TupletStream, type Stream } from "../src/streams.js";
import { JsonStream } from "./worker/streams.js";
import { FIRST_PLAYER_IDS } from "../src/sim.js";
import { SyntheticCity } from "./synthetic.js";
import { ACK_PARTS, coalesced, isAck, JSON_ACK_PARTS, labelAck, labelJsonAck } from "./wire_acks.js";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i++) {
  const k = process.argv[i]!.replace(/^--/, "");
  const v = process.argv[i + 1];
  if (v === undefined || v.startsWith("--")) args.set(k, "true");
  else (args.set(k, v), i++);
}
const players = Number(args.get("players") ?? 50);
const ticks = Number(args.get("ticks") ?? 400);
const seed = Number(args.get("seed") ?? 1);
const asJson = args.has("json");
const collide = args.has("collide");
/** `--first-players N`: the first N player slots' ids before the NPCs' (`City`'s `firstPlayers`; 0: after them). */
const firstPlayers = Number(args.get("first-players") ?? FIRST_PLAYER_IDS);

/** One message as bytes, each byte labelled with the part it belongs to. */
interface Labelled {
  bytes: Uint8Array;
  parts: Uint8Array;
}

/** The socket of one seat: records what it is sent. */
class Recorder {
  readonly msgs: (Uint8Array | string)[] = [];
  send(data: Uint8Array | string): void {
    this.msgs.push(typeof data === "string" ? data : data.slice());
  }
}

// ---- tuplet: a small msgpack walker over `world:snapshot` payloads -------------------------

const T_PARTS = [
  "keyframes (whole)",
  "envelope: id, header, seq, mask, tick, list header",
  "entering view (whole records)",
  "leaving view (key, 0)",
  "entity key",
  "entity field mask",
  "pos: array header",
  "pos: x, y differences",
  "pos: z difference (always 0)",
  "heading difference",
  "speed difference",
  "anim difference",
  "kind, owner, label (whole)",
  ...ACK_PARTS,
] as const;
const T = Object.fromEntries(T_PARTS.map((p, i) => [p, i])) as Record<(typeof T_PARTS)[number], number>;

/** The end of the msgpack value at `p`. */
function skip(b: Uint8Array, p: number): number {
  const x = b[p]!;
  if (x <= 0x7f || x >= 0xe0 || x === 0xc0 || x === 0xc2 || x === 0xc3) return p + 1;
  if (x >= 0xa0 && x <= 0xbf) return p + 1 + (x & 0x1f);
  if (x >= 0x90 && x <= 0x9f) {
    let q = p + 1;
    for (let i = 0; i < (x & 0x0f); i++) q = skip(b, q);
    return q;
  }
  if (x >= 0x80 && x <= 0x8f) {
    let q = p + 1;
    for (let i = 0; i < 2 * (x & 0x0f); i++) q = skip(b, q);
    return q;
  }
  switch (x) {
    case 0xcc:
    case 0xd0:
      return p + 2;
    case 0xcd:
    case 0xd1:
      return p + 3;
    case 0xce:
    case 0xd2:
    case 0xca:
      return p + 5;
    case 0xcf:
    case 0xd3:
    case 0xcb:
      return p + 9;
    case 0xd9:
      return p + 2 + b[p + 1]!;
    case 0xdc: {
      let q = p + 3;
      const n = (b[p + 1]! << 8) | b[p + 2]!;
      for (let i = 0; i < n; i++) q = skip(b, q);
      return q;
    }
    default:
      throw new Error(`msgpack byte 0x${x.toString(16)} at ${p}`);
  }
}

function readUint(b: Uint8Array, p: number): number {
  const x = b[p]!;
  if (x <= 0x7f) return x;
  if (x === 0xcc) return b[p + 1]!;
  if (x === 0xcd) return (b[p + 1]! << 8) | b[p + 2]!;
  if (x === 0xce) return ((b[p + 1]! << 24) >>> 0) + ((b[p + 2]! << 16) | (b[p + 3]! << 8) | b[p + 4]!);
  throw new Error(`not a uint: 0x${x.toString(16)}`);
}

function arrayHeader(b: Uint8Array, p: number): [number, number] {
  const x = b[p]!;
  if (x >= 0x90 && x <= 0x9f) return [x & 0x0f, p + 1];
  if (x === 0xdc) return [(b[p + 1]! << 8) | b[p + 2]!, p + 3];
  throw new Error(`not an array: 0x${x.toString(16)}`);
}

function isArray(x: number): boolean {
  return (x >= 0x90 && x <= 0x9f) || x === 0xdc || x === 0xdd;
}

/** Labels one tuplet message: envelope id, then the Tracker's payload. */
function labelTuplet(bytes: Uint8Array, stats: Stats): Labelled {
  const parts = new Uint8Array(bytes.length).fill(T["envelope: id, header, seq, mask, tick, list header"]);
  const set = (a: number, z: number, part: number): void => void parts.fill(part, a, z);
  let p = 1; // envelope id 110: one byte
  const [, h] = arrayHeader(bytes, p);
  p = h;
  p = skip(bytes, p); // seq
  if (bytes[p] === 0xc0) {
    set(0, bytes.length, T["keyframes (whole)"]);
    stats.keyframes += 1;
    return { bytes, parts };
  }
  const mask = readUint(bytes, p);
  p = skip(bytes, p);
  for (let field = 0; field < 4; field++) {
    if ((mask & (1 << field)) === 0) continue;
    if (field !== 2) {
      p = skip(bytes, p);
      continue;
    }
    const [n, q] = arrayHeader(bytes, p);
    p = q;
    let i = 0;
    while (i < n) {
      if (isArray(bytes[p]!)) {
        const z = skip(bytes, p);
        set(p, z, T["entering view (whole records)"]);
        stats.entering += 1;
        p = z;
        i += 1;
        continue;
      }
      const k0 = p;
      p = skip(bytes, p);
      const em = readUint(bytes, p);
      const m0 = p;
      p = skip(bytes, p);
      i += 2;
      if (em === 0) {
        set(k0, p, T["leaving view (key, 0)"]);
        stats.leaving += 1;
        continue;
      }
      set(k0, m0, T["entity key"]);
      set(m0, p, T["entity field mask"]);
      stats.changed += 1;
      for (let f = 0; f < 7; f++) {
        if ((em & (1 << f)) === 0) continue;
        i += 1;
        stats.fields[f] = (stats.fields[f] ?? 0) + 1;
        const a = p;
        p = skip(bytes, p);
        if (f === 1) {
          const [, q1] = arrayHeader(bytes, a);
          set(a, q1, T["pos: array header"]);
          const x1 = skip(bytes, q1);
          const y1 = skip(bytes, x1);
          set(q1, y1, T["pos: x, y differences"]);
          set(y1, p, T["pos: z difference (always 0)"]);
        } else if (f === 2) set(a, p, T["heading difference"]);
        else if (f === 3) set(a, p, T["speed difference"]);
        else if (f === 4) set(a, p, T["anim difference"]);
        else set(a, p, T["kind, owner, label (whole)"]);
      }
    }
  }
  stats.deltas += 1;
  return { bytes, parts };
}

// ---- JSON: a small parser that labels every character --------------------------------------

const J_PARTS = [
  "keyframes (whole)",
  'envelope: {"t":"snap","tick":N, "upd"/"add"/"rm" and their brackets',
  "entering view (add: whole entities)",
  "leaving view (rm: ids)",
  'entity {"id":N} and separators',
  'pos: "pos":[ ] and commas',
  "pos: x, y values",
  "pos: z value (always 0)",
  '"heading":value',
  '"speed":value',
  '"anim":value',
  "kind, owner, label",
  ...JSON_ACK_PARTS,
] as const;
const J = Object.fromEntries(J_PARTS.map((p, i) => [p, i])) as Record<(typeof J_PARTS)[number], number>;

/** The end of the JSON value at `p` (text made by JSON.stringify: no whitespace). */
function jskip(s: string, p: number): number {
  const c = s[p]!;
  if (c === '"') {
    let q = p + 1;
    while (s[q] !== '"') q += s[q] === "\\" ? 2 : 1;
    return q + 1;
  }
  if (c === "{" || c === "[") {
    const close = c === "{" ? "}" : "]";
    let q = p + 1;
    if (s[q] === close) return q + 1;
    for (;;) {
      if (c === "{") q = jskip(s, q) + 1; // key, then ':'
      q = jskip(s, q);
      if (s[q] === close) return q + 1;
      q += 1; // ','
    }
  }
  let q = p;
  while (q < s.length && !",}]".includes(s[q]!)) q++;
  return q;
}

function labelJson(text: string, stats: Stats): Labelled {
  const bytes = new TextEncoder().encode(text);
  const env = J['envelope: {"t":"snap","tick":N, "upd"/"add"/"rm" and their brackets'];
  const parts = new Uint8Array(bytes.length).fill(env);
  const set = (a: number, z: number, part: number): void => void parts.fill(part, a, z);
  if (text.includes('"kf":true')) {
    set(0, bytes.length, J["keyframes (whole)"]);
    stats.keyframes += 1;
    return { bytes, parts };
  }
  stats.deltas += 1;
  // Top level: {"t":"snap","tick":N,"add":[...],"upd":[...],"rm":[...]}
  let p = 1;
  while (text[p - 1] !== "}" && p < text.length) {
    const k0 = p;
    const k1 = jskip(text, p);
    const key = text.slice(k0 + 1, k1 - 1);
    const v0 = k1 + 1;
    const v1 = jskip(text, v0);
    if (key === "add") {
      set(v0 + 1, v1 - 1, J["entering view (add: whole entities)"]);
      stats.entering += (text.slice(v0, v1).match(/"id":/g) ?? []).length;
    } else if (key === "rm") {
      set(v0 + 1, v1 - 1, J["leaving view (rm: ids)"]);
      stats.leaving += text.slice(v0, v1).split(",").length;
    } else if (key === "upd") {
      // [{...},{...}]: each entity's members labelled by name (its leading comma with it).
      let q = v0 + 1;
      while (q < v1 - 1) {
        const e1 = jskip(text, q);
        set(q, e1, J['entity {"id":N} and separators']);
        if (text[e1] === ",") set(e1, e1 + 1, J['entity {"id":N} and separators']);
        stats.changed += 1;
        let m = q + 1;
        while (m < e1 - 1) {
          const n1 = jskip(text, m);
          const name = text.slice(m + 1, n1 - 1);
          const a = n1 + 1;
          const z = jskip(text, a);
          const lead = text[m - 1] === "," ? m - 1 : m;
          const f = ["kind", "pos", "heading", "speed", "anim", "owner", "label"].indexOf(name);
          if (f >= 0) stats.fields[f] = (stats.fields[f] ?? 0) + 1;
          if (name === "pos") {
            set(lead, z, J['pos: "pos":[ ] and commas']);
            const x1 = jskip(text, a + 1);
            const y1 = jskip(text, x1 + 1);
            set(a + 1, x1, J["pos: x, y values"]);
            set(x1 + 1, y1, J["pos: x, y values"]);
            set(y1 + 1, z - 1, J["pos: z value (always 0)"]);
          } else if (name === "heading") set(lead, z, J['"heading":value']);
          else if (name === "speed") set(lead, z, J['"speed":value']);
          else if (name === "anim") set(lead, z, J['"anim":value']);
          else if (name !== "id") set(lead, z, J["kind, owner, label"]);
          m = z + 1;
        }
        q = e1 + 1;
      }
    }
    p = v1 + 1;
  }
  return { bytes, parts };
}

// ---- permessage-deflate ---------------------------------------------------------------------

interface Deflate {
  level: number;
  windowBits: number;
  memLevel: number;
  /** server_no_context_takeover: a fresh context per message. */
  noContext: boolean;
}

const WORKERD: Deflate = { level: zlib.constants.Z_DEFAULT_COMPRESSION, windowBits: 15, memLevel: 8, noContext: false };

/** zlib's internals that a sync flush that keeps the stream open needs (Node 20). */
interface ZlibInternals {
  _handle: { writeSync(flush: number, chunk: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void };
  _writeState: Uint32Array;
  _chunkSize: number;
  _outBuffer: Buffer;
  _outOffset: number;
}

/**
 * Deflates `chunk` with a sync flush on an open stream, synchronously (Node's own sync path
 * closes the stream after one call, and its async one costs ~0.3 ms a message).
 */
function flushSync(zs: zlib.DeflateRaw, chunk: Buffer): number {
  const z = zs as unknown as ZlibInternals;
  const state = z._writeState;
  const size = z._chunkSize;
  let buffer = z._outBuffer;
  let offset = z._outOffset;
  let total = 0;
  let inLen = chunk.byteLength;
  let inOff = 0;
  let outLen = size - offset;
  for (;;) {
    z._handle.writeSync(zlib.constants.Z_SYNC_FLUSH, chunk, inOff, inLen, buffer, offset, outLen);
    const outLeft = state[0]!;
    const inLeft = state[1]!;
    total += outLen - outLeft;
    offset += outLen - outLeft;
    if (outLeft === 0 || offset >= size) {
      offset = 0;
      buffer = Buffer.allocUnsafe(size);
    }
    outLen = size - offset;
    if (outLeft !== 0) break;
    inOff += inLen - inLeft;
    inLen = inLeft;
  }
  z._outBuffer = buffer;
  z._outOffset = offset;
  return total;
}

/** Wire bytes of one connection's messages: deflated per RFC 7692, plus frame headers. */
function wire(msgs: readonly Uint8Array[], d: Deflate): number {
  let total = 0;
  let z: zlib.DeflateRaw | undefined;
  for (const m of msgs) {
    if (z === undefined || d.noContext) {
      z?.close();
      z = zlib.createDeflateRaw({ level: d.level, windowBits: d.windowBits, memLevel: d.memLevel });
    }
    // The sync flush ends in 00 00 ff ff, which the sender removes (an empty message is one 00).
    const n = m.length === 0 ? 1 : Math.max(1, flushSync(z, Buffer.from(m.buffer, m.byteOffset, m.byteLength)) - 4);
    total += n + (n <= 125 ? 2 : n <= 65535 ? 4 : 10);
  }
  z?.close();
  return total;
}

/** Every seat's messages with the bytes of the parts in `drop` removed. */
function without(streams: readonly Labelled[][], drop: ReadonlySet<number>): Uint8Array[][] {
  return streams.map((msgs) =>
    msgs.map(({ bytes, parts }) => {
      if (drop.size === 0) return bytes;
      const out = new Uint8Array(bytes.length);
      let n = 0;
      for (let i = 0; i < bytes.length; i++) if (!drop.has(parts[i]!)) out[n++] = bytes[i]!;
      return out.subarray(0, n);
    }),
  );
}

function wireAll(streams: readonly Uint8Array[][], d: Deflate): number {
  let n = 0;
  for (const s of streams) n += wire(s, d);
  return n;
}

// ---- the run ---------------------------------------------------------------------------------

interface Stats {
  keyframes: number;
  deltas: number;
  entering: number;
  leaving: number;
  changed: number;
  fields: number[];
}

function record(kind: "tuplet" | "json"): (Uint8Array | string)[][] {
  const city = new SyntheticCity(seed, players, firstPlayers, true, collide);
  const seats = city.seats.map((seat) => ({ seat, stream: (kind === "tuplet" ? new TupletStream() : new JsonStream()) as Stream, ws: new Recorder() }));
  for (let t = 0; t < ticks; t++) {
    city.inputs();
    const tick = city.step();
    for (const s of seats) {
      const keyframe = SyntheticCity.keyframe(tick, s.seat.player.slot);
      if (keyframe) s.stream.requestKeyframe();
      const view = city.view(s.seat);
      s.stream.send(s.ws as unknown as WebSocket, tick, keyframe, view);
      const ack = city.ack(s.seat, view);
      if (ack !== undefined) s.stream.sendAck(s.ws as unknown as WebSocket, ack);
    }
  }
  return seats.map((s) => s.ws.msgs);
}

interface SideReport {
  side: string;
  messagesPerTick: number;
  rawPerTick: number;
  wirePerTick: number;
  stats: Stats;
  parts: { part: string; raw: number; alone: number; cumulative: number }[];
  overhead: number;
  /** Wire bytes of the messages with nothing in them but what changed: positions, headings, speeds, animations (framing included). */
  changesOnly: number;
  /** Wire bytes of the snapshots alone: every `input:ack` message left out. */
  withoutAcks: number;
}

function analyse(kind: "tuplet" | "json"): { report: SideReport; streams: Labelled[][] } {
  const stats: Stats = { keyframes: 0, deltas: 0, entering: 0, leaving: 0, changed: 0, fields: [] };
  const names = kind === "tuplet" ? T_PARTS : J_PARTS;
  const ackBase = names.length - ACK_PARTS.length;
  const label = (m: Uint8Array | string): Labelled => {
    if (typeof m === "string") return isAck(m) ? labelJsonAck(m, ackBase) : labelJson(m, stats);
    return isAck(m) ? { bytes: m, parts: labelAck(m, ackBase, skip) } : labelTuplet(m, stats);
  };
  const streams = record(kind).map((msgs) => msgs.map(label));
  const slots = players * ticks;
  const per = (x: number): number => x / slots;
  const raw = new Array<number>(names.length).fill(0);
  let rawTotal = 0;
  let messages = 0;
  for (const s of streams)
    for (const m of s) {
      messages += 1;
      rawTotal += m.bytes.length;
      for (const p of m.parts) raw[p]! += 1;
    }
  const all = wireAll(without(streams, new Set()), WORKERD);
  const parts: SideReport["parts"] = [];
  const dropped = new Set<number>();
  // Cumulative: remove the parts from the last listed (the details) to the first (the envelope, keyframes).
  const order = names.map((_, i) => i).reverse();
  let before = all;
  const cumulative = new Array<number>(names.length).fill(0);
  for (const i of order) {
    dropped.add(i);
    const after = wireAll(without(streams, dropped), WORKERD);
    cumulative[i] = before - after;
    before = after;
  }
  // Everything but the changes themselves removed: what the information costs with no structure.
  const notChanges = new Set(names.map((n, i) => (/^pos: x|^(heading|speed|anim) difference|^"(heading|speed|anim)"|^pos: x, y values/.test(n) ? -1 : i)).filter((i) => i >= 0));
  const changesOnly = wireAll(without(streams, notChanges), WORKERD);
  const withoutAcks = wireAll(streams.map((s) => s.filter((m) => !isAck(m.bytes)).map((m) => m.bytes)), WORKERD);
  for (let i = 0; i < names.length; i++) {
    const alone = all - wireAll(without(streams, new Set([i])), WORKERD);
    parts.push({ part: names[i]!, raw: per(raw[i]!), alone: per(alone), cumulative: per(cumulative[i]!) });
  }
  return {
    report: { side: kind, messagesPerTick: per(messages), rawPerTick: per(rawTotal), wirePerTick: per(all), stats, parts, overhead: per(before), changesOnly: per(changesOnly), withoutAcks: per(withoutAcks) },
    streams,
  };
}

const tu = analyse("tuplet");
const js = analyse("json");

/** Both sides under other deflate settings a server could choose (the same for both). */
const settings: { what: string; d: Deflate }[] = [
  { what: "workerd's (level 6, 32 KiB window, context kept)", d: WORKERD },
  { what: "level 1", d: { ...WORKERD, level: 1 } },
  { what: "level 9, memLevel 9", d: { ...WORKERD, level: 9, memLevel: 9 } },
  { what: "server_max_window_bits=10 (1 KiB window)", d: { ...WORKERD, windowBits: 10 } },
  { what: "server_no_context_takeover", d: { ...WORKERD, noContext: true } },
  { what: "no compression (frame headers only)", d: { ...WORKERD, level: 0 } },
];
const slots = players * ticks;
const plain = (s: Labelled[][]): Uint8Array[][] => s.map((m) => m.map((x) => x.bytes));
const deflates = settings.map(({ what, d }) => {
  const t = wireAll(plain(tu.streams), d) / slots;
  const j = wireAll(plain(js.streams), d) / slots;
  return { what, tuplet: t, json: j, ratio: t / j };
});
/**
 * The what-if of one message per tick on tuplet's side: each ack in its snapshot's message
 * (workerd's deflate). The twin's stay apart (a JSON game sends one object per message).
 */
const joined = (s: Labelled[][]): Uint8Array[][] => s.map((m) => coalesced(m.map((x) => ({ bytes: x.bytes, ack: isAck(x.bytes) }))));
{
  const t = wireAll(joined(tu.streams), WORKERD) / slots;
  const j = js.report.wirePerTick;
  deflates.push({ what: "workerd's, tuplet's input:ack in its snapshot's message (the twin's apart)", tuplet: t, json: j, ratio: t / j });
}

const result = { players, ticks, seed, firstPlayers, collide, tuplet: tu.report, json: js.report, deflates };
if (asJson) {
  console.log(JSON.stringify(result));
} else {
  const f1 = (x: number): string => x.toFixed(1).padStart(7);
  console.log(`${players} players, ${ticks} ticks, seed ${seed}${firstPlayers > 0 ? `, the first ${firstPlayers} players' ids first` : ", players' ids after the NPCs'"}${collide ? ", drivers colliding" : ""}; bytes per player per tick`);
  for (const r of [tu.report, js.report]) {
    const s = r.stats;
    console.log(`\n${r.side}: ${r.messagesPerTick.toFixed(3)} messages, ${r.rawPerTick.toFixed(1)} B as sent, ${r.wirePerTick.toFixed(1)} B on the wire`);
    console.log(`  per delta: ${(s.changed / s.deltas).toFixed(1)} entities changed, ${(s.entering / s.deltas).toFixed(2)} entering, ${(s.leaving / s.deltas).toFixed(2)} leaving; fields per changed entity: ${s.fields.map((n, i) => `${["kind", "pos", "heading", "speed", "anim", "owner", "label"][i]} ${((n ?? 0) / s.changed).toFixed(2)}`).join(", ")}`);
    console.log(`  ${"part".padEnd(72)}    raw   alone  cumul.`);
    for (const p of r.parts) console.log(`  ${p.part.padEnd(72)}${f1(p.raw)} ${f1(p.alone)} ${f1(p.cumulative)}`);
    console.log(`  ${"left with every part removed (frame headers, deflate framing)".padEnd(72)}${f1(0)} ${" ".repeat(7)} ${f1(r.overhead)}`);
    console.log(`  only the changes (x, y, heading, speed, anim; framing included): ${r.changesOnly.toFixed(1)} B on the wire`);
    console.log(`  the snapshots alone (every input:ack message left out): ${r.withoutAcks.toFixed(1)} B on the wire`);
  }
  console.log("\ndeflate settings (both sides)                          tuplet    JSON  ratio");
  for (const d of deflates) console.log(`  ${d.what.padEnd(52)}${f1(d.tuplet)} ${f1(d.json)}  ${d.ratio.toFixed(3)}`);
  console.log(`\na third of the JSON twin's wire bytes: ${(js.report.wirePerTick / 3).toFixed(1)} B; tuplet's changes alone: ${tu.report.changesOnly.toFixed(1)} B`);
}
