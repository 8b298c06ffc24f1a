#!/usr/bin/env bash
# permessage-deflate on and off: 40 bots in one room against a fresh release
# `village-server` (one thread), through the bots' loopback TCP byte counter
# (`village-bots --wire-count`), DEFLATE_RUNS (default 3) runs of DEFLATE_SECS (default 10)
# measured seconds per row, the rows alternated. Measured: bytes on the wire per client per
# tick both ways (WebSocket framing and compression included), the server's CPU per tick
# (its CPU time over the window divided by the room's ticks), and its memory per
# connection (RSS with the 40 bots in, less RSS before they came, over 40).
set -euo pipefail
runs=${DEFLATE_RUNS:-3}
secs=${DEFLATE_SECS:-10}
cargo build -q --release -p village-server -p village-bots >&2
export VILLAGE_TOKEN_KEY="deflate-key-$$"
cpu() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
rss() { awk '/^VmRSS/ {print $2}' /proc/"$1"/status 2>/dev/null || echo 0; }
results=$(mktemp)
port=18700
for run in $(seq "$runs"); do
  for deflate in on off; do
    port=$((port + 1))
    ./target/release/village-server --addr "127.0.0.1:$port" --threads 1 --room-prefix run >/dev/null 2>&1 &
    server=$!
    sleep 0.3
    load=$(cut -d' ' -f1 /proc/loadavg)
    rss0=$(rss "$server")
    out=$(mktemp)
    ./target/release/village-bots --url "ws://127.0.0.1:$port" --bots 40 --rooms 1 \
      --secs "$secs" --warmup 3 --deflate "$deflate" --wire-count >"$out" &
    bots=$!
    sleep 4
    s0=$(cpu "$server"); t0=$(date +%s.%N)
    sleep $((secs - 2))
    s1=$(cpu "$server"); t1=$(date +%s.%N)
    rss1=$(rss "$server")
    wait "$bots"
    line=$(grep '^RESULT' "$out"); rm -f "$out"
    kill "$server"; wait "$server" 2>/dev/null || true
    extra=$(python3 -c "
ticks = ($t1 - $t0) * 20
print('server_us_per_tick=%.1f kb_per_conn=%.1f' % (($s1 - $s0) / 1e3 / ticks, ($rss1 - $rss0) / 40))")
    echo "$line deflate=$deflate $extra load=$load" | tee -a "$results" >&2
  done
done
python3 - "$results" "$runs" "$secs" <<'PY'
import statistics, sys
path, runs, secs = sys.argv[1:4]
rows = {}
for line in open(path):
    kv = dict(p.split("=", 1) for p in line.split()[1:])
    rows.setdefault(kv["deflate"], []).append(kv)

def med(vals, f):
    return statistics.median(float(v[f]) for v in vals)

def cell(vals, f, digits=1):
    xs = sorted(float(v[f]) for v in vals)
    fmt = "{:.%df}" % digits
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(xs[0])}–{fmt.format(xs[-1])})"

print("## permessage-deflate on the wire\n")
print(f"`scripts/bench deflate`: 40 `village-bots` in one room against a fresh release `village-server` "
      f"(`--threads 1`) per run, connected through the bots' loopback TCP byte counter "
      f"(`--wire-count`: every byte both ways, WebSocket framing and compression included), {runs} runs "
      f"per row of {secs} s measured after a 3 s warm-up, rows alternated; median (min–max). CPU per tick is "
      "the server's whole CPU time over the window (`/proc/PID/task/*/schedstat`) over the room's 20 Hz "
      "ticks: the snapshots, the relay and the compression of 40 clients' frames. Memory per connection is "
      "the server's RSS with the 40 bots in, less its RSS before they came, over 40. Deflate is "
      "the server's default: 15-bit windows both ways, context takeover, the fastest level.\n")
print("| permessage-deflate | B/client/tick down | B/client/tick up | server CPU µs/tick | KB per connection "
      "| tick late p95 ms | valid lost | load |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name in ("on", "off"):
    vals = rows.get(name, [])
    if not vals:
        continue
    lost = sum(int(v["lost"]) for v in vals)
    print(f"| {name} | {cell(vals, 'wire_down_per_client_tick', 0)} | {cell(vals, 'wire_up_per_client_tick', 0)} "
          f"| {cell(vals, 'server_us_per_tick', 0)} | {cell(vals, 'kb_per_conn', 0)} | {cell(vals, 'late_p95_ms', 2)} "
          f"| {lost} | {cell(vals, 'load', 1)} |")
if "on" in rows and "off" in rows:
    on, off = rows["on"], rows["off"]
    print(f"\nDeflate sends {med(off, 'wire_down_per_client_tick') / max(med(on, 'wire_down_per_client_tick'), 1e-9):.1f}x "
          f"fewer bytes down, for {med(on, 'server_us_per_tick') / max(med(off, 'server_us_per_tick'), 1e-9):.2f}x the "
          f"server's CPU per tick and {med(on, 'kb_per_conn') - med(off, 'kb_per_conn'):.0f} KB more memory per connection "
          "(each connection's compressor and inflater keep their windows between messages).")
PY
rm -f "$results"
