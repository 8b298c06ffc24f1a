// The browser side of tests/browser/webtransport.mjs: two village clients built from the
// generated package, each connected with the runtime's `connect` (WebTransport with the
// server's development certificate hash, WebSocket when that fails), playing against the
// Rust village server on loopback. `globalThis.wtTest.play(...)` returns plain data.

import { Mirror, PROTOCOL_VERSION, c2s, connect, createDispatcher, s2c, send } from "../../../generated/ts/src/index.ts";

const WAIT_MS = 10_000;

function timeout(what) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), WAIT_MS));
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One village client: a transport, a dispatcher of every server message, an inbox. */
class Client {
  constructor(name) {
    this.name = name;
    this.inbox = [];
    this.waiters = [];
    this.snapshots = 0;
    this.acks = 0;
    this.refused = 0;
    this.invalid = [];
    this.dispatcher = createDispatcher(
      s2c,
      {
        ...Object.fromEntries(Object.keys(s2c.byName).map((n) => [n, (value, name) => this.push({ name, value })])),
        "world:snapshot": () => {
          this.snapshots += 1;
          // Over WebTransport: acknowledge each snapshot applied (a datagram).
          if (this.mirror !== undefined) {
            this.send("world:ack", { n: this.mirror.ack });
            this.acks += 1;
          }
        },
      },
      {
        onInvalid: (name, issues) => {
          // A late or duplicated datagram, refused by the acknowledged mirror: nothing changed.
          if (this.mirror !== undefined && name === "world:snapshot" && issues[0].code === "no_baseline") this.refused += 1;
          else this.invalid.push(`${name}: ${issues[0].code}`);
        },
      },
    );
  }

  /** Connects and joins; `connectedMs` is how long `connect` took. */
  static async join(target, name) {
    const c = new Client(name);
    const t0 = performance.now();
    c.transport = await Promise.race([
      connect({ ...target, onBytes: (bytes) => c.dispatcher.onBytes(bytes) }),
      timeout(`${name} connecting`),
    ]);
    c.connectedMs = performance.now() - t0;
    // Snapshots over WebTransport come as datagrams, deltas against the acknowledged one:
    // the mirror of the acknowledged mode, and a `world:ack` for each one applied.
    if (c.transport.kind === "webtransport") {
      c.mirror = Mirror.acked(s2c.byName["world:snapshot"].delta);
      c.dispatcher.mirrors["world:snapshot"] = c.mirror;
    }
    c.send("session:hello", { protocol: PROTOCOL_VERSION, build: "browser-wt", locale: "en" });
    c.session = (await c.waitFor("session:welcome")).s;
    c.send("player:join", { name, colour: 0x3366cc });
    const joined = await c.waitFor("player:joined", (j) => j.s === c.session);
    c.spawn = [joined.spawn.x, joined.spawn.y, joined.spawn.z];
    return c;
  }

  push(msg) {
    const w = this.waiters.findIndex((x) => x.name === msg.name && x.pred(msg.value));
    if (w < 0) this.inbox.push(msg);
    else this.waiters.splice(w, 1)[0].resolve(msg.value);
  }

  waitFor(name, pred = () => true) {
    const i = this.inbox.findIndex((m) => m.name === name && pred(m.value));
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0].value);
    return Promise.race([new Promise((resolve) => this.waiters.push({ name, pred, resolve })), timeout(`${this.name} waiting for ${name}`)]);
  }

  send(name, value) {
    send(c2s, this.transport, { name, value });
  }
}

/**
 * Fetches the certificate hash from the server's `GET /webtransport` (`info`), connects two
 * clients to `wt` (falling back to `ws`), walks one 20 steps and counts what the other saw.
 */
async function play({ ws, wt, info }) {
  let certificateHash;
  let port;
  if (info !== undefined) {
    const answer = await (await fetch(info)).json();
    certificateHash = answer.certificateHash;
    port = answer.port;
  }
  const target = { websocket: ws, webtransport: wt === undefined ? undefined : { url: wt, certificateHash } };
  const walker = await Client.join(target, "walker");
  const watcher = await Client.join(target, "watcher");
  for (let i = 1; i <= 20; i++) {
    walker.send("player:move", { p: [walker.spawn[0], 0, walker.spawn[2] + i * 0.1], r: 0.5, t: 1_764_000_000_000 + i * 100, seq: i });
    await sleep(20);
  }
  // A few ticks of snapshots and the relayed moves.
  await sleep(600);
  const seen = watcher.inbox.filter((m) => m.name === "player:move" && m.value.s === walker.session).length;
  const out = {
    kinds: [walker.transport.kind, watcher.transport.kind],
    connectedMs: [walker.connectedMs, watcher.connectedMs],
    port,
    certificateHash,
    walker: { ...walker.transport.counts },
    watcher: { ...watcher.transport.counts },
    seen,
    snapshots: [walker.snapshots, watcher.snapshots],
    acks: [walker.acks, watcher.acks],
    refused: [walker.refused, watcher.refused],
    invalid: [...walker.invalid, ...watcher.invalid],
  };
  walker.transport.close();
  watcher.transport.close();
  return out;
}

globalThis.wtTest = { play };
