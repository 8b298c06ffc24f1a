/**
 * The Worker as the lab runs it: the city's Worker (src/worker.ts) for `/ws`, plus
 * `/json/ws?...` to the JSON twin of the same city and `/lab/*` (only with `?key=LAB_KEY`).
 * Bundled to build/lab_worker.js; it exports the lab's cities under the class names
 * wrangler.toml binds (`City`), and the twin's (`CityJson`, bound by the lab itself).
 */

import worker from "../../src/worker.js";
import type { LabEnv } from "./city.js";

export { LabCity as City, LabCityJson as CityJson } from "./city.js";

/** A city name: 1 to 32 characters of `[A-Za-z0-9_-]` (as the city's Worker checks it). */
const CITY = /^[A-Za-z0-9_-]{1,32}$/;

export default {
  async fetch(req: Request, env: LabEnv): Promise<Response> {
    const url = new URL(req.url);
    const json = url.pathname.startsWith("/json/");
    const path = json ? url.pathname.slice("/json".length) : url.pathname;
    if (!json && !path.startsWith("/lab/")) return worker.fetch(req, env);
    const city = url.searchParams.get("city") ?? "";
    if (!CITY.test(city)) return new Response("?city= must be 1 to 32 characters of A-Z a-z 0-9 _ -\n", { status: 400 });
    const ns = json ? env.CITY_JSON : env.CITY;
    if (path.startsWith("/lab/")) {
      if (!env.LAB_KEY || url.searchParams.get("key") !== env.LAB_KEY) return new Response("not found\n", { status: 404 });
      const stub = ns.get(ns.idFromName(city));
      return stub.fetch(new Request(`https://city/lab/${path.slice(5)}${url.search}`, { headers: { "X-City": city } }));
    }
    // `/json/...`: the city's own Worker, with the twin's objects as its cities.
    url.pathname = path;
    return worker.fetch(new Request(url, req), { ...env, CITY: ns });
  },
} satisfies ExportedHandler<LabEnv>;
