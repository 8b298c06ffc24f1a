// Shared state through the delta tracker, the TypeScript side of
// tests/tests/shared_state.rs (the same steps, the same bytes): one record without
// a key (`weather:state`) sent to every client by its own Tracker over the same value; a late
// joiner's first payload is the whole record, the others get only the changed fields.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Mirror, Tracker, WeatherStateCodec, WeatherState$delta } from "../../../generated/ts/src/index.js";
import type { WeatherState } from "../../../generated/ts/src/index.js";
import { toHex } from "./support.js";

function quantized(v: WeatherState): WeatherState {
  const r = WeatherStateCodec.decode(WeatherStateCodec.encode(v));
  assert.ok(r.ok);
  return r.value;
}

class Client {
  readonly tracker = Tracker.atRate(WeatherState$delta, 20);
  readonly mirror = new Mirror(WeatherState$delta);
  tick(weather: WeatherState): [string, string] {
    const out = this.tracker.encode(weather);
    if (out !== undefined) assert.deepEqual(this.mirror.apply(out), quantized(weather));
    return [this.tracker.last, out === undefined ? "" : toHex(out)];
  }
}

test("a late joiner gets the whole shared record, the others only its changes (Rust's bytes)", () => {
  const weather: WeatherState = { kind: "Cloudy", intensity: 0.4, wind_dir: 270, wind: 6.5, clouds: 70 };
  const early = new Client();
  assert.deepEqual(early.tick(weather), ["keyframe", "97 00 c0 01 28 cd 0a 8c 41 46"]);
  assert.deepEqual(early.tick(weather), ["nothing", ""]);
  weather.wind = 7.25;
  assert.deepEqual(early.tick(weather), ["delta", "93 01 08 08"]);
  const late = new Client();
  assert.deepEqual(late.tick(weather), ["keyframe", "97 00 c0 01 28 cd 0a 8c 49 46"]);
  weather.kind = "Fog";
  weather.intensity = 0.9;
  weather.fog_m = 120;
  assert.deepEqual(early.tick(weather), ["delta", "95 02 23 04 32 78"]);
  assert.deepEqual(late.tick(weather), ["delta", "95 01 23 04 32 78"]);
  delete weather.fog_m;
  assert.deepEqual(early.tick(weather), ["delta", "93 03 20 c0"]);
  assert.deepEqual(early.mirror.value, quantized(weather));
  assert.equal(late.tick(weather)[0], "delta");
  assert.deepEqual(late.mirror.value, quantized(weather));
});
