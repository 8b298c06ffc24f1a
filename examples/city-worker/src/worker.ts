/**
 * The Worker: `/ws?city=NAME&token=T` goes to the city of that name, one Durable Object per
 * city. The token is checked here and the player's name passed on in `X-Player`; the object
 * never trusts what a client says about itself.
 */

import type { Env } from "./city.js";
import { verify } from "./token.js";

export { City } from "./city.js";

/** A city name: 1 to 32 characters of `[A-Za-z0-9_-]`. */
const CITY = /^[A-Za-z0-9_-]{1,32}$/;

export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    const url = new URL(req.url);
    const city = url.searchParams.get("city") ?? "";
    if (!CITY.test(city)) return new Response("?city= must be 1 to 32 characters of A-Z a-z 0-9 _ -\n", { status: 400 });
    if (url.pathname !== "/ws") return new Response("not found\n", { status: 404 });
    if (req.headers.get("Upgrade") !== "websocket") return new Response("expected a WebSocket upgrade\n", { status: 426 });
    const who = await verify(env.TOKEN_SECRET, url.searchParams.get("token") ?? "", Date.now());
    if (!who.ok) return new Response(`${who.why}\n`, { status: 401 });
    const stub = env.CITY.get(env.CITY.idFromName(city));
    const headers = new Headers(req.headers);
    headers.set("X-Player", who.name);
    headers.set("X-City", city);
    return stub.fetch(new Request(req.url, { headers }));
  },
} satisfies ExportedHandler<Env>;
