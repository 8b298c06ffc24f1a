"""The players-per-core table (scripts/bench.d/78-ppc.sh): STEP lines in, Markdown out.

For each server and round: the largest player count whose step kept the bound (its
"players per core": the server had one core), the server's whole-process CPU per player
at that step, and the step that broke the bound (which bound, and its numbers). Medians
over the rounds, with the spread.
"""

import statistics
import sys

path, rounds, secs, late_ms, ping_ms = sys.argv[1:6]
# The 1-, 5- and 15-minute load averages before and after the whole run.
load_before, load_after = (sys.argv[6:8] + ["?", "?"])[:2]
steps = {}
for line in open(path):
    kv = dict(p.split("=", 1) for p in line.split()[1:])
    steps.setdefault(kv["server"], {}).setdefault(int(kv["round"]), []).append(kv)

BOUND = {
    "late": f"tick late p95 > {late_ms} ms",
    "ping": f"ping p95 > {ping_ms} ms",
    "bots": "bots behind (the driver's limit)",
    "fail": "a bot could not join, or no stats",
    None: "not reached (last step)",
}


def per_round(kvs):
    """(players kept, CPU % of a core at that step, the breaking step or None)."""
    ok = [k for k in kvs if k["verdict"] == "ok"]
    broke = next((k for k in kvs if k["verdict"] != "ok"), None)
    if not ok:
        return 0, None, broke, None
    last = ok[-1]
    return int(last["players"]), float(last["server_cpu_pct"]), broke, last


def med(xs, fmt="{:.0f}"):
    xs = sorted(xs)
    if not xs:
        return "–"
    m = statistics.median(xs)
    return f"{fmt.format(m)} ({fmt.format(xs[0])}–{fmt.format(xs[-1])})" if len(xs) > 1 else fmt.format(m)


rows = {}
for server, by_round in steps.items():
    rows[server] = [per_round(kvs) for _, kvs in sorted(by_round.items())]

print("## Players per core, against Colyseus\n")
print(
    f"`scripts/bench ppc`: the same bot load against each server, {rounds} rounds (the servers "
    "alternating within each round), medians (min–max over the rounds). Each server runs "
    "pinned to one core (`taskset -c 0`), the bots to the other (`taskset -c 1`), both in "
    "the real-time scheduling class (`chrt -f 10`) so that other work on the shared machine "
    "waits while they run and each has its core to itself (Node with V8's `--single-threaded`, "
    "its garbage collection and compilation on its one thread: V8's helper threads in that "
    "class made it spin); the bots are one Node "
    "process (`tests/ppc/bots.mjs`) that speaks both the Rust servers' WebSocket protocol "
    "(the generated codecs) and Colyseus's (`@colyseus/sdk`), so the load is the same by "
    "construction. Rooms of 40; each bot moves 10 times a second in the village bots' "
    "walk (out and back at 3 m/s, still 2 s in 12) and pings every 2 s; no permessage-deflate. "
    "The rooms validate each move (map, speed), relay it by distance tier (every update "
    "within 50 m, every 3rd within 200 m, every 10th beyond; an unchanged pose not relayed) "
    "and send each client a 20 Hz snapshot of the 24 NPCs in its 120 m view (a delta "
    "`Tracker` per client). `colyseus-tuplet` is a Colyseus 0.18 room on Node 22 doing "
    "that with tuplet's generated TypeScript codecs (`attachServer`, one encode per relayed "
    "move, `client.sendBytes` per viewer: one socket write per relayed move); "
    "`colyseus-tuplet-tick` is the same room with each client's socket corked from its first "
    "relayed move of a tick to the tick's end (a direct answer uncorks it at once), so its "
    "frames leave in one write per tick, as the Rust servers write them; "
    "`colyseus-schema` is Colyseus's own state sync as "
    "its users write it (players and NPCs in a `MapSchema`, patches at 20 Hz to the whole "
    "room: no interest filter). `minimal` is `examples/room-minimal`, the server a user "
    "copies, on the same protocol but with less to do: one room a process (a step starts "
    "one process a room, all on the same core, their CPU summed), no move validation, every "
    "pose relayed (no silence) by its own tiers (every update within 40 m, every 3rd within "
    "120 m, every 10th beyond), and a snapshot of its 12 villagers to every client (no "
    "view); each connection writes what was queued for it as soon as it wakes, so its "
    "frames go out in one write per wake-up, more of them batched as the load grows. "
    "The player count steps up (40, 80, 120, 160, then by 80, "
    "then by 160 and 320) until a step breaks the bound: the room's 20 Hz tick lateness "
    f"p95 at most {late_ms} ms (a fifth of the tick) and the bots' ping p95 at most "
    f"{ping_ms} ms, over {secs} s measured after a 2 s warm-up. Players per core is the "
    "last step that kept the bound. CPU per player is the server's whole-process CPU time "
    "(`/proc/PID/stat`, user + system) over the window, at that step, divided by its "
    "players; the last column is what one core would serve at that cost, 100 % of a core "
    "divided by it. Load is the 1-minute load average at the steps' starts (the machine is "
    f"shared); the run began at a load of {load_before} (1, 5 and 15 minutes) and ended at "
    f"{load_after}.\n"
)
print(
    "| server | players per core | CPU per player, % of a core | players per core by CPU "
    "| tick late p95 ms at that step | ping p95 ms at that step | broke at | bound that broke | load |"
)
print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
kept = {}
limited = {}
by_cpu_kept = {}
order = sorted(rows, key=lambda s: -statistics.median([r[0] for r in rows[s]]))
for server in order:
    rs = rows[server]
    players = [r[0] for r in rs]
    kept[server] = statistics.median(players)
    cpu_pp = [r[1] / r[0] for r in rs if r[1] is not None and r[0] > 0]
    by_cpu = [100.0 / c for c in cpu_pp if c > 0]
    by_cpu_kept[server] = statistics.median(by_cpu) if by_cpu else None
    late = [float(r[3]["late_p95_ms"]) for r in rs if r[3]]
    ping = [float(r[3]["ping_p95_ms"]) for r in rs if r[3]]
    broke_at = [int(r[2]["players"]) for r in rs if r[2]]
    bounds = sorted({BOUND[r[2]["verdict"] if r[2] else None] for r in rs})
    loads = [float(k["load"]) for kvs in steps[server].values() for k in kvs]
    # The bots' own limit, not the server's: the server kept the bound at every step they made.
    floor = sum(1 for r in rs if r[2] and r[2]["verdict"] == "bots") * 2 > len(rs)
    limited[server] = floor
    print(
        f"| {server} | {'≥ ' if floor else ''}{med(players)} | {med(cpu_pp, '{:.3f}')} | {med(by_cpu)} | {med(late, '{:.2f}')} "
        f"| {med(ping, '{:.2f}')} | {med(broke_at)} | {'; '.join(bounds)} | {med(loads, '{:.1f}')} |"
    )
col = [s for s in kept if s.startswith("colyseus")]
rust = [s for s in kept if not s.startswith("colyseus")]
if col and rust:
    print()
    for r in rust:
        at_least = "at least " if limited[r] else ""
        ratios = ", ".join(
            f"{at_least}{kept[r] / kept[c]:.1f}× {c}" if kept[c] else f"{c} kept no step" for c in col
        )
        # The same comparison by what a core would serve at each server's CPU per player,
        # which neither the bots' limit nor the ping bound decides.
        by_cpu = ", ".join(
            f"{by_cpu_kept[r] / by_cpu_kept[c]:.1f}× {c}"
            for c in col
            if by_cpu_kept.get(r) and by_cpu_kept.get(c)
        )
        tail = f"; by CPU per player, {by_cpu}" if by_cpu else ""
        print(f"- {r}: {ratios} (players per core, medians){tail}.")
    notes = []
    for server in order:
        for _, kvs in sorted(steps[server].items()):
            b = next((k for k in kvs if k["verdict"] == "ping"), None)
            if b and float(b["late_p95_ms"]) <= float(late_ms):
                notes.append(
                    f"{server} at {b['players']} players (round {b['round']}): ping p95 "
                    f"{float(b['ping_p95_ms']):.0f} ms with its tick late p95 at "
                    f"{float(b['late_p95_ms']):.2f} ms and {float(b['server_cpu_pct']):.0f}% of its core"
                )
    if notes:
        print(
            "\nBroke on the ping bound while the room's tick kept its own: "
            + "; ".join(notes)
            + ". The ping is timed in the bots' process, which for the schema room also decodes "
            "every client's copy of the room state (`@colyseus/sdk`): there, the driver's delay "
            "counts in the ping, and the CPU column is the better guide to the server's limit."
        )
    print(
        "\nWhat differs in the work: the schema room encodes each patch once for its whole room "
        "and sends every client the same bytes, 20 a second (no interest filter, no per-client "
        "delta), so its cost per player is that of a broadcast; the tuplet rooms and the "
        "Rust servers relay each move to each viewer by tier (about 300 frames a second "
        "per client here) and encode a snapshot delta per client. What was tried on the "
        "Colyseus side is the `colyseus-tuplet-tick` row: the plain tuplet room's profile "
        "(`node --cpu-prof`) had `writev` on top, one socket write per relayed move. Where "
        "the reference server's time goes is the next section."
    )
    all_loads = [float(k["load"]) for by_round in steps.values() for kvs in by_round.values() for k in kvs]
    cores = __import__("os").cpu_count() or 1
    if all_loads and min(all_loads) > cores:
        print(
            f"\nThe machine was busy through this run: a load of {min(all_loads):.1f} to "
            f"{max(all_loads):.1f} at the steps' starts, on {cores} cores. The real-time class "
            "keeps the other work off both cores while a step runs, except for the 5% of each "
            "second the kernel's real-time throttling leaves it, which falls on the top steps, "
            "where a server uses most of its core: there a quiet machine may keep one step more."
        )
    if any(limited.values()):
        print(
            "\n\"≥\": the bots' process fell behind before the server broke the bound, so the "
            "server's own limit is higher; the CPU column tells what one core would serve at its "
            "cost per player."
        )
