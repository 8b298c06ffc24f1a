/**
 * Who a connection is comes from a signed token, never from what the client says: the
 * Worker checks `name.expiry.signature` (HMAC-SHA256 of `name.expiry` under the
 * `TOKEN_SECRET` secret) before it hands the socket to the city. A real game's login service
 * signs these; the lab signs its bots' tokens with the lab's secret.
 */

/** A player name: 9 bytes of `[a-z0-9]`, the village's session-id length (`owner`, `s`). */
export const NAME = /^[a-z0-9]{9}$/;

const enc = new TextEncoder();

async function key(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function hex(b: ArrayBuffer): string {
  return [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
}

function unhex(s: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[0-9a-f]{64}$/.test(s)) return undefined;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** A token for `name`, valid until `expiresMs` (Unix ms). */
export async function sign(secret: string, name: string, expiresMs: number): Promise<string> {
  if (!NAME.test(name)) throw new Error(`a player name is 9 characters of a-z and 0-9, not ${JSON.stringify(name)}`);
  const body = `${name}.${Math.floor(expiresMs)}`;
  return `${body}.${hex(await crypto.subtle.sign("HMAC", await key(secret), enc.encode(body)))}`;
}

/** The player name a valid, unexpired token carries, or why it is refused. */
export async function verify(secret: string, token: string, nowMs: number): Promise<{ ok: true; name: string } | { ok: false; why: string }> {
  if (token.length > 128) return { ok: false, why: "token too long" };
  const [name, exp, sig, ...rest] = token.split(".");
  if (name === undefined || exp === undefined || sig === undefined || rest.length > 0) return { ok: false, why: "token is not name.expiry.signature" };
  if (!NAME.test(name)) return { ok: false, why: "bad name in token" };
  if (!/^[0-9]{1,15}$/.test(exp) || Number(exp) < nowMs) return { ok: false, why: "token expired" };
  const raw = unhex(sig);
  if (raw === undefined) return { ok: false, why: "bad signature" };
  const good = await crypto.subtle.verify("HMAC", await key(secret), raw, enc.encode(`${name}.${exp}`));
  return good ? { ok: true, name } : { ok: false, why: "bad signature" };
}
