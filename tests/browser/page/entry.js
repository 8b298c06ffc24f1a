// The browser side of tests/browser/run.mjs: bundled by esbuild with the generated package
// (generated/ts/src), loaded by page/index.html in Chromium, and the very same bundle is
// imported by node, so both run identical code. Every check returns plain data (canonical
// text per vector, lists of disagreements); run.mjs compares the page's answers with node's
// and with the Rust vectors.
//
// Nothing here touches the DOM or node: only what the generated package needs
// (Uint8Array, TextDecoder) plus TextEncoder and MessageChannel for the checks.

import {
  ChatSayCodec,
  Channel,
  Channel$numbers,
  TupletError,
  c2s,
  s2c,
  createDispatcher,
  envelope,
  send,
} from "../../../generated/ts/src/index.ts";
import { compareUtf8, encodeUtf8 } from "../../../generated/ts/src/runtime/index.ts";

const directions = { c2s, s2c };

function fromHex(s) {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(b) {
  let s = "";
  for (const x of b) s += x.toString(16).padStart(2, "0");
  return s;
}

function codecOf(dir, name) {
  const c = directions[dir].byName[name];
  if (c === undefined) throw new Error(`no ${dir} codec named ${name}`);
  return c;
}

function compareKeys(a, b) {
  if (typeof a === "string" && typeof b === "string") return compareUtf8(a, b);
  const x = typeof a === "bigint" ? a : Number(a);
  const y = typeof b === "bigint" ? b : Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A decoded value as natural JSON, the convention the Rust vectors use (as in
 * tests/ts/tests/generated_support.ts: bytes as hex, bigint as decimal text, maps as
 * [key, value] pairs in key order, absent options omitted).
 */
function toNatural(v) {
  if (v instanceof Uint8Array) return toHex(v);
  if (typeof v === "bigint") return v.toString();
  if (v === undefined) return null;
  if (v instanceof Map) {
    const entries = Array.from(v).sort((a, b) => compareKeys(a[0], b[0]));
    return entries.map(([k, x]) => [toNatural(k), toNatural(x)]);
  }
  if (Array.isArray(v)) return v.map(toNatural);
  if (typeof v === "object" && v !== null) {
    const out = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toNatural(x);
    return out;
  }
  return v;
}

/** Deep equality of natural JSON values (numbers by value, object keys in any order). */
function sameNatural(a, b) {
  if (typeof a === "number" && typeof b === "number") return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameNatural(x, b[i]));
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => k in b && sameNatural(a[k], b[k]));
  }
  return a === b;
}

/**
 * Exact canonical text of a decoded value, for comparing the browser with node: every
 * number by its shortest round-trip text with -0, NaN and the infinities kept apart (JSON
 * would fold them), bigint marked, object keys in their (insertion) order, Maps and bytes
 * tagged.
 */
function canon(v) {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "bigint") return v.toString() + "n";
  if (typeof v === "string") return JSON.stringify(v);
  if (v === undefined) return "undefined";
  if (v === null || typeof v === "boolean") return String(v);
  if (v instanceof Uint8Array) return "bin:" + toHex(v);
  if (v instanceof Map) return "Map{" + Array.from(v, ([k, x]) => canon(k) + "=>" + canon(x)).join(",") + "}";
  if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
  if (typeof v === "object") return "{" + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ":" + canon(x)).join(",") + "}";
  return typeof v;
}

function issueText(res) {
  if (res.ok) return "ok";
  const i = res.issues[0];
  return i === undefined ? "no issue" : `${i.code} at ${JSON.stringify(i.path)}: ${i.message}`;
}

/**
 * Valid vectors: decode both shapes, compare the natural value with Rust's, validate, and
 * re-encode to both shapes (bytes must equal Rust's). Returns one canonical line per vector
 * (compared with node's) and the disagreements with Rust.
 */
export function checkValid(dir, vectorsJson) {
  const vectors = JSON.parse(vectorsJson);
  const results = [];
  const bad = [];
  const messages = new Set();
  for (const v of vectors) {
    messages.add(v.message);
    const c = codecOf(dir, v.message);
    const where = `${v.message} ${v.mode}/${v.seed}`;
    const line = [];
    for (const shape of ["compact", "named"]) {
      const res = c.decode(fromHex(v[shape]));
      if (!res.ok) {
        bad.push(`${where} ${shape}: decode failed: ${issueText(res)}`);
        line.push(`${shape}: ${issueText(res)}`);
        continue;
      }
      line.push(`${shape}: ${canon(res.value)}`);
      const nat = toNatural(res.value);
      if (!sameNatural(nat, v.value)) bad.push(`${where} ${shape}: value ${JSON.stringify(nat)} != ${JSON.stringify(v.value)}`);
      const checked = c.validate(res.value);
      line.push(`validate ${issueText(checked)}`);
      if (!checked.ok) bad.push(`${where} ${shape}: validate: ${issueText(checked)}`);
      for (const out of ["compact", "named"]) {
        let hex;
        try {
          hex = toHex(c.encode(res.value, { shape: out }));
        } catch (e) {
          bad.push(`${where} ${shape} -> ${out}: encode threw ${String(e)}`);
          line.push(`-> ${out} threw ${String(e)}`);
          continue;
        }
        line.push(`-> ${out} ${hex}`);
        if (hex !== v[out]) bad.push(`${where} ${shape} -> ${out}: ${hex} != ${v[out]}`);
      }
    }
    results.push(line.join(" | "));
  }
  return { count: vectors.length, messages: messages.size, results, bad };
}

/**
 * Invalid vectors: decoding must fail with Rust's code and path (first issue). Returns one
 * line per vector (code, path, message: compared with node's) and the disagreements.
 */
export function checkInvalid(dir, vectorsJson) {
  const vectors = JSON.parse(vectorsJson);
  const results = [];
  const bad = [];
  const codes = new Set();
  let sameMessage = 0;
  for (const v of vectors) {
    codes.add(v.code);
    const res = codecOf(dir, v.message).decode(fromHex(v.bytes));
    results.push(issueText(res));
    if (res.ok) {
      bad.push(`${v.message} ${v.shape} ${v.what ?? ""}: decoded, expected ${v.code} at ${v.path}`);
      continue;
    }
    const first = res.issues[0];
    if (first === undefined || first.code !== v.code || first.path !== v.path) {
      bad.push(`${v.message} ${v.shape} ${v.what ?? ""} ${v.bytes}: ${first?.code} at ${first?.path} != ${v.code} at ${v.path}`);
      continue;
    }
    if (v.error === undefined || first.message === v.error) sameMessage++;
  }
  return { count: vectors.length, codes: codes.size, sameMessage, results, bad };
}

/**
 * The generated dispatcher without a WebSocket: every message of `validJson` (valid vectors)
 * is decoded, sent with `send(dir, socket, msg)` in both shapes through a MessageChannel (a
 * real structured-clone transport delivering ArrayBuffers, as a WebSocket with
 * binaryType "arraybuffer" does) into `createDispatcher(dir, handlers).onBytes`; the handler
 * must get the same message, re-encoding to Rust's compact bytes. Invalid vectors in an
 * envelope, an unknown id and a Colyseus-style `onPayload` are dropped and counted with the
 * right name, code and path; the connection (the dispatcher) keeps working.
 */
export async function dispatchRoundTrip(dir, validJson, invalidJson) {
  const d = directions[dir];
  const valid = JSON.parse(validJson);
  const invalid = JSON.parse(invalidJson);
  const bad = [];
  const got = [];
  const dropped = [];
  const handlers = {};
  for (const name of Object.keys(d.byName)) handlers[name] = (value, n) => got.push({ name: n, value });
  const dispatcher = createDispatcher(d, handlers, { onInvalid: (name, issues) => dropped.push({ name, issue: issues[0] }) });

  // Decode the vectors once; these are the messages sent.
  const sent = [];
  let skippedValid = 0;
  let skippedInvalid = 0;
  for (const v of valid) {
    // A delta message travels as a tracker's payload (tests/ts delta_dispatch.test.ts), not whole.
    if (codecOf(dir, v.message).delta !== undefined) {
      skippedValid++;
      continue;
    }
    const res = codecOf(dir, v.message).decode(fromHex(v.compact));
    if (!res.ok) {
      bad.push(`${v.message}: vector does not decode: ${issueText(res)}`);
      continue;
    }
    for (const shape of ["compact", "named"]) sent.push({ msg: { name: v.message, value: res.value }, shape, compact: v.compact });
  }

  const { port1, port2 } = new MessageChannel();
  const frames = [];
  let delivered = 0;
  const allDelivered = new Promise((resolve) => {
    port2.onmessage = (e) => {
      if (!(e.data instanceof ArrayBuffer)) bad.push(`frame ${delivered} arrived as ${Object.prototype.toString.call(e.data)}`);
      frames.push(e.data);
      delivered++;
      if (delivered === sent.length) resolve();
    };
  });
  const socket = {
    send(bytes) {
      // A fresh ArrayBuffer holding exactly the frame, transferred as a socket would.
      const buf = bytes.slice().buffer;
      port1.postMessage(buf, [buf]);
    },
  };
  for (const s of sent) send(d, socket, s.msg, { shape: s.shape });
  if (sent.length > 0) {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`only ${delivered} of ${sent.length} frames arrived`)), 20000);
    });
    try {
      await Promise.race([allDelivered, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
  port1.close();
  port2.close();

  let handled = 0;
  frames.forEach((frame, i) => {
    const s = sent[i];
    const before = got.length;
    if (dispatcher.onBytes(frame) !== true) {
      bad.push(`${s.msg.name} (${s.shape}): onBytes did not run its handler: ${JSON.stringify(dropped.at(-1))}`);
      return;
    }
    const g = got[before];
    if (got.length !== before + 1 || g.name !== s.msg.name) {
      bad.push(`${s.msg.name} (${s.shape}): handler got ${g?.name}`);
      return;
    }
    const hex = toHex(codecOf(dir, g.name).encode(g.value));
    if (hex !== s.compact) bad.push(`${s.msg.name} (${s.shape}): handler value re-encodes to ${hex} != ${s.compact}`);
    else handled++;
  });

  // Colyseus-style: the transport framed the name; the payload is a decoded value or bytes.
  let payloads = 0;
  for (const s of sent) {
    if (s.shape !== "compact") continue;
    const c = codecOf(dir, s.msg.name);
    for (const payload of [c.toWire(s.msg.value), c.toWire(s.msg.value, { shape: "named" }), c.encode(s.msg.value)]) {
      if (dispatcher.onPayload(s.msg.name, payload) === true) payloads++;
      else bad.push(`${s.msg.name}: onPayload dropped ${JSON.stringify(dropped.at(-1))}`);
    }
  }

  // Invalid input: dropped, counted under its name, reported with Rust's code and path.
  let droppedOk = 0;
  for (const v of invalid) {
    // A delta message's bytes go to its Mirror, whose verdicts tests/ts delta_dispatch.test.ts checks.
    if (codecOf(dir, v.message)?.delta !== undefined) {
      skippedInvalid++;
      continue;
    }
    const c = codecOf(dir, v.message);
    const w = new Uint8Array([...envelopeId(c.id), ...fromHex(v.bytes)]);
    const before = dispatcher.dropped[v.message] ?? 0;
    const ran = dispatcher.onBytes(w.buffer);
    const last = dropped.at(-1);
    if (ran !== false || (dispatcher.dropped[v.message] ?? 0) !== before + 1 || last?.name !== v.message) {
      bad.push(`${v.message} ${v.bytes}: invalid envelope not dropped under its name (ran ${ran})`);
    } else if (last.issue?.code !== v.code || last.issue?.path !== v.path) {
      bad.push(`${v.message} ${v.bytes}: dropped with ${last.issue?.code} at ${last.issue?.path} != ${v.code} at ${v.path}`);
    } else droppedOk++;
  }
  const unknownId = dispatcher.onBytes(Uint8Array.from([0xcd, 0x27, 0x0f, 0x90]));
  if (unknownId !== false || dispatcher.dropped["#9999"] !== 1) bad.push("unknown id 9999 not dropped as #9999");
  if (dispatcher.onPayload("no:such-message", []) !== false || dispatcher.dropped["#no:such-message"] !== 1) {
    bad.push("unknown name not dropped");
  }
  // Still dispatching after all that.
  if (sent.length > 0 && dispatcher.onBytes(envelope(d, sent[0].msg)) !== true) bad.push("dispatcher stopped after dropped input");

  return { frames: frames.length, handled, payloads, dropped: droppedOk, bad, skippedValid, skippedInvalid };
}

/** The msgpack uint encoding of an envelope id (smallest form). */
function envelopeId(id) {
  if (id < 0x80) return [id];
  if (id < 0x100) return [0xcc, id];
  if (id < 0x10000) return [0xcd, id >> 8, id & 0xff];
  return [0xce, (id >>> 24) & 0xff, (id >> 16) & 0xff, (id >> 8) & 0xff, id & 0xff];
}

function strHeader(n) {
  if (n < 32) return [0xa0 | n];
  if (n < 0x100) return [0xd9, n];
  return [0xda, n >> 8, n & 0xff];
}

function codeOf(f) {
  try {
    f();
  } catch (e) {
    if (e instanceof TupletError) return `${e.code} at ${JSON.stringify(e.path)}`;
    return `threw ${String(e)}`;
  }
  return "ok";
}

/**
 * Strings through the platform's TextEncoder/TextDecoder: well-formed strings (emoji,
 * CJK, accents, a BOM, long enough for the TextDecoder path) encode to exactly the bytes
 * TextEncoder gives and decode back; a lone surrogate is rejected as invalid_utf8 (where
 * TextEncoder would silently write U+FFFD); ill-formed UTF-8 on the wire is rejected as
 * invalid_utf8 at its path (the fatal TextDecoder), as Rust's from_utf8 does.
 */
export function utf8Checks() {
  const bad = [];
  let passed = 0;
  const check = (what, ok, detail) => {
    if (ok) passed++;
    else bad.push(`${what}: ${detail}`);
  };
  check("TextEncoder and TextDecoder exist", typeof TextEncoder === "function" && typeof TextDecoder === "function", "missing");
  const enc = new TextEncoder();
  const texts = [
    "hi 😀",
    "😀",
    "a😀b中é",
    "\u{feff}bom kept",
    "grüße aus dem Dorf 🏡🐦 — ".repeat(4),
    "\u{10ffff}\u{e000}\u{ffff}\u{7ff}\u{80}",
    "x".repeat(70) + "é",
  ];
  for (const text of texts) {
    const utf8 = enc.encode(text);
    check(`encodeUtf8(${JSON.stringify(text)})`, toHex(encodeUtf8(text)) === toHex(utf8), `${toHex(encodeUtf8(text))} != TextEncoder ${toHex(utf8)}`);
    const msg = { text, channel: Channel.Room }; // the constant holds the variant name
    let bytes;
    try {
      bytes = ChatSayCodec.encode(msg);
    } catch (e) {
      check(`encode ${JSON.stringify(text)}`, false, String(e));
      continue;
    }
    const want = toHex(new Uint8Array([0x92, ...strHeader(utf8.length), ...utf8, Channel$numbers.Room]));
    check(`ChatSay ${JSON.stringify(text)} bytes`, toHex(bytes) === want, `${toHex(bytes)} != ${want}`);
    const back = ChatSayCodec.decode(bytes);
    check(`ChatSay ${JSON.stringify(text)} decodes`, back.ok && back.value.text === text, issueText(back) + (back.ok ? ` ${JSON.stringify(back.value.text)}` : ""));
    const named = ChatSayCodec.decode(ChatSayCodec.encode(msg, { shape: "named" }));
    check(`ChatSay ${JSON.stringify(text)} named`, named.ok && named.value.text === text, issueText(named));
  }
  // Lone surrogates: no UTF-8 form; TextEncoder replaces them, tuplet refuses them.
  for (const text of ["\ud800", "a\ud83d", "\ude00x", "x\udc00\ud800y"]) {
    check(`TextEncoder replaces ${JSON.stringify(text)}`, toHex(enc.encode(text)).includes("efbfbd"), toHex(enc.encode(text)));
    const msg = { text, channel: "Local" };
    check(`encode ${JSON.stringify(text)}`, codeOf(() => ChatSayCodec.encode(msg)) === 'invalid_utf8 at "text"', codeOf(() => ChatSayCodec.encode(msg)));
    check(`encode named ${JSON.stringify(text)}`, codeOf(() => ChatSayCodec.encode(msg, { shape: "named" })) === 'invalid_utf8 at "text"', codeOf(() => ChatSayCodec.encode(msg, { shape: "named" })));
    const v = ChatSayCodec.validate(msg);
    check(`validate ${JSON.stringify(text)}`, !v.ok && v.issues[0]?.code === "invalid_utf8" && v.issues[0]?.path === "text", issueText(v));
    check(`encodeUtf8 ${JSON.stringify(text)}`, codeOf(() => encodeUtf8(text)) === 'invalid_utf8 at ""', codeOf(() => encodeUtf8(text)));
  }
  // Ill-formed UTF-8 on the wire (what Rust's from_utf8 rejects): a surrogate, an overlong
  // form, a truncated emoji, a stray continuation byte, above U+10FFFF; short and long.
  const badUtf8 = [[0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf0, 0x9f, 0x98], [0x61, 0x80], [0xf4, 0x90, 0x80, 0x80], [...enc.encode("y".repeat(80)), 0xff]];
  for (const b of badUtf8) {
    const bytes = new Uint8Array([0x92, ...strHeader(b.length), ...b, 0x00]);
    const res = ChatSayCodec.decode(bytes);
    check(`decode ${toHex(bytes)}`, !res.ok && res.issues[0]?.code === "invalid_utf8" && res.issues[0]?.path === "text", issueText(res));
  }
  return { passed, bad };
}

/** What ran the checks. */
export function environment() {
  return typeof navigator === "object" ? navigator.userAgent : `node ${globalThis.process?.version ?? "?"}`;
}

globalThis.tupletBrowserTest = { checkValid, checkInvalid, dispatchRoundTrip, utf8Checks, environment };
