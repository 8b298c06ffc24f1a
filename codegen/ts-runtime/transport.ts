/**
 * A connection to a room server: WebTransport (HTTP/3) when the browser, the network and
 * the server allow it, else a WebSocket, behind one `SocketLike`, so a dispatcher and `send`
 * work the same over either. Over WebTransport a message declared `#[tuplet(unreliable)]`
 * goes as a datagram when it fits (`send` calls `sendDatagram`), everything else on one
 * bidirectional stream, each frame after its length as a QUIC variable-length integer (RFC
 * 9000 §16), as the Rust server's `webtransport/frames.rs` reads and writes them.
 *
 * No DOM types: the browser's `WebTransport` and `WebSocket` are reached through
 * `globalThis` (or passed in) and used through the small structural interfaces below.
 */

/** How a frame (an envelope: id, then payload) travels. */
export type TransportKind = "webtransport" | "websocket";

/** An open connection: a `SocketLike` (`send`) plus datagrams where there are any. */
export interface Transport {
  /** Which transport it is. */
  readonly kind: TransportKind;
  /** Sends a frame on the reliable, ordered channel. */
  send(data: Uint8Array<ArrayBuffer>): void;
  /** Sends a frame as a datagram when it fits (over WebTransport), else as `send` does. */
  sendDatagram(data: Uint8Array<ArrayBuffer>): void;
  /** Ends the connection. */
  close(code?: number, reason?: string): void;
  /** Settles when the connection ended, with its close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Frames sent and received, as datagrams and on the stream (or the WebSocket). */
  readonly counts: Counts;
}

/** Frames a transport sent and received, by channel. */
export interface Counts {
  sentDatagrams: number;
  sentStream: number;
  receivedDatagrams: number;
  receivedStream: number;
}

function newCounts(): Counts {
  return { sentDatagrams: 0, sentStream: 0, receivedDatagrams: 0, receivedStream: 0 };
}

/** Where and how to connect. */
export interface ConnectOptions {
  /** The WebTransport URL (`https://host:port/room`) and its certificate's SHA-256 in hex (a self-signed development certificate, as the server's `GET /webtransport` gives it); left out: WebSocket only. */
  readonly webtransport?: { readonly url: string; readonly certificateHash?: string | undefined } | undefined;
  /** The WebSocket URL (`ws://host:port/room`), the fallback. */
  readonly websocket: string;
  /** Called with every frame that arrives, from either channel. */
  readonly onBytes: (bytes: Uint8Array) => void;
  /** How long WebTransport may take to be ready before the WebSocket is tried, ms (1500). */
  readonly timeoutMs?: number | undefined;
  /** The constructors to use (default: the browser's, from `globalThis`). */
  readonly WebTransport?: WebTransportCtor | undefined;
  readonly WebSocket?: WebSocketCtor | undefined;
}

// The parts of the browser's streams and sockets used here.
interface ChunkReader {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
}
interface ChunkWriter {
  write(chunk: Uint8Array): Promise<void>;
}
interface Duplex {
  readonly readable: { getReader(): ChunkReader };
  readonly writable: { getWriter(): ChunkWriter };
}
interface WebTransportLike {
  readonly ready: Promise<unknown>;
  readonly closed: Promise<{ closeCode?: number; reason?: string } | undefined>;
  readonly datagrams: Duplex & { readonly maxDatagramSize?: number };
  createBidirectionalStream(): Promise<Duplex>;
  close(info?: { closeCode?: number; reason?: string }): void;
}
/** A WebTransport constructor (the browser's takes these options). */
export type WebTransportCtor = new (
  url: string,
  options?: { serverCertificateHashes?: { algorithm: string; value: Uint8Array<ArrayBuffer> }[] },
) => WebTransportLike;
interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: Uint8Array<ArrayBuffer>): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: { data?: unknown; code?: number; reason?: string }) => void): void;
}
/** A WebSocket constructor. */
export type WebSocketCtor = new (url: string) => WebSocketLike;

interface Timers {
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
const g = globalThis as unknown as Timers & { WebTransport?: WebTransportCtor; WebSocket?: WebSocketCtor };

/** Appends `frame` after its length as a QUIC variable-length integer (1, 2 or 4 bytes). */
export function putFrame(o: Uint8Array, frame: Uint8Array, at = 0): number {
  const n = frame.length;
  let w: number;
  if (n < 64) {
    o[at] = n;
    w = 1;
  } else if (n < 16384) {
    o[at] = 0x40 | (n >> 8);
    o[at + 1] = n & 0xff;
    w = 2;
  } else {
    o[at] = 0x80 | ((n >>> 24) & 0x3f);
    o[at + 1] = (n >>> 16) & 0xff;
    o[at + 2] = (n >>> 8) & 0xff;
    o[at + 3] = n & 0xff;
    w = 4;
  }
  o.set(frame, at + w);
  return at + w + n;
}

/** `frame` after its length prefix, as one new array. */
export function framed(frame: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(frame.length + (frame.length < 64 ? 1 : frame.length < 16384 ? 2 : 4));
  putFrame(out, frame);
  return out;
}

/** Cuts a stream's chunks into frames (each at most `cap` bytes; a longer prefix throws). */
export class FrameReader {
  private buf: Uint8Array = new Uint8Array(4096);
  private start = 0;
  private end = 0;
  private readonly cap: number;
  /** A reader of frames up to `cap` bytes (1 MiB by default). */
  constructor(cap: number = 1 << 20) {
    this.cap = cap;
  }

  /** Adds a chunk; returns the frames now whole, in order (each a copy). */
  push(chunk: Uint8Array): Uint8Array[] {
    const live = this.end - this.start;
    if (this.end + chunk.length > this.buf.length) {
      // Move what is left to the front, in a bigger buffer when it does not fit.
      const need = live + chunk.length;
      const next = need > this.buf.length ? new Uint8Array(Math.max(2 * this.buf.length, need)) : this.buf;
      next.set(this.buf.subarray(this.start, this.end));
      this.buf = next;
      this.start = 0;
      this.end = live;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
    const frames: Uint8Array[] = [];
    const b = this.buf;
    while (this.start < this.end) {
      const first = b[this.start] ?? 0;
      const width = 1 << (first >> 6);
      if (width === 8) throw new RangeError("an 8-byte frame length");
      if (this.end - this.start < width) break;
      let len = first & 0x3f;
      for (let i = 1; i < width; i++) len = len * 256 + (b[this.start + i] ?? 0);
      if (len > this.cap) throw new RangeError(`a frame of ${len} bytes is over the cap of ${this.cap}`);
      if (this.end - this.start - width < len) break;
      frames.push(b.slice(this.start + width, this.start + width + len));
      this.start += width + len;
    }
    if (this.start === this.end) this.start = this.end = 0;
    return frames;
  }
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

async function pump(reader: ChunkReader, each: (chunk: Uint8Array) => void): Promise<void> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value !== undefined) each(value);
  }
}

/** Opens WebTransport, ready within `ms`, or throws. */
async function openWebTransport(
  Ctor: WebTransportCtor,
  target: { readonly url: string; readonly certificateHash?: string | undefined },
  ms: number,
  onBytes: (bytes: Uint8Array) => void,
): Promise<Transport> {
  const hashes = target.certificateHash === undefined ? undefined : [{ algorithm: "sha-256", value: hexBytes(target.certificateHash) }];
  const wt = new Ctor(target.url, hashes === undefined ? {} : { serverCertificateHashes: hashes });
  let timer: unknown;
  const late = new Promise<never>((_, reject) => {
    timer = g.setTimeout(() => reject(new Error(`WebTransport not ready within ${ms} ms`)), ms);
  });
  let stream: Duplex;
  try {
    await Promise.race([wt.ready, late]);
    stream = await Promise.race([wt.createBidirectionalStream(), late]);
  } catch (e) {
    wt.closed.catch(() => undefined);
    try {
      wt.close();
    } catch {
      // Closing a session that never opened may throw; it is gone either way.
    }
    throw e;
  } finally {
    g.clearTimeout(timer);
  }
  const writer = stream.writable.getWriter();
  const datagrams = wt.datagrams.writable.getWriter();
  const frames = new FrameReader();
  const ignore = (): void => undefined;
  const counts = newCounts();
  void pump(stream.readable.getReader(), (chunk) => {
    for (const f of frames.push(chunk)) {
      counts.receivedStream++;
      onBytes(f);
    }
  }).catch(ignore);
  void pump(wt.datagrams.readable.getReader(), (d) => {
    counts.receivedDatagrams++;
    onBytes(d);
  }).catch(ignore);
  const send = (data: Uint8Array<ArrayBuffer>): void => {
    counts.sentStream++;
    writer.write(framed(data)).catch(ignore);
  };
  return {
    kind: "webtransport",
    send,
    sendDatagram(data) {
      const max = wt.datagrams.maxDatagramSize ?? 1024;
      if (data.length > max) return send(data);
      counts.sentDatagrams++;
      datagrams.write(data).catch(ignore);
    },
    close(code = 1000, reason = "") {
      wt.close({ closeCode: code, reason });
    },
    closed: wt.closed.then(
      (info) => ({ code: info?.closeCode ?? 0, reason: info?.reason ?? "" }),
      (e: unknown) => ({ code: 0, reason: String(e) }),
    ),
    counts,
  };
}

/** Opens a WebSocket (binary frames as `ArrayBuffer`s), or throws when it cannot. */
function openWebSocket(Ctor: WebSocketCtor, url: string, onBytes: (bytes: Uint8Array) => void): Promise<Transport> {
  return new Promise((resolve, reject) => {
    const ws = new Ctor(url);
    ws.binaryType = "arraybuffer";
    let open = false;
    const counts = newCounts();
    const closed = new Promise<{ code: number; reason: string }>((done) => {
      ws.addEventListener("close", (e) => {
        done({ code: e.code ?? 0, reason: e.reason ?? "" });
        if (!open) reject(new Error(`WebSocket ${url} closed before it opened (${e.code ?? 0})`));
      });
    });
    ws.addEventListener("message", (e) => {
      if (!(e.data instanceof ArrayBuffer)) return;
      counts.receivedStream++;
      onBytes(new Uint8Array(e.data));
    });
    ws.addEventListener("open", () => {
      open = true;
      const send = (data: Uint8Array<ArrayBuffer>): void => {
        counts.sentStream++;
        ws.send(data);
      };
      resolve({ kind: "websocket", send, sendDatagram: send, close: (code, reason) => ws.close(code, reason), closed, counts });
    });
  });
}

/**
 * Connects: WebTransport first when `webtransport` is given and the browser has it, ready
 * within `timeoutMs`; else (or when it fails) the WebSocket. Every frame that arrives goes
 * to `onBytes` (a dispatcher's `onBytes`); `send(dir, transport, msg)` sends.
 */
export async function connect(options: ConnectOptions): Promise<Transport> {
  const WT = options.WebTransport ?? g.WebTransport;
  if (options.webtransport !== undefined && WT !== undefined) {
    try {
      return await openWebTransport(WT, options.webtransport, options.timeoutMs ?? 1500, options.onBytes);
    } catch {
      // Blocked UDP, no HTTP/3, a refused certificate: the WebSocket below.
    }
  }
  const WS = options.WebSocket ?? g.WebSocket;
  if (WS === undefined) throw new Error("no WebSocket in this runtime");
  return openWebSocket(WS, options.websocket, options.onBytes);
}
