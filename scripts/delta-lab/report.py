#!/usr/bin/env python3
"""Prints the delta lab's Markdown section from one directory of per-seed results:
sizes-SEED.json (sizes.py over every row), parts-SEED.json (`delta-lab frames --parts`) and,
unless --smoke, time-SEED.json (`delta-lab time`).

    report.py DIR SEEDS... [--smoke]
"""
import json
import os
import statistics
import sys

# The pinned @colyseus/schema, as scripts/delta-lab/package.json names it.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "package.json")) as f:
    COLYSEUS_SCHEMA = json.load(f)["dependencies"]["@colyseus/schema"]

ROWS = [
    ("0", "full compact snapshot (tuplet, every tick)"),
    ("1", "**tuplet delta** (`Tracker`, keyframe every 5 s)"),
    ("2", "JSON delta (the seed game's form, keyframe every 5 s)"),
    ("3", f"@colyseus/schema {COLYSEUS_SCHEMA} (`StateView` per client)"),
]
FORMS = [
    ("1", "differences (WIRE.md's form)"),
    ("5", "every quantized field and `tick` as new values"),
    ("6", "`pos` as new values"),
    ("7", "`heading` as new values"),
    ("8", "`speed` as new values"),
    ("9", "`anim` as new values"),
]


def load(d, name):
    with open(os.path.join(d, name)) as f:
        return json.load(f)


def med(xs, fmt="{:.0f}"):
    xs = list(xs)
    m = statistics.median(xs)
    if len(xs) == 1:
        return fmt.format(m)
    return f"{fmt.format(m)} ({fmt.format(min(xs))}–{fmt.format(max(xs))})"


def main():
    args = sys.argv[1:]
    smoke = "--smoke" in args
    args = [a for a in args if a != "--smoke"]
    d, seeds = args[0], args[1:]
    sizes = {s: load(d, f"sizes-{s}.json") for s in seeds}
    parts = {s: load(d, f"parts-{s}.json") for s in seeds}
    times = {} if smoke else {s: load(d, f"time-{s}.json") for s in seeds}
    ticks = sizes[seeds[0]]["0"]["ticks"]
    clients = sizes[seeds[0]]["0"]["clients"]

    def col(row, key):
        return [sizes[s][row][key] for s in seeds]

    print("## Delta snapshots: the lab\n")
    print(f"`scripts/bench delta-lab` (`scripts/bench.d/40-delta-lab.sh`): the village's `world:snapshot`")
    print(f"(`NearbyEntity` records keyed by `id`) for {clients} clients at 20 ticks/s, {ticks} ticks")
    print(f"({ticks / 20:.0f} s) per seed, seeds {', '.join(seeds)}. `examples/delta-lab` simulates a")
    print("400 m square village of 400 entities: half of them move (NPCs walking at 1.1–1.6 m/s with a")
    print("swaying heading, pets trotting, horses, cars driving the street grid at 8–16 m/s, each")
    print("accelerating, turning, braking and pausing 1–10 s between legs; ground height follows the")
    print("terrain), half stand (idle NPCs and parked vehicles that change animation and glance around")
    print("every 2–11 s). Each client, half of them driving, sees the 50 entities nearest to it, kept in")
    print("view until 15% beyond the 50th nearest (so entities enter and leave as everyone moves). The")
    print("trajectories are recorded in wire ints and replayed by every row (the Rust rows and Node's")
    print("@colyseus/schema read the same file). Each row's messages per client per tick, raw and through")
    print("a streaming deflate that keeps its context between messages (permessage-deflate: zlib raw")
    print("deflate, level 6, 15-bit window, a sync flush per message, its 00 00 ff ff tail dropped; one")
    print("stream per client and row; the same for every row). Payload bytes only: no envelope id or")
    print("Colyseus protocol byte, no WebSocket framing. Medians over seeds, range in brackets.\n")

    print("| per client per tick | raw bytes | x full | deflated bytes | x full deflated |")
    print("|---|---:|---:|---:|---:|")
    full_raw, full_def = col("0", "raw"), col("0", "deflated")
    for row, name in ROWS:
        raw, dfl = col(row, "raw"), col(row, "deflated")
        xr = [a / b for a, b in zip(raw, full_raw)]
        xd = [a / b for a, b in zip(dfl, full_def)]
        print(f"| {name} | {med(raw)} | {med(xr, '{:.2f}')} | {med(dfl)} | {med(xd, '{:.2f}')} |")
    moved = [parts[s]["moved_per_client_per_tick"] for s in seeds]
    entered = [parts[s]["entered_per_client_per_s"] for s in seeds]
    print(f"\nPer client: {med(moved, '{:.1f}')} entities in view moved on the wire per tick;")
    print(f"{med(entered, '{:.1f}')} entered view per second (each sent whole by the deltas). Every tuplet")
    print("delta was applied to a client `Mirror` and checked against the full snapshot, and")
    print("compared byte for byte with an independent writer of WIRE.md's form (`examples/delta-lab/src/model.rs`);")
    print("the Colyseus row's messages to the first 5 clients of each seed (all 50 in the smoke run)")
    print("were decoded with @colyseus/schema's `Decoder` and checked against the trajectory every tick.\n")

    # Targets on the worst seed: the seed where each target is closest to missing.
    delta_raw, delta_def = col("1", "raw"), col("1", "deflated")
    col_raw, col_def = col("3", "raw"), col("3", "deflated")
    ratio = [a / b for a, b in zip(delta_raw, full_raw)]
    vs_raw = [a / b for a, b in zip(delta_raw, col_raw)]
    vs_def = [a / b for a, b in zip(delta_def, col_def)]

    def worst(xs):
        i = max(range(len(xs)), key=lambda i: xs[i])
        return xs[i], seeds[i]

    print("### Targets, on the worst seed\n")
    print("| target | worst seed | measured | met |")
    print("|---|---:|---:|:---:|")
    for name, xs, fmt, ok in [
        ("tuplet delta ≤ 0.4x the full compact snapshot (raw)", ratio, "{:.3f}x", lambda v: v <= 0.4),
        ("tuplet delta < 300 bytes per client per tick (raw)", delta_raw, "{:.1f} B", lambda v: v < 300),
        ("tuplet delta smaller than @colyseus/schema, raw", vs_raw, "{:.2f}x", lambda v: v < 1),
        ("tuplet delta smaller than @colyseus/schema, deflated", vs_def, "{:.2f}x", lambda v: v < 1),
    ]:
        v, s = worst(xs)
        print(f"| {name} | {s} | {fmt.format(v)} | {'yes' if ok(v) else '**no**'} |")

    if times:
        print("\n### Encode cost\n")
        t = [times[s] for s in seeds]
        n = t[0]["ticks"]
        rounds = t[0]["rounds"]
        print(f"Per tick, all {clients} clients, release build: the `Tracker`s' `encode` (diff against the")
        print("baseline, write, keep what was sent as the next baseline) against encoding each client's")
        print(f"full compact snapshot once. {n} ticks of each seed (two keyframes per client), {rounds}")
        print("alternating rounds, median per row; the snapshot values are built beforehand for both.\n")
        print("| per tick, 50 clients | µs |")
        print("|---|---:|")
        print(f"| full compact snapshot x 50 | {med([x['full_us_per_tick'] for x in t])} |")
        print(f"| tuplet delta x 50 (`Tracker::encode`) | {med([x['delta_us_per_tick'] for x in t])} |")
        print(f"| **ratio** | **{med([x['ratio'] for x in t], '{:.2f}x')}** |")
        print("\nAbsolute times are under the shared machine's load; the ratio compares rows of the same run.")

    print("\n### Where the tuplet delta's bytes go\n")
    print("Raw bytes per client per tick by part (median over seeds), from the independent writer.\n")
    print("| part | bytes | share |")
    print("|---|---:|---:|")
    names = list(parts[seeds[0]]["bytes"].keys())
    total = statistics.median(sum(parts[s]["bytes"].values()) for s in seeds)
    for n_ in sorted(names, key=lambda n_: -statistics.median(parts[s]["bytes"][n_] for s in seeds)):
        v = statistics.median(parts[s]["bytes"][n_] for s in seeds)
        print(f"| {n_} | {v:.1f} | {v / total:.0%} |")

    print("\n### Differences or new values, per field kind\n")
    print("The same deltas with quantized fields travelling as their new wire int instead of the")
    print("difference from the baseline's (everything else as WIRE.md says).\n")
    print("| quantized fields travel as | raw bytes | deflated bytes |")
    print("|---|---:|---:|")
    for row, name in FORMS:
        print(f"| {name} | {med(col(row, 'raw'), '{:.1f}')} | {med(col(row, 'deflated'), '{:.1f}')} |")


if __name__ == "__main__":
    main()
