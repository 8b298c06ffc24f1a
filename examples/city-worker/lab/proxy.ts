/**
 * A loopback TCP proxy between the bots and workerd that counts the bytes each way on every
 * connection: what the WebSocket really puts on the socket (the HTTP upgrade, frame headers,
 * permessage-deflate as negotiated), not an estimate.
 */

import net from "node:net";

/** Bytes of one proxied connection, each way. */
export interface Flow {
  up: number;
  down: number;
  open: boolean;
}

/** A running proxy: its port, and every connection's bytes so far. */
export interface Proxy {
  readonly port: number;
  readonly flows: Flow[];
  /** Bytes each way summed over every connection so far. */
  totals(): { up: number; down: number };
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (a free port) and forwards to `target` on 127.0.0.1. */
export function startProxy(target: number): Promise<Proxy> {
  const flows: Flow[] = [];
  const server = net.createServer((client) => {
    const flow: Flow = { up: 0, down: 0, open: true };
    flows.push(flow);
    client.setNoDelay(true);
    const upstream = net.connect({ host: "127.0.0.1", port: target });
    upstream.setNoDelay(true);
    client.on("data", (b: Buffer) => {
      flow.up += b.length;
      if (!upstream.write(b)) client.pause();
    });
    upstream.on("drain", () => client.resume());
    upstream.on("data", (b: Buffer) => {
      flow.down += b.length;
      if (!client.write(b)) upstream.pause();
    });
    client.on("drain", () => upstream.resume());
    const end = (): void => {
      flow.open = false;
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({
        port,
        flows,
        totals() {
          let up = 0;
          let down = 0;
          for (const f of flows) {
            up += f.up;
            down += f.down;
          }
          return { up, down };
        },
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            for (const f of flows) f.open = false;
          }),
      });
    });
  });
}
