#!/usr/bin/env python3
"""Prints the build-time part's BENCHMARKS.md section from its measurements.

Usage: build_table.py TIMES PROFILE RUSTC_VERSION CARGO_VERSION
  TIMES lines: `schema row round kind milliseconds load-average`
  PROFILE lines: `ir package lines` and `pass package pass-name seconds`
"""
import statistics
import sys

times_path, prof_path, rustc, cargo = sys.argv[1:5]
rows = [line.split() for line in open(times_path) if line.strip()]
prof = [line.split() for line in open(prof_path) if line.strip()]

ROWS = [
    ("proto", "clean build, protocol crate alone", 1.3),
    ("full", "clean build, protocol + consumer", 1.0),
    ("incr", "rebuild of the consumer after editing one field (debug)", 1.0),
    ("check", "`cargo check` of the protocol crate after the same edit", 1.3),
]
SCHEMAS = [("village", "village"), ("synth10", "ten times the village")]


def cell(schema, row):
    """(tuplet median s, serde median s, ratio of medians, per-round ratios, rounds)."""
    got = [r for r in rows if r[0] == schema and r[1] == row]
    t = {(r[2], r[3]): int(r[4]) / 1000 for r in got}
    rounds = sorted({r[2] for r in got if (r[2], "tuplet") in t and (r[2], "serde") in t}, key=int)
    tu = statistics.median(t[(i, "tuplet")] for i in rounds)
    se = statistics.median(t[(i, "serde")] for i in rounds)
    per = [t[(i, "tuplet")] / t[(i, "serde")] for i in rounds]
    return tu, se, tu / se, per, len(rounds)


def complete(schema):
    """Whether every row has at least one round with both sides."""
    for row, _, _ in ROWS:
        t = {(r[2], r[3]) for r in rows if r[0] == schema and r[1] == row}
        if not any((i, "serde") in t for i, k in t if k == "tuplet"):
            return False
    return True


present = [(s, label) for s, label in SCHEMAS if complete(s)]
print("## Build time a server developer waits for\n")
print("`scripts/bench build-time` (`scripts/bench.d/60-build-time.sh`): the protocol crate, and a")
print("consumer crate that decodes every c2s message and encodes every s2c message through the")
print("dispatch enums as a server does (tuplet: `from_envelope` and `to_envelope`; serde: rmp-serde's")
print("`from_slice` of the c2s enum and `to_vec` of the s2c enum), once with tuplet's derives and once")
print("with serde's on a twin of the same types (`scripts/bench.d/build_bench.py` writes all of them).")
print("Dev profile of this repository (debug = 1, dependencies at opt-level 1), cargo's default")
print("incremental compilation, dependencies built beforehand and not counted. Each round runs every")
print("row for one side, then for the other, the order alternating between rounds; the edit is")
print("`player:move`'s `t` between `u64` and `u32`. Seconds are medians over rounds, the ratio is")
print("tuplet's median over serde's, per-round ratios in brackets.\n")
head = "| row | target |"
rule = "|---|---:|"
for _, label in present:
    head += f" {label}: tuplet s | serde s | ratio |"
    rule += "---:|---:|---:|"
print(head)
print(rule)
verdicts = []
for row, label, target in ROWS:
    line = f"| {label} | ≤ {target:.1f}x |"
    for s, slabel in present:
        tu, se, ratio, per, n = cell(s, row)
        met = ratio <= target
        verdicts.append((slabel, label, ratio, target, met))
        per_s = ", ".join(f"{p:.2f}" for p in per)
        line += f" {tu:.1f} | {se:.1f} | {'**' if met else ''}{ratio:.2f}x{'**' if met else ' (not met)'} [{per_s}] |"
    print(line)
print()
for s, slabel in present:
    loads = {}
    for r in rows:
        if r[0] == s:
            loads.setdefault((r[2], r[3]), r[5])
    n = len({r[2] for r in rows if r[0] == s and r[3] == "serde"} & {r[2] for r in rows if r[0] == s and r[3] == "tuplet"})
    values = sorted(float(v) for v in loads.values())
    print(f"{slabel}: {n} rounds; 1-minute load average at the start of each side's rows "
          f"{values[0]:.1f}–{values[-1]:.1f} (the machine is shared: 2 cores, several people compiling).")
for s, slabel in SCHEMAS:
    partial = [r for r in rows if r[0] == s]
    if partial and not complete(s):
        done = ", ".join(f"{r[3]} {r[1]} {int(r[4]) / 1000:.1f} s" for r in partial)
        print(f"{slabel}: the run was stopped before both sides finished a round; timings so far: {done}.")
missed = [v for v in verdicts if not v[4]]
print()
if missed:
    print("Targets not met this run: " + "; ".join(f"{m[0]}, {m[1]}: {m[2]:.2f}x (≤ {m[3]:.1f}x)" for m in missed) + ".")
else:
    print("Every target met this run.")

print("\n### Profile (village, clean, no incremental)\n")
ir = {p[1]: int(p[2]) for p in prof if p[0] == "ir"}
passes = {}
for p in prof:
    if p[0] == "pass":
        passes.setdefault(p[1], {})
        passes[p[1]][p[2]] = passes[p[1]].get(p[2], 0.0) + float(p[3])
crates = ["village-tuplet", "village-serde", "village-tuplet-server", "village-serde-server"]
crates = [c for c in crates if c in ir]
if not crates:
    print("Not measured in this run (`SKIP_PROFILE=1`).")
    print(f"\nToolchain: {rustc}; {cargo}.")
    sys.exit(0)
print("LLVM IR lines (`--emit=llvm-ir`), which do not depend on the machine's load; with")
print("`PASSES=1` also the compiler's passes in seconds (`-Ztime-passes`, RUSTC_BOOTSTRAP=1 for that")
print("measurement only; one run each):\n")
print("| | " + " | ".join(crates) + " |")
print("|---|" + "---:|" * len(crates))
print("| LLVM IR lines | " + " | ".join(f"{ir[c]:,}" for c in crates) + " |")
SHOWN = [
    ("macro_expand_crate", "macro expansion (the derives run here)"),
    ("type_check_crate", "type checking"),
    ("MIR_borrow_checking", "borrow checking"),
    ("monomorphization_collector", "monomorphization"),
    ("codegen_to_LLVM_IR", "generating LLVM IR"),
    ("LLVM_passes", "LLVM"),
    ("link", "link (writing the rlib)"),
    ("total", "total"),
]
for key, label in SHOWN:
    if any(key in passes.get(c, {}) for c in crates):
        print(f"| {label} | " + " | ".join(f"{passes.get(c, {}).get(key, 0.0):.1f}" for c in crates) + " |")
print(f"\nToolchain: {rustc}; {cargo}.")
