#!/usr/bin/env bash
# The room server against hostile clients, beside a normal room: for each attack a fresh
# release `village-server` (one thread, as in server-load), 40 `village-bots` in room
# hb-0, `village-attack` running one attack for HOSTILE_ATTACK_SECS (default 15) from
# 1 s after the bots' warm-up, bounded in count too, and beside it new players
# (`village-attack --attack probe`) joining /village, two every 1.5 s: one from the
# players' address, one from a fresh address of its own (18 in a 15 s row). Measured: the server's RSS before the bots, before the attack, at its peak
# (sampled every 0.25 s) and after the attack (after its clients left); its CPU over the
# attack window; the bots' tick lateness p95 and lost valid messages; whether each new
# player got into /village (and the room answered it) and how long its join took; the
# counters an admin reads in the attack room afterwards. Loopback only; the attacker
# connects from 127.0.0.2 (`--from`; `--spread N`: 127.0.0.2 to 127.0.0.N+1), addresses of
# its own as on the internet, so per-address caps tell it from the players (127.0.0.1).
# The first row has no attack: the bots' room alone.
# Each row is judged against stated bounds (RSS growth, lost messages, tick lateness, the
# new players' joins, and the server's CPU: the first row's plus the attack's allowance,
# `allow` below); the table says which rows are over one.
# HOSTILE_ONLY="floods ..." runs only those rows (beside the first row).
set -euo pipefail
secs=${HOSTILE_ATTACK_SECS:-15}
cargo build -q --release -p village-server -p village-bots >&2
export VILLAGE_TOKEN_KEY="hostile-key-$$"
cpu() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
rss() { awk '/^VmRSS/ {print $2}' /proc/"$1"/status 2>/dev/null || echo 0; }
results=$(mktemp)
store=$(mktemp -d)
port=18400
# Row name; the attack; its target room; its --count cap; its seconds (- for
# HOSTILE_ATTACK_SECS); seconds to wait after the attack before RSS "after"; then, after
# `:`, the server's extra flags, after a second `:` village-attack's other flags, and after
# a third the probe's other flags (the ghosts row's new players each open a new prefix
# room, the room the ghosts keep others from). The proxy-heads row's server trusts
# 127.0.0.9 as an L4 proxy speaking the PROXY protocol; the attack's sockets come from it,
# each naming the attacker's address (127.0.0.2) in its PROXY header. The
# stalled clients hold until the server lets go of them (--hold): the kernel takes about
# 130 KB for each before its writer blocks, at about 10 KB/s, and the write timeout is
# 5 s, so evictions come after about 17 s: that row runs 25 s. The deflate row's players
# stay 20 s, then leave; RSS "after" is read 15 s later. The crowd row is the same
# players not offering permessage-deflate: what deflate itself costs is the difference.
rows=(
  "none none - 0 - 1 : :"
  "rooms rooms hb-atk 40000 - 1 : :"
  "idle idle hb-0 100000 - 1 : :"
  "idle-many idle hb-0 100000 - 1 : : --spread 16 --conns 600"
  "idle-1000 idle hb-0 400000 - 1 : : --spread 1000 --conns 1000"
  "handshakes handshakes hb-0 100000 - 1 : :"
  "drip drip hb-0 10000000 - 1 : : --spread 8 --conns 200"
  "proxy-heads proxy-heads hb-0 10000000 - 1 : --trusted-proxy 127.0.0.9 --proxy-protocol : --via 127.0.0.9 --conns 300"
  "floods floods hb-atk 200000000 - 1 : :"
  "stalled stalled hb-atk 100000 $((secs > 25 ? secs : 25)) 1 : : --hold"
  "counters counters hb-atk 100000 - 1 : :"
  "tokens tokens hb-atk 40000 - 1 : :"
  "guests guests village 100000 - 1 : :"
  "squat squat hb-atk 100000 - 1 : :"
  "guest-flood guest-flood hb-atk 100000 - 1 : : --spread 2 --conns 1000"
  "ghosts ghosts hb-atk 100000 - 1 : : --conns 64 : --room hb-new --fresh-rooms"
  "crowd crowd hb-atk 100000 $((secs > 20 ? secs : 20)) 15 : --max-connections 1100 : --spread 4 --conns 1000"
  "deflate deflate hb-atk 100000 $((secs > 20 ? secs : 20)) 15 : --max-connections 1100 : --spread 4 --conns 1000"
  "resume resume hb-atk 40000 - 1 : :"
  "reload reload hb-atk 40000 - 1 : --store STORE/reload.db :"
  "batch-ahead batch-ahead hb-atk 100000 - 1 : :"
  "batch-behind batch-behind hb-atk 100000 - 1 : :"
  "batch-repeat batch-repeat hb-atk 100000 - 1 : :"
  "batch-fast batch-fast hb-atk 100000 - 1 : :"
)
default_secs=$secs
for row in "${rows[@]}"; do
  IFS=: read -r head server_flags attack_flags probe_flags <<<"$row"
  read -r name attack target count secs after <<<"$head"
  [ "$secs" = - ] && secs=$default_secs
  read -ra sflags <<<"${server_flags//STORE/$store}"
  read -ra aflags <<<"$attack_flags"
  # The probe's room: /village unless the row names another.
  [[ "${probe_flags:-}" == *--room* ]] || probe_flags="--room village ${probe_flags:-}"
  read -ra pflags <<<"$probe_flags"
  # HOSTILE_ONLY="floods stalled": only those rows (and the first, for comparison).
  if [ -n "${HOSTILE_ONLY:-}" ] && [ "$name" != none ] && [[ " $HOSTILE_ONLY " != *" $name "* ]]; then
    continue
  fi
  port=$((port + 1))
  ./target/release/village-server --addr "127.0.0.1:$port" --threads 1 --room-prefix hb \
    ${sflags[@]+"${sflags[@]}"} >/dev/null 2>&1 &
  server=$!
  sleep 0.3
  load=$(cut -d' ' -f1 /proc/loadavg)
  rss0=$(rss "$server")
  bots_out=$(mktemp) atk_out=$(mktemp) probe_out=$(mktemp)
  # The bots stay until RSS "after" is read: it is compared with RSS before the attack.
  ./target/release/village-bots --url "ws://127.0.0.1:$port" --bots 40 --rooms 1 --tag hb \
    --secs $((secs + after + 2)) --warmup 3 >"$bots_out" &
  bots=$!
  sleep 4
  rss_pre=$(rss "$server")
  s0=$(cpu "$server"); t0=$(date +%s.%N)
  atk=""
  if [ "$attack" != none ]; then
    ./target/release/village-attack --url "ws://127.0.0.1:$port" --room hb-atk --target "$target" \
      --attack "$attack" --secs "$secs" --count "$count" --from 127.0.0.2 ${aflags[@]+"${aflags[@]}"} >"$atk_out" &
    atk=$!
  fi
  # New players joining /village beside the attack, two every 1.5 s: one from the players'
  # address, one from a fresh one.
  ./target/release/village-attack --url "ws://127.0.0.1:$port" --attack probe \
    --secs "$((secs - 1))" "${pflags[@]}" >"$probe_out" &
  probe=$!
  peak=$rss_pre
  end=$(( $(date +%s) + secs ))
  while [ "$(date +%s)" -lt "$end" ]; do
    r=$(rss "$server"); [ "$r" -gt "$peak" ] && peak=$r
    sleep 0.25
  done
  s1=$(cpu "$server"); t1=$(date +%s.%N)
  [ -n "$atk" ] && { wait "$atk" || echo "village-attack $attack failed" >&2; }
  wait "$probe" || echo "village-attack probe failed in row $name" >&2
  r=$(rss "$server"); [ "$r" -gt "$peak" ] && peak=$r
  sleep "$after"
  rss_after=$(rss "$server")
  wait "$bots" || echo "village-bots failed in row $name" >&2
  kill "$server"; wait "$server" 2>/dev/null || true
  line=$(grep '^RESULT' "$bots_out" || echo RESULT)
  aline=$(grep '^ATTACK' "$atk_out" || echo "ATTACK attack=$attack")
  pline=$(grep '^PROBE' "$probe_out" || echo PROBE)
  rm -f "$bots_out" "$atk_out" "$probe_out"
  cpu_pct=$(python3 -c "print('%.0f' % (($s1 - $s0) / 1e7 / ($t1 - $t0)))")
  echo "ROW name=$name attack=$attack target=$target secs=$secs after=$after load=$load rss0_kb=$rss0 rss_pre_kb=$rss_pre peak_kb=$peak rss_after_kb=$rss_after cpu_pct=$cpu_pct | $line | $aline | $pline" \
    | tee -a "$results" >&2
done
rm -rf "$store"
python3 - "$results" "$default_secs" <<'PY'
import sys
path, secs = sys.argv[1], sys.argv[2]

def kv(part):
    return dict(p.split("=", 1) for p in part.split()[1:] if "=" in p)

what = {
    "none": "no attack: the bots' room alone",
    "rooms": "connect-and-close upgrades to new room names, 16 at a time (half not allowed, half new `hb-atk-*` names past `max_rooms`)",
    "idle": "pre-hello flood from one address: 400 upgraded sockets in the bots' room that never say hello, reopened when closed",
    "idle-many": "pre-hello flood overall: 600 upgraded sockets that never say hello from 16 addresses (37 each, past the 256 overall), reopened when closed",
    "idle-1000": "pre-hello flood from 1,000 addresses (127.0.0.2 on, one upgraded socket each that never says hello, four times the 256 overall), reopened when closed",
    "handshakes": "400 sockets sending half an HTTP upgrade, reopened when closed (50 ms later when refused at accept)",
    "drip": "slow request heads: 200 sockets from 8 addresses dripping an endless request head one byte per packet every 5 ms, reopened when closed",
    "proxy-heads": "slow request heads through a trusted L4 proxy (`--trusted-proxy 127.0.0.9 --proxy-protocol`): 300 sockets from the proxy's address, each a PROXY header naming one client (127.0.0.2), then an endless request head a byte every 100 ms, reopened when closed",
    "floods": "4 clients sending every frame kind flat out (binary, 5 KB binary, text, ping, pong, fragmented), reconnecting when closed",
    "stalled": "20 signed-in clients with birds on and a view radius of 400 m that never read but heartbeat, held until the server closes them (25 s row)",
    "counters": "8 clients sending new envelope ids and malformed payloads at 35 frames/s",
    "tokens": "6 clients saying hello with forged (another key's), expired and malformed tokens as fast as they are refused, reconnecting; 2 guests asking for the bird stream 5 times a second",
    "guests": "guests filling a room: 40 guests joining /village itself and holding it, the refused retrying every second",
    "squat": "guests filling rooms: 80 guests each joining a room of its own (`hb-atk-sN`, past `max_rooms`) and holding it, retrying every second",
    "guest-flood": "guests from two addresses: 1,000 guest connections from 127.0.0.2 and .3, each joining a prefix room of its own (`hb-atk-gN`, past `max_rooms`) and holding it, the refused retrying every second",
    "ghosts": "ghost rooms: 64 guests each joining a prefix room of its own (`hb-atk-hN`) and dropping the socket without leaving, again every 2 s; the new players here each open a new prefix room (`hb-new-pN`)",
    "deflate": "1,000 signed-in players offering permessage-deflate from 4 addresses, 40 to a room in 25 rooms, reading and heartbeating for 20 s, then leaving (`--max-connections 1100` for this row); RSS after is 15 s after they left",
    "crowd": "1,000 signed-in players not offering permessage-deflate, otherwise as the next row (the deflate row's baseline)",
    "resume": "6 clients resuming two sessions each in their grace window with forged (another key's), replayed (spent) and cross-session resume tokens as fast as they are refused; then each session's latest token",
    "reload": "reload storm: 20 signed-in players reloading flat out (the new tab joins, then the old socket drops), the server saving to SQLite",
    "batch-ahead": "8 players sending `input:batch` (8 frames) a million frames ahead each time, 35 a second",
    "batch-behind": "8 players sending `input:batch` 100,000 frames and more behind their sequence, 35 a second",
    "batch-repeat": "8 players resending one `input:batch`, 35 a second",
    "batch-fast": "8 players sending consecutive `input:batch` at 150 a second (ten times a client's 15; the rate cap is 40)",
}
# What each attack made, beyond connections and frames: village-attack's own keys.
made_keys = {
    "drip": [("held_ms_max", "longest a dripping socket was held, ms")],
    "guests": [("guests_in", "guests in /village at once")],
    "squat": [("rooms_held", "rooms held at once")],
    "guest-flood": [("guests_in", "guests in at once")],
    "ghosts": [("ghost_joins", "ghost joins")],
    "crowd": [("players_in", "players in at once"), ("dropped", "dropped by the server"), ("refused_upgrade", "upgrades refused")],
    "deflate": [("players_in", "players in at once"), ("deflate_agreed", "agreed deflate"), ("dropped", "dropped by the server"), ("refused_upgrade", "upgrades refused")],
    "resume": [("refused", "bad resumes refused"), ("accepted_bad", "accepted"), ("good_ok", "latest tokens resumed"), ("good_tried", "of")],
    "reload": [("reloads", "reloads"), ("failed", "failed joins")],
    "batch-ahead": [("acks", "acks"), ("held_max", "most frames queued (ring 32)")],
    "batch-behind": [("acks", "acks"), ("held_max", "most frames queued (ring 32)")],
    "batch-repeat": [("acks", "acks"), ("held_max", "most frames queued (ring 32)")],
    "batch-fast": [("acks", "acks"), ("held_max", "most frames queued (ring 32)")],
}
# The server's CPU bound per row: the no-attack row's CPU (same run) plus an allowance, in
# percentage points of one core, for the work the attack makes the server do.
allow = {
    "rooms": (20, "a TCP accept, an HTTP head parsed and a 404 or 503 written for every upgrade, thousands a second (16 at a time, as fast as they are answered); nothing is kept"),
    "idle": (5, "about 80 upgrades a second (400 sockets, each closed by the hello timeout after 5 s and reopened); no frames"),
    "idle-many": (20, "every new socket past the 256 budget taking the oldest place (`evicted_before_hello`), at most once a second per address, and the other reconnects closed at accept with a 503 (`refused_evicted_recently`), each socket again 50 ms later: thousands of accepts a second"),
    "idle-1000": (20, "as idle-many, from 1,000 addresses of one socket each"),
    "handshakes": (20, "the 32 half-upgrades its address may hold, each closed by the handshake timeout after 5 s and reopened (a read and a timer each), and the other 368 sockets accepted and closed at once, again 50 ms later: thousands of accepts a second"),
    "drip": (10, "40,000 one-byte packets a second (200 sockets at 200 bytes a second), held by the kernel (`SO_RCVLOWAT`) and read on one 50 ms grid: 4,000 reads and about 20 wake-ups a second; each socket closed at the 5 s head deadline and reopened"),
    "proxy-heads": (10, "300 sockets through the proxy, each a PROXY header parsed and a head read a byte every 100 ms (on the 50 ms drip grid), closed at the 5 s head deadline or evicted by a newcomer, and reopened"),
    "floods": (25, "every byte of 4 connections sending at loopback speed is read and unmasked by yawc, and each frame counted at the connection before the room (the room is never woken); each flooder is closed after 5 s and reconnects"),
    "stalled": (10, "20 more clients, half the bots' room, each sent 20 compressed snapshots of every NPC (view radius 400 m) and 5 bird streams a second until its writer blocks"),
    "counters": (5, "280 frames a second decoded and dropped by the room, each counted"),
    "tokens": (40, "a WebSocket upgrade, an HMAC-SHA-256 check, a refusal and a close handshake for every hello, thousands a second (as fast as they are refused, up to 40,000)"),
    "guests": (10, "20 more players in a room (half the bots' room, standing still) sent snapshots 20 times a second, and about 20 refused joins a second"),
    "squat": (25, "62 more rooms open, each ticking 20 times a second with its 24 NPCs and one guest to send them to"),
    "guest-flood": (60, "62 more rooms open with a guest each, as the squat row, and the refused guests' retries: hundreds of upgrades, hellos and refusals a second"),
    "ghosts": (30, "up to 63 rooms opened and stopped, 32 joins a second, each an upgrade, a hello, a join and a dropped socket"),
    "deflate": (100, "25 more full rooms: 1,000 players each sent 20 snapshots a second, 128 of them compressed (the `max_deflate` cap); the joins themselves (1,000 upgrades, HMAC checks and joins in 3 s) and the leaves"),
    "crowd": (100, "as the deflate row, uncompressed"),
    "resume": (40, "a WebSocket upgrade, an HMAC-SHA-256 check, a refusal and a close for every resume, thousands a second (as fast as they are refused, up to 40,000)"),
    "reload": (40, "every reload is an upgrade, an HMAC check, a join, an eviction and a save (a SQLite write), hundreds a second"),
    "batch-ahead": (5, "280 batches a second decoded and pushed (each push visits at most the 32-slot ring), 24 frames a tick stepped"),
    "batch-behind": (5, "280 batches a second decoded and ignored as stale"),
    "batch-repeat": (5, "280 batches a second decoded and found already held"),
    "batch-fast": (10, "1,200 batches a second read, 320 decoded and pushed, the rest dropped at the rate cap; each flooder closed after 5 s and rejoining"),
}
bounds = {"rss_mb": 64, "tick_p95_ms": 2.0, "returned": 0.25, "join_ms": 1000}

rows = []
for line in open(path):
    parts = [p.strip() for p in line.split("|")]
    rows.append(tuple(kv(p) for p in parts))
base_cpu = next((int(r["cpu_pct"]) for r, *_ in rows if r["name"] == "none"), None)
crowd_peak = next((int(r["peak_kb"]) / 1024 for r, *_ in rows if r["name"] == "crowd"), None)

print("## Room server against hostile clients\n")
print(f"`scripts/bench hostile`: per row a fresh release `village-server` (`--threads 1`), 40 "
      f"`village-bots` in one room (`hb-0`), `village-attack` running one attack for {secs} s (the stalled "
      "readers' row 25 s, the deflate row 20 s) from 1 s after the bots' 3 s warm-up, and beside it new "
      "signed-in players joining `/village`, two every 1.5 s, 18 in a 15 s row (`village-attack --attack probe`: one "
      "from the players' address, one from a fresh address of its own; a join that is refused retries, for up to "
      "10 s); on loopback. The attacker "
      "connects from addresses of its own (127.0.0.2 on, `--from`/`--spread`), as on the internet. RSS is "
      "the server's before the bots joined, before the attack (the bots in), its peak (sampled every "
      "0.25 s) and after the attack's clients left (the bots still in); CPU is the server's over the attack window, in % of "
      "one core (the bots' room included: compare with the first row); tick lateness and lost valid "
      "messages are the bots' room's, over the whole measured window; the new players column says how "
      "many got in of those tried (and were answered by the room), with their join time, first attempt "
      "to their own `player:joined`, median and worst; counters are what an admin reads in the attack "
      "room afterwards (`(server)` counters are server-wide, `(frame)` ones are the attack room's). "
      "Load is the 1-minute load average when the row started: the machine is shared with other "
      "engineers' builds, and the machine floor (how late a bare thread in the bots' process wakes "
      f"from a 50 ms sleep, same window) is what lateness the machine itself adds. Bounds: RSS growth "
      f"under {bounds['rss_mb']} MB (for the deflate row, deflate's own share, its peak over the crowd row's: "
      "the bound docs/room-server.md states for deflate whatever the number of clients; 1,000 players "
      "are the server's capacity, not an attack), no valid message lost, every new "
      f"player in within {bounds['join_ms'] / 1000:g} s (retries included) and answered, tick lateness p95 under {bounds['tick_p95_ms']:g} ms (or under the machine "
      "floor when the floor itself is above 2 ms, said in the row), the server's CPU at most the no-attack "
      "row's plus the attack's allowance (below the table); for the deflate row, memory given back: RSS "
      f"after at most the RSS before the attack plus {bounds['returned']:.0%} of the rise (and the crowd "
      "row likewise); for the "
      "resume row, no bad token taken and every session's latest token still good; for the batch rows, "
      "no more than the playout's 32 frames queued.\n")
print("| attack | made | new player joins `/village` (in/tried, ms p50/max) | server RSS MB (before bots → before attack → peak → after) | server CPU % (bound) | tick late p95 ms | tick late max ms | machine floor p95 ms | valid lost | counters naming the drops | within bounds | load |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---|---|---:|")
over = []
for r, b, a, pr in rows:
    name = r["name"]
    if name == "none":
        made = "—"
    else:
        made = f"{a.get('conns', '?')} connections, {a.get('sent', '?')} sent, {a.get('closed', '?')} closed by the server"
        for key, label in made_keys.get(name, []):
            made += f"; {label} {a.get(key, '0' if key in ('dropped', 'refused_upgrade') else '?')}"
    counters = a.get("counters", "-")
    if counters not in ("-", ""):
        # village-attack writes each key with its spaces as '+', then ':' and the count.
        counters = ", ".join(f"`{c.rsplit(':', 1)[0].replace('+', ' ')}` {c.rsplit(':', 1)[1]}" for c in counters.split(","))
        counters += f" ({a.get('dropped_keys', '?')} keys; `diag:pong` encoded)"
    else:
        counters = "—"
    rss0, pre = int(r["rss0_kb"]) / 1024, int(r["rss_pre_kb"]) / 1024
    peak, after = int(r["peak_kb"]) / 1024, int(r["rss_after_kb"]) / 1024
    cpu = int(r["cpu_pct"])
    missed = []
    if name == "deflate" and crowd_peak is not None:
        # The bound the docs state is deflate's own memory, whatever the number of clients.
        if peak - crowd_peak >= bounds["rss_mb"]:
            missed.append(f"deflate's RSS +{peak - crowd_peak:.0f} MB over the crowd row's")
    elif name in ("deflate", "crowd"):
        pass
    elif peak - rss0 >= bounds["rss_mb"]:
        missed.append(f"RSS +{peak - rss0:.0f} MB")
    if name in ("deflate", "crowd") and after - pre > bounds["returned"] * max(peak - pre, 0):
        missed.append(f"RSS {after - pre:.1f} MB above before the attack, {r['after']} s after")
    if b.get("lost", "?") != "0":
        missed.append(f"{b.get('lost', '?')} valid lost")
    try:
        p95, floor = float(b["late_p95_ms"]), float(b["floor_p95_ms"])
    except (KeyError, ValueError):
        p95 = floor = None
    late_note = ""
    if p95 is None:
        missed.append("no tick lateness")
    elif p95 >= bounds["tick_p95_ms"]:
        if floor >= bounds["tick_p95_ms"] and p95 <= floor:
            late_note = f" (tick p95 under the machine floor {floor:g} ms)"
        else:
            missed.append(f"tick p95 {p95:g} ms, machine floor {floor:g} ms")
    tries, ok, answered = pr.get("tries", "0"), pr.get("ok", "0"), pr.get("answered", "0")
    probe = f"{ok}/{tries}, {pr.get('join_p50_ms', '-')}/{pr.get('join_max_ms', '-')}"
    if answered != ok:
        probe += f" ({answered} answered)"
    if tries == "0" or ok != tries or answered != ok:
        missed.append(f"new players {ok}/{tries} in, {answered} answered ({pr.get('error', '-').replace('+', ' ')})")
    elif float(pr.get("join_max_ms", "inf")) > bounds["join_ms"]:
        missed.append(f"a new player's join took {float(pr['join_max_ms']) / 1000:.1f} s "
                      f"({pr.get('attempts', '?')} attempts for {tries} players: "
                      f"{pr.get('error', '-').replace('+', ' ')})")
    if name == "resume" and (a.get("accepted_bad") != "0" or a.get("good_ok") != a.get("good_tried")):
        missed.append(f"bad resumes taken {a.get('accepted_bad')}, good {a.get('good_ok')}/{a.get('good_tried')}")
    if name.startswith("batch-") and int(a.get("held_max", "99")) > 32:
        missed.append(f"{a.get('held_max')} frames queued")
    if name == "none" or base_cpu is None:
        cpu_cell = f"{cpu} (the base)"
    else:
        cap = base_cpu + allow[name][0]
        cpu_cell = f"{cpu} (≤ {cap})"
        if cpu > cap:
            missed.append(f"CPU {cpu}% > {cap}%")
    verdict = ("yes" + late_note) if not missed else "**no**: " + "; ".join(missed)
    if missed:
        over.append(f"**{name}**: {'; '.join(missed)}")
    print(f"| **{name}**: {what[name]} | {made} | {probe} | {rss0:.1f} → {pre:.1f} → {peak:.1f} → {after:.1f} | {cpu_cell} "
          f"| {b.get('late_p95_ms', '?')} | {b.get('late_max_ms', '?')} | {b.get('floor_p95_ms', '?')} | {b.get('lost', '?')} | {counters} | {verdict} | {r['load']} |")
print()
deflate = next((r for r, *_ in rows if r["name"] == "deflate"), None)
if deflate is not None and crowd_peak is not None:
    d_pre, d_peak, d_after = (int(deflate[k]) / 1024 for k in ("rss_pre_kb", "peak_kb", "rss_after_kb"))
    d_atk = next(a for r, _, a, _ in rows if r["name"] == "deflate")
    agreed = int(d_atk.get("deflate_agreed", "0"))
    share = d_peak - crowd_peak
    print(f"A thousand clients offering permessage-deflate: {agreed} were agreed compression (the "
          "`max_deflate` cap of 128, less the bots' and the admin's; the rest are served uncompressed). "
          f"The server's RSS rose {d_peak - d_pre:.1f} MB with them ({crowd_peak - d_pre:+.1f} MB for the same "
          f"players without deflate, the crowd row): deflate's own share is {share:.1f} MB "
          f"({share * 1024 / max(agreed, 1):.0f} KB per compressing connection), "
          f"{'inside' if share < bounds['rss_mb'] else 'over'} the {bounds['rss_mb']} MB the docs state. {deflate['after']} s after they left, RSS was {d_after:.1f} MB, "
          f"{d_after - d_pre:+.1f} MB from before they came.\n")
if over:
    print("Rows over a bound. " + ". ".join(over) + ".")
else:
    print("Every row is within its bounds.")
print("\nCPU allowances over the no-attack row, in points of one core, and what the attack makes "
      "the server do for them:\n")
for name, (pp, why) in allow.items():
    if any(r["name"] == name for r, *_ in rows):
        print(f"- **{name}** +{pp}: {why}.")
PY
rm -f "$results"
