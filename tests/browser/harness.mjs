// What the browser tests share: esbuild (tests/ts's pinned copy) bundling a page entry with
// the generated package, a node:http server on 127.0.0.1 (random port) serving a page and
// its bundle, and headless Debian Chromium through playwright-core (no browser download).

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, "..", "..");
// esbuild and playwright-core are tests/ts's (pinned in its package.json).
const requireTs = createRequire(join(root, "tests", "ts", "package.json"));
const { build } = requireTs("esbuild");
const { chromium } = requireTs("playwright-core");

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const TIMEOUT = 60_000; // per browser operation

/** `page/<entry>` bundled for the browser (ESM, es2022), as bytes. */
export async function bundle(entry) {
  const result = await build({
    entryPoints: [join(here, "page", entry)],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].contents;
}

/**
 * Serves `files` (URL path -> [content type, bytes]) on 127.0.0.1; `/` is `/index.html`.
 * Returns the server, its origin and the list of paths requested.
 */
export async function serve(files) {
  const served = [];
  const server = createServer((req, res) => {
    served.push(req.url);
    const file = files[req.url === "/" ? "/index.html" : req.url];
    if (file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    res.writeHead(200, { "content-type": file[0], "cache-control": "no-store" });
    res.end(file[1]);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return { server, origin: `http://127.0.0.1:${server.address().port}`, served };
}

/** Stops a server from `serve`. */
export async function unserve(server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** Headless Chromium (playwright-core gives each launch a fresh, empty --user-data-dir). */
export async function launch() {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (scripts/test does: apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: TIMEOUT,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A new page of `browser` at `url`, collecting page errors into `errors`, once `ready` holds. */
export async function open(browser, url, ready, errors) {
  const page = await browser.newPage();
  page.setDefaultTimeout(TIMEOUT);
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  await page.goto(url, { timeout: TIMEOUT });
  await page.waitForFunction((flag) => globalThis[flag] === true, ready, { timeout: TIMEOUT });
  return page;
}
