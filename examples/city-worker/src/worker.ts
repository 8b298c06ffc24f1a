/**
 * The Worker: `/ws?city=NAME&token=T` goes to the tuplet city of that name, `/json/ws?...`
 * to its JSON twin (the same city, JSON snapshots). The token is checked here and the
 * player's name passed on in `X-Player`; the object never trusts what a client says about
 * itself. `/lab/*` exists only where `LAB_KEY` is set (the lab, never production).
 */

import { CityBase, type Env } from "./city.js";
import { JsonStream, TupletStream, type Stream } from "./streams.js";
import { verify } from "./token.js";

/** A city whose clients get tuplet delta snapshots (`world:snapshot` through a `Tracker`). */
export class City extends CityBase {
  protected stream(): Stream {
    return new TupletStream();
  }
}

/** The same city sending the JSON twin's delta snapshots (for comparison). */
export class CityJson extends CityBase {
  protected stream(): Stream {
    return new JsonStream();
  }
}

/** A city name: 1 to 32 characters of `[A-Za-z0-9_-]`. */
const CITY = /^[A-Za-z0-9_-]{1,32}$/;

export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    const url = new URL(req.url);
    const json = url.pathname.startsWith("/json/");
    const path = json ? url.pathname.slice("/json".length) : url.pathname;
    const city = url.searchParams.get("city") ?? "";
    if (!CITY.test(city)) return new Response("?city= must be 1 to 32 characters of A-Z a-z 0-9 _ -\n", { status: 400 });
    const ns = json ? env.CITY_JSON : env.CITY;
    const stub = ns.get(ns.idFromName(city));
    if (path.startsWith("/lab/")) {
      if (!env.LAB_KEY || url.searchParams.get("key") !== env.LAB_KEY) return new Response("not found\n", { status: 404 });
      return stub.fetch(new Request(`https://city/lab/${path.slice(5)}${url.search}`, { headers: { "X-City": city } }));
    }
    if (path !== "/ws") return new Response("not found\n", { status: 404 });
    if (req.headers.get("Upgrade") !== "websocket") return new Response("expected a WebSocket upgrade\n", { status: 426 });
    const who = await verify(env.TOKEN_SECRET, url.searchParams.get("token") ?? "", Date.now());
    if (!who.ok) return new Response(`${who.why}\n`, { status: 401 });
    const headers = new Headers(req.headers);
    headers.set("X-Player", who.name);
    headers.set("X-City", city);
    return stub.fetch(new Request(req.url, { headers }));
  },
} satisfies ExportedHandler<Env>;
