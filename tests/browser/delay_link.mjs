// A delaying WebSocket relay for the browser tests: the page connects to it, it connects to
// the real server, and every server-to-page message is held for a latency drawn from one of
// the netcode lab's link profiles (examples/netcode-lab/src/links.ts, the lab's own code,
// bundled by esbuild), seeded, and delivered in order like one WebSocket (a message never
// overtakes the one before it: delivery at max(arrival + latency, previous delivery)).
// Page-to-server messages pass at once. `ws` (tests/ts's, pinned) on both sides.

import { createRequire } from "node:module";
import { join } from "node:path";

import { root } from "./harness.mjs";

const requireTs = createRequire(join(root, "tests", "ts", "package.json"));
const { build } = requireTs("esbuild");
const { WebSocket, WebSocketServer } = requireTs("ws");

/** The lab's `link(name)` and `Rng`, bundled from its TypeScript sources for Node. */
async function labLinks() {
  const result = await build({
    stdin: {
      contents: 'export { link } from "./links.ts"; export { Rng } from "./rng.ts";',
      resolveDir: join(root, "examples", "netcode-lab", "src"),
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
  });
  const code = Buffer.from(result.outputFiles[0].contents).toString("base64");
  return import(`data:text/javascript;base64,${code}`);
}

/**
 * Starts the relay on 127.0.0.1 (a random port) in front of `upstream` (`ws://host:port/`),
 * delaying server-to-page messages by the lab link `profile` drawn from `seed`. Returns its
 * base URL (`ws://127.0.0.1:PORT/`; the path is passed on), the delays applied (ms, as
 * measured: drawn latency plus in-order waiting plus timer lateness) and `close()`.
 */
export async function startDelayLink(upstream, profile, seed) {
  const { link, Rng } = await labLinks();
  const latency = link(profile);
  const rng = new Rng(seed);
  const applied = [];
  const sockets = new Set();
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
  wss.on("connection", (page, req) => {
    const server = new WebSocket(upstream.replace(/\/$/, "") + req.url, { perMessageDeflate: false });
    sockets.add(page);
    sockets.add(server);
    const early = []; // page messages before the server socket opened
    let last = 0; // the previous delivery time: in order, as one WebSocket
    server.on("open", () => {
      for (const m of early.splice(0)) server.send(m);
    });
    page.on("message", (data, binary) => {
      const m = binary ? data : data.toString();
      if (server.readyState === WebSocket.OPEN) server.send(m);
      else early.push(m);
    });
    server.on("message", (data, binary) => {
      const arrived = performance.now();
      const due = Math.max(arrived + latency.latency(rng), last);
      last = due;
      setTimeout(() => {
        applied.push(performance.now() - arrived);
        if (page.readyState === WebSocket.OPEN) page.send(data, { binary });
      }, due - arrived);
    });
    const end = () => {
      page.close();
      server.close();
    };
    page.on("close", end);
    server.on("close", end);
    page.on("error", end);
    server.on("error", end);
  });
  await new Promise((resolve, reject) => {
    wss.once("listening", resolve);
    wss.once("error", reject);
  });
  return {
    url: `ws://127.0.0.1:${wss.address().port}/`,
    applied,
    close: async () => {
      for (const s of sockets) s.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}
