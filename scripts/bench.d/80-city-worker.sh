#!/usr/bin/env bash
# A city in one Cloudflare Durable Object on workerd (miniflare): examples/city-worker's lab.
# 50 bots for 60 s per seed, the tuplet city and its JSON twin alternating; then one object
# under 50 to 250 bots (the capacity: the most with tick p99 under 25 ms) and ten cities of 50
# in one workerd process. About 12 minutes.
#   CITY_SEEDS (default 1,2,3), CITY_BOTS (50), CITY_SECS (60), CITY_CAPACITY (50,100,150,200,250),
#   CITY_CITIES (10; 0 skips), CITY_CITY_BOTS (50 bots per city in that round), CITY_BOT_PROCS (that
#   round's bot processes; default one per 100 bots); CITY_FROM=FILE formats a kept output instead of running, and
#   CITY_NOTE adds a closing paragraph (what the run could not show); CITY_KEEP=FILE keeps the lab's output there.
#   The wire breakdown comes from `build/wire_bench.mjs --json` (bytes only, no timing: it does not
#   need the bench lock): CITY_WIRE_FROM=FILE takes a kept output of it, else it runs here (~2 min).
set -euo pipefail
cd "$(dirname "$0")/../../examples/city-worker"
[ -d node_modules ] || npm ci --no-audit --no-fund >&2
npm run -s build >&2
out=$(mktemp)
if [ -n "${CITY_FROM:-}" ]; then
  # Format the lab's output kept from a run (its RESULT lines) instead of running it again.
  cp "$CITY_FROM" "$out"
else
  node build/lab.mjs --seeds "${CITY_SEEDS:-1,2,3}" --bots "${CITY_BOTS:-50}" --secs "${CITY_SECS:-60}" \
    --capacity "${CITY_CAPACITY:-50,100,150,200,250}" --cities "${CITY_CITIES:-10}" --city-bots "${CITY_CITY_BOTS:-50}" \
    ${CITY_BOT_PROCS:+--bot-procs "$CITY_BOT_PROCS"} >"$out" || status=$?
fi
[ -z "${CITY_KEEP:-}" ] || cp "$out" "$CITY_KEEP"
wire=$(mktemp)
if [ -n "${CITY_WIRE_FROM:-}" ]; then cp "$CITY_WIRE_FROM" "$wire"; else node build/wire_bench.mjs --json >"$wire"; fi
versions=$(node -e '
const l = require("./package-lock.json").packages;
const v = (n) => l["node_modules/" + n]?.version ?? "?";
console.log(`miniflare ${v("miniflare")}, workerd ${v("workerd")}, ws ${v("ws")}, esbuild ${v("esbuild")}`);')
date=$(grep -m1 '^compatibility_date' wrangler.toml | cut -d'"' -f2)
python3 - "$out" "$versions" "$date" "${status:-0}" "${CITY_NOTE:-}" "$wire" <<'PY'
import json, statistics, sys
path, versions, compat, status, note, wire_path = sys.argv[1:7]
wire = json.load(open(wire_path))
rounds, hib, sql = [], None, None
for line in open(path):
    tag, _, body = line.partition(" ")
    if tag == "RESULT": rounds.append(json.loads(body))
    elif tag == "HIBERNATION": hib = json.loads(body)
    elif tag == "SQLITE": sql = json.loads(body)

def cell(rs, f, digits=0, scale=1.0):
    xs = sorted(r[f] * scale for r in rs)
    if not xs: return "–"
    m = statistics.median(xs)
    fmt = "{:.%df}" % digits
    return fmt.format(m) if len(xs) == 1 else f"{fmt.format(m)} ({fmt.format(xs[0])}–{fmt.format(xs[-1])})"

def med(rs, f):
    return statistics.median(r[f] for r in rs) if rs else float("nan")

for r in rounds:
    # Steps run beyond one per timer callback, per 1000 callbacks (older outputs have none).
    r["catchUpPerK"] = 1000 * r.get("catchUp", 0) / max(1.0, r["secs"] * 20 * r["cities"])
main = [r for r in rounds if r["what"] == "main"]
tu = [r for r in main if r["mode"] == "tuplet"]
js = [r for r in main if r["mode"] == "json"]
# Ratios per seed (tuplet / JSON of the same seed), then their median.
by_seed = {}
for r in main: by_seed.setdefault(r["seed"], {})[r["mode"]] = r
def ratio(f):
    xs = sorted(s["tuplet"][f] / s["json"][f] for s in by_seed.values() if "tuplet" in s and "json" in s and s["json"][f])
    if not xs: return "–"
    m = statistics.median(xs)
    return f"{m:.2f}" if len(xs) == 1 else f"{m:.2f} ({xs[0]:.2f}–{xs[-1]:.2f})"

seeds = sorted(by_seed)
n = tu[0]["bots"] if tu else 0
secs = tu[0]["secs"] if tu else 0
print("## A city on Cloudflare Durable Objects (workerd)\n")
print(f"`scripts/bench city-worker`: `examples/city-worker` bundled by esbuild and run on workerd through "
      f"miniflare ({versions}; compatibility date {compat}, permessage-deflate negotiated by workerd), "
      f"{n} bots in one Node process behind a loopback TCP proxy that counts the bytes on every "
      f"connection. Seeds {', '.join(map(str, seeds))}: per seed, the tuplet city and its JSON twin (the same "
      f"simulation, the same bots, the seed game's JSON deltas) for {secs} s each after a 3 s warm-up, their "
      "order alternating; median (min–max) over the seeds. Per player per tick = over the measured window, "
      "divided by the snapshots due (players × ticks). Tick time is measured in the object with "
      "`performance.now()`, which workerd steps in whole milliseconds: the mean is exact on average, p50 and "
      "p99 are whole milliseconds. workerd CPU is the process's own count (`/proc/PID/task/*/schedstat`) per "
      "tick: the object, WebSocket framing and compression, and miniflare's runtime machinery. Each client's "
      "keyframes (every 5 s) are offset by its player slot, so players who joined together do not all get one on the same tick. "
      "Each entity is quantized once per tick for every client's tracker (the runtime's `EntityRows`), as the JSON twin makes "
      "each entity's JSON once. A timer callback that fires whole periods late runs the steps it owes (catch-up steps), so the "
      "world and the players' inputs keep 20 Hz of wall time.\n")
print("| per player per tick | JSON twin | tuplet | tuplet / JSON | seed game (JSON deltas) |")
print("|---|---:|---:|---:|---:|")
print(f"| snapshot bytes as sent | {cell(js, 'snapPerPlayerTick')} | {cell(tu, 'snapPerPlayerTick')} | {ratio('snapPerPlayerTick')} | 1,300 |")
print(f"| bytes on the wire (proxy, down) | {cell(js, 'wirePerPlayerTick')} | {cell(tu, 'wirePerPlayerTick')} | {ratio('wirePerPlayerTick')} | 334 (zlib estimate) |")
print(f"| full snapshot, for reference | {cell(js, 'fullPerPlayerTick')} | {cell(tu, 'fullPerPlayerTick')} | {ratio('fullPerPlayerTick')} | 2,800 |")
print(f"| bytes up on the wire (inputs, pings) | {cell(js, 'upPerPlayerTick')} | {cell(tu, 'upPerPlayerTick')} | | |")
print("\n| the object | JSON twin | tuplet | seed game |")
print("|---|---:|---:|---:|")
print(f"| tick mean, ms | {cell(js, 'tickMean', 2)} | {cell(tu, 'tickMean', 2)} | 1.9–2.0 (Node, no sockets) |")
print(f"| tick p50, ms | {cell(js, 'tickP50', 0)} | {cell(tu, 'tickP50', 0)} | |")
print(f"| tick p99, ms | {cell(js, 'tickP99', 0)} | {cell(tu, 'tickP99', 0)} | about 3 |")
print(f"| workerd CPU per tick, ms | {cell(js, 'workerdCpuUsPerTick', 2, 0.001)} | {cell(tu, 'workerdCpuUsPerTick', 2, 0.001)} | |")
print(f"| incoming messages/s, whole city (soft limit 1,000/s) | {cell(js, 'inboundPerS')} | {cell(tu, 'inboundPerS')} | 775 |")
print(f"| tick lateness p99, ms | {cell(js, 'lateP99', 0)} | {cell(tu, 'lateP99', 0)} | |")
print(f"| ping round trip p50, ms | {cell(js, 'rttP50', 0)} | {cell(tu, 'rttP50', 0)} | |")
print(f"| mirror errors (bots) | {sum(r['mirrorErrors'] for r in js)} | {sum(r['mirrorErrors'] for r in tu)} | |")
print(f"| garbage sent / dropped and counted | {sum(r['garbage'] for r in js)} / {sum(r['dropped'] for r in js)} | {sum(r['garbage'] for r in tu)} / {sum(r['dropped'] for r in tu)} | |")
print(f"| catch-up steps per 1000 ticks | {cell(js, 'catchUpPerK', 1)} | {cell(tu, 'catchUpPerK', 1)} | |")
print(f"| load average at start | {cell(js, 'load', 1)} | {cell(tu, 'load', 1)} | |")

w_ok = med(tu, "wirePerPlayerTick") <= med(js, "wirePerPlayerTick") / 3
p_ok = med(tu, "tickP99") <= med(js, "tickP99") and med(tu, "tickP99") < 5
# The checks of the main rounds (every round reports its own; older outputs only the lab's exit status).
ok = all(r.get("failed", 0) == 0 for r in main) if all("failed" in r for r in main) else status == "0"
print("\nTargets: tuplet's wire bytes per player per tick at most a third of the JSON twin's: "
      f"**{'met' if w_ok else 'not met'}** ({med(tu, 'wirePerPlayerTick'):.0f} against {med(js, 'wirePerPlayerTick'):.0f}); "
      f"tuplet's tick p99 no higher than the twin's and under 5 ms: **{'met' if p_ok else 'not met'}**; "
      f"every bot's mirror equal to the object's state, zero valid inputs lost, every garbage message dropped and "
      f"counted with its sender still connected and served: **{'met' if ok else 'not met (' + '; '.join(r.get('firstFailure', 'the lab exited with ' + status) for r in main if r.get('failed', 1)) + ')'}**"
      + (" in every main round." if ok else ".")
      + ("" if status == "0" or not ok else " Checks failed in other rounds: see their rows."))

tw, jw = wire["tuplet"], wire["json"]
print(f"\n### Where the wire bytes go\n")
print(f"`node build/wire_bench.mjs` (bytes only, no timing): the lab's city without workerd, {wire['players']} players for "
      f"{wire['ticks']} ticks (seed {wire['seed']}, the bots' input pattern through the object's input playout), every player's "
      "messages on both sides (its snapshots, and the `input:ack` the object sends after each, without `p` and `r` since the "
      "snapshot carries the body: tuplet's binary, the twin's JSON text with the same fields) put through permessage-deflate as workerd sends it (zlib level 6, a 32 KiB window, one context per connection, a sync "
      "flush per message with its `00 00 ff ff` removed) plus the frame header. "
      + ("Its drivers' cars collide with the traffic as the object's do (`--collide`)"
         if wire.get("collide") else
         "Its drivers' cars pass through the traffic (`--collide` makes them collide as the object's do, which lowers both sides)")
      + f": tuplet {tw['wirePerTick']:.1f} B, JSON twin {jw['wirePerTick']:.1f} B per player per tick. A part's cost on the "
      "wire: the bytes saved by deleting it from every message, alone (given all the rest) and cumulatively (the "
      "parts deleted from the last row up, so that the column adds up to the whole).\n")
for side in (tw, jw):
    st = side["stats"]
    print(f"\n{'tuplet' if side is tw else 'JSON twin'}: {side['rawPerTick']:.1f} B as sent, {side['wirePerTick']:.1f} B on the wire "
          f"per player per tick; per delta {st['changed'] / st['deltas']:.1f} entities changed, {st['entering'] / st['deltas']:.2f} "
          f"entering, {st['leaving'] / st['deltas']:.2f} leaving.\n")
    print("| part | as sent | on the wire, alone | on the wire, cumulative |")
    print("|---|---:|---:|---:|")
    for p in side["parts"]:
        if p["raw"] == 0: continue
        print(f"| {p['part'].replace('|', '/')} | {p['raw']:.1f} | {p['alone']:.1f} | {p['cumulative']:.1f} |")
    print(f"| what is left: frame headers, deflate's per-message framing | | | {side['overhead']:.1f} |")
print(f"\nThe changes alone (every other part deleted: x and y, heading, speed and animation, with the framing) cost tuplet "
      f"{tw['changesOnly']:.1f} B on the wire; a third of the JSON twin's total is {jw['wirePerTick'] / 3:.1f} B.\n")
print("| deflate settings, the same for both sides | tuplet | JSON twin | tuplet / JSON |")
print("|---|---:|---:|---:|")
for d in wire["deflates"]:
    print(f"| {d['what']} | {d['tuplet']:.1f} | {d['json']:.1f} | {d['ratio']:.3f} |")
ack_t = sum(p["cumulative"] for p in tw["parts"] if p["part"].startswith("input:ack"))
ack_j = sum(p["cumulative"] for p in jw["parts"] if p["part"].startswith("input:ack"))
joined = next((d for d in wire["deflates"] if "input:ack" in d["what"]), None)
if "withoutAcks" in tw:
    print(f"\nThe `input:ack` messages (fields and framing) cost tuplet {tw['wirePerTick'] - tw['withoutAcks']:.1f} B on the wire per "
          f"player per tick and the JSON twin {jw['wirePerTick'] - jw['withoutAcks']:.1f} B (their fields alone: {ack_t:.1f} and {ack_j:.1f} B)"
          + (f"; inside its snapshot's message an ack would cost tuplet {tw['wirePerTick'] - joined['tuplet']:.1f} B less" if joined else "")
          + f". The snapshots alone: tuplet {tw['withoutAcks']:.1f} B, the JSON twin {jw['withoutAcks']:.1f} B, "
          f"{tw['withoutAcks'] / jw['withoutAcks']:.2f} of it.")

cap = [r for r in rounds if r["what"] == "capacity"]
if cap:
    print("\n### Capacity\n")
    print("One tuplet city per row, 15 s each after the warm-up (one run each, seed 1); the capacity is the most "
          "bots with the tick's p99 under 25 ms (half a tick). The bots share the machine with workerd.\n")
    print("| bots | tick mean ms | tick p50 ms | tick p99 ms | workerd CPU per tick ms | wire B per player per tick | incoming msgs/s | lab process CPU (cores) | load | checks failed |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in cap:
        print(f"| {r['bots']} | {r['tickMean']:.2f} | {r['tickP50']:.0f} | {r['tickP99']:.0f} | {r['workerdCpuUsPerTick']/1000:.2f} "
              f"| {r['wirePerPlayerTick']:.0f} | {r['inboundPerS']:.0f} | {r['labCpuShare']:.2f} | {r['load']:.1f} | {r.get('failed', '?')} |")
    bad = [r for r in cap if r.get("failed", 0) > 0]
    if bad:
        print("\nFirst failed check per row: " + "; ".join(f"{r['bots']} bots: {r['firstFailure']}" for r in bad) + ".")
    held = [r["bots"] for r in cap if r["tickP99"] < 25]
    print(f"\nOne object held {max(held) if held else 'none'} of the bots tried with tick p99 under 25 ms"
          + ("" if cap[-1]["tickP99"] >= 25 else " (the largest count tried: the limit is above it, or in the bots' process)") + ".")
ten = [r for r in rounds if r["what"] == "cities"]
if ten:
    r = ten[0]
    rts = r.get("runtimes", 1)
    print(f"\n### {r['cities']} cities of {r['bots']} in {'one workerd process' if rts == 1 else str(rts) + ' workerd processes'}\n")
    procs = r.get("botProcs", 0)
    print(f"The bots in {procs} Node processes of {r['cities'] * r['bots'] // procs} bots, connected to workerd directly, each counting "
          f"its own socket's bytes; the bot processes used {r['labCpuShare']:.2f} cores; the objects ran "
          f"{r.get('catchUp', 0)} catch-up steps in all.\n" if procs else "The bots in the lab's one Node process, behind the proxy.\n")
    print(f"{r['cities']} tuplet cities, {r['cities'] * r['bots']} bots, {r['secs']} s: tick p50 {r['tickP50']:.0f} ms (median over cities), "
          f"mean {r['tickMean']:.2f} ms, p99 {r['tickP99']:.0f} ms (worst city), lateness p99 {r['lateP99']:.0f} ms; workerd CPU "
          f"{r['workerdCpuUsPerTick']/1000:.2f} ms per tick for all cities together; {r['wirePerPlayerTick']:.0f} B on the wire per player "
          f"per tick; {r['inboundPerS']:.0f} incoming messages/s per city; mirror errors {r['mirrorErrors']}; load {r['load']:.1f}; "
          + (f"checks failed: {r['failed']} (the first: {r['firstFailure']})." if r.get("failed") else "every check passed."))
if hib or sql:
    print("\n### Hibernation and storage\n")
if hib:
    print(f"- Hibernation on workerd: the players stop, the tick stops after 0.5 s without input, and after {hib['waitS']} s the "
          f"object {'had been evicted (built ' + str(hib['after']) + ' times)' if hib['woke'] else 'was still in memory'}; the next input woke it, "
          f"the players were rebuilt from their sockets' attachments and saved characters, and {'every' if hib['healed'] else 'not every'} "
          "client's mirror healed on the keyframe that followed.")
if sql:
    print(f"- SQLite: a statement with 101 bound parameters is {'refused' if sql['refused101'] else 'accepted'} by workerd's SQLite "
          f"(`{sql['error'][:60]}`), as Cloudflare's limits say; the one-parameter save (`json_each`) wrote and read back 150 "
          f"characters: {sql['saved150']}.")
if note:
    print("\n" + note)
PY
rm -f "$out" "$wire"
[ "${status:-0}" = 0 ] || echo "80-city-worker: the lab reported failed checks (exit $status); the section says so" >&2
