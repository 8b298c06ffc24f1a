// The runtime's transport (codegen/ts-runtime/transport.ts) without a network:
// - stream frames: the length prefix is a QUIC variable-length integer at RFC 9000's
//   boundaries, and frames cut at any byte come out whole (the Rust server's webtransport/frames.rs
//   has the same cases);
// - `connect` over stand-in WebTransport and WebSocket constructors: a session that never
//   becomes ready falls back to the WebSocket after `timeoutMs`; a ready one carries
//   `unreliable` messages (`player:move`) as datagrams through `send` and the rest framed on
//   the stream, and what arrives on either channel reaches `onBytes`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { c2s, connect, send } from "../../../generated/ts/src/index.js";
import { FrameReader, framed } from "../../../generated/ts/src/runtime/transport.js";
import type { WebSocketCtor, WebTransportCtor } from "../../../generated/ts/src/runtime/transport.js";

test("frame prefixes follow QUIC variable-length integers", () => {
  const width = (n: number): number => framed(new Uint8Array(n)).length - n;
  assert.deepEqual([63, 64, 16383, 16384].map(width), [1, 2, 2, 4]);
  // RFC 9000 §A.1: 15,293 is 0x7bbd.
  assert.deepEqual([...framed(new Uint8Array(15293)).subarray(0, 2)], [0x7b, 0xbd]);
});

test("frames cut at every byte come out whole and in order", () => {
  const frames = [0, 1, 63, 64, 300, 20000].map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff));
  const wire = Uint8Array.from(frames.flatMap((f) => [...framed(f)]));
  for (const step of [1, 2, 3, 7, 1000, wire.length]) {
    const r = new FrameReader();
    const got: number[][] = [];
    for (let at = 0; at < wire.length; at += step) {
      for (const f of r.push(wire.subarray(at, at + step))) got.push([...f]);
    }
    assert.deepEqual(got, frames.map((f) => [...f]), `chunks of ${step}`);
  }
});

test("a frame over the cap is refused from its prefix", () => {
  assert.throws(() => new FrameReader(4096).push(Uint8Array.of(0x80, 0x01, 0x00, 0x00)), RangeError);
});

/** A stand-in stream end: writes are recorded, reads come from `feed`. */
function duplex(written: Uint8Array[]) {
  const queue: Uint8Array[] = [];
  let wake: (() => void) | undefined;
  return {
    feed(chunk: Uint8Array) {
      queue.push(chunk);
      wake?.();
    },
    readable: {
      getReader: () => ({
        async read(): Promise<{ done: boolean; value?: Uint8Array | undefined }> {
          while (queue.length === 0) await new Promise<void>((r) => (wake = r));
          return { done: false, value: queue.shift() };
        },
      }),
    },
    writable: {
      getWriter: () => ({
        async write(chunk: Uint8Array) {
          written.push(chunk);
        },
      }),
    },
  };
}

class FakeWebSocket {
  static opened: FakeWebSocket[] = [];
  binaryType = "blob";
  readyState = 0;
  sent: Uint8Array[] = [];
  listeners = new Map<string, (e: { data?: unknown }) => void>();
  constructor(readonly url: string) {
    FakeWebSocket.opened.push(this);
    setTimeout(() => this.listeners.get("open")?.({}), 1);
  }
  send(data: Uint8Array) {
    this.sent.push(data);
  }
  close() {}
  addEventListener(type: string, f: (e: { data?: unknown }) => void) {
    this.listeners.set(type, f);
  }
}

test("a WebTransport session that never gets ready falls back to the WebSocket", async () => {
  class Stuck {
    ready = new Promise(() => {});
    closed = new Promise<undefined>(() => {});
    datagrams = duplex([]);
    createBidirectionalStream = () => new Promise<never>(() => {});
    close() {}
  }
  const t0 = Date.now();
  const t = await connect({
    webtransport: { url: "https://127.0.0.1:1/village", certificateHash: "00".repeat(32) },
    websocket: "ws://127.0.0.1:1/village",
    onBytes: () => {},
    timeoutMs: 50,
    WebTransport: Stuck as unknown as WebTransportCtor,
    WebSocket: FakeWebSocket as unknown as WebSocketCtor,
  });
  assert.equal(t.kind, "websocket");
  assert.ok(Date.now() - t0 >= 45, "waited for the timeout");
  // Over a WebSocket an unreliable message is one frame like any other.
  send(c2s, t, { name: "player:move", value: { p: [1, 0, 2], r: 0.5, t: 1, seq: 1 } });
  assert.equal(FakeWebSocket.opened.at(-1)?.sent.length, 1);
  assert.equal(t.counts.sentDatagrams, 0);
});

test("over WebTransport, unreliable messages go as datagrams and the rest framed on the stream", async () => {
  const streamOut: Uint8Array[] = [];
  const datagramsOut: Uint8Array[] = [];
  const stream = duplex(streamOut);
  const datagrams = Object.assign(duplex(datagramsOut), { maxDatagramSize: 1200 });
  let options: unknown;
  class Ready {
    ready = Promise.resolve();
    closed = new Promise<undefined>(() => {});
    datagrams = datagrams;
    constructor(_url: string, o: unknown) {
      options = o;
    }
    createBidirectionalStream = async () => stream;
    close() {}
  }
  const got: number[][] = [];
  const t = await connect({
    webtransport: { url: "https://127.0.0.1:1/village", certificateHash: "ab".repeat(32) },
    websocket: "ws://127.0.0.1:1/village",
    onBytes: (b) => got.push([...b]),
    WebTransport: Ready as unknown as WebTransportCtor,
  });
  assert.equal(t.kind, "webtransport");
  const hashes = (options as { serverCertificateHashes: { algorithm: string; value: Uint8Array }[] }).serverCertificateHashes;
  assert.equal(hashes[0]?.algorithm, "sha-256");
  assert.deepEqual([...(hashes[0]?.value ?? [])], new Array(32).fill(0xab));

  send(c2s, t, { name: "session:hello", value: { protocol: 2, build: "test", locale: "en" } });
  send(c2s, t, { name: "player:move", value: { p: [1, 0, 2], r: 0.5, t: 1, seq: 1 } });
  await new Promise((r) => setTimeout(r, 1));
  assert.equal(datagramsOut.length, 1, "the move went as a datagram");
  assert.equal(datagramsOut[0]?.[0], 1, "the datagram is the envelope: id 1 first");
  assert.equal(streamOut.length, 1, "the hello went on the stream");
  const hello = new FrameReader().push(streamOut[0] ?? new Uint8Array());
  assert.equal(hello.length, 1, "one framed envelope");

  // Frames arrive from both channels, a stream frame split across chunks.
  const frame = framed(Uint8Array.of(7, 8, 9));
  stream.feed(frame.subarray(0, 2));
  stream.feed(frame.subarray(2));
  datagrams.feed(Uint8Array.of(1, 2));
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(got.sort(), [[1, 2], [7, 8, 9]]);
  assert.deepEqual(t.counts, { sentDatagrams: 1, sentStream: 1, receivedDatagrams: 1, receivedStream: 1 });
});

test("an unreliable message larger than a datagram goes on the stream", async () => {
  const streamOut: Uint8Array[] = [];
  const datagramsOut: Uint8Array[] = [];
  const move = { name: "player:move" as const, value: { p: [1, 0, 2] as [number, number, number], r: 0.5, t: 1, seq: 1 } };
  // The move's envelope, as a WebSocket would send it: its size sets the datagram limit.
  const ws = await connect({
    websocket: "ws://127.0.0.1:1/village",
    onBytes: () => {},
    WebSocket: FakeWebSocket as unknown as WebSocketCtor,
  });
  send(c2s, ws, move);
  const size = FakeWebSocket.opened.at(-1)?.sent[0]?.length ?? 0;
  assert.ok(size > 1, `the move's envelope is ${size} bytes`);
  for (const [max, datagrams, frames] of [
    [size, 1, 0],
    [size - 1, 0, 1],
  ] as const) {
    streamOut.length = 0;
    datagramsOut.length = 0;
    class Small {
      ready = Promise.resolve();
      closed = new Promise<undefined>(() => {});
      datagrams = Object.assign(duplex(datagramsOut), { maxDatagramSize: max });
      createBidirectionalStream = async () => duplex(streamOut);
      close() {}
    }
    const t = await connect({
      webtransport: { url: "https://127.0.0.1:1/village", certificateHash: "ab".repeat(32) },
      websocket: "ws://127.0.0.1:1/village",
      onBytes: () => {},
      WebTransport: Small as unknown as WebTransportCtor,
    });
    send(c2s, t, move);
    await new Promise((r) => setTimeout(r, 1));
    assert.equal(datagramsOut.length, datagrams, `max ${max}: datagrams`);
    assert.equal(streamOut.length, frames, `max ${max}: stream frames`);
    assert.deepEqual([t.counts.sentDatagrams, t.counts.sentStream], [datagrams, frames]);
  }
});
