#!/usr/bin/env python3
"""Writes a synthetic schema N times the village's size: N renamed copies of the village
crate's modules in one crate (module `x` becomes `x_k`, message `area:verb` becomes
`areak:verb`, ids shift by 2000 per copy), plus a tuplet.toml pointing at it.

Usage: synth_schema.py VILLAGE_DIR OUT_DIR N
"""
import os
import re
import sys

village, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
src = os.path.join(village, "src")
lib = open(os.path.join(src, "lib.rs")).read()
mods = re.findall(r"^pub mod (\w+);", lib, re.M)
crate_ref = re.compile(r"\bcrate::(%s)\b" % "|".join(map(re.escape, mods)))


def rewrite(text, k):
    text = crate_ref.sub(lambda m: f"crate::{m.group(1)}_{k}", text)
    text = re.sub(r'(name\s*=\s*")([a-z_]+):', lambda m: f"{m.group(1)}{m.group(2)}{chr(97 + k)}:", text)
    text = re.sub(r"(\bid\s*=\s*)(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) + 2000 * k}", text)
    return text


os.makedirs(os.path.join(out, "synth", "src"), exist_ok=True)
lines = ["//! A synthetic schema: renamed copies of the village's modules.", ""]
for k in range(n):
    for m in mods:
        lines.append(f"pub mod {m}_{k};")
        single = os.path.join(src, m + ".rs")
        if os.path.exists(single):
            open(os.path.join(out, "synth", "src", f"{m}_{k}.rs"), "w").write(rewrite(open(single).read(), k))
        else:
            d = os.path.join(out, "synth", "src", f"{m}_{k}")
            os.makedirs(d, exist_ok=True)
            for f in os.listdir(os.path.join(src, m)):
                open(os.path.join(d, f), "w").write(rewrite(open(os.path.join(src, m, f)).read(), k))
open(os.path.join(out, "synth", "src", "lib.rs"), "w").write("\n".join(lines) + "\n")
open(os.path.join(out, "synth", "Cargo.toml"), "w").write('[package]\nname = "synth"\nversion = "0.1.0"\nedition = "2021"\n')
open(os.path.join(out, "tuplet.toml"), "w").write(
    'deploy = "any-order"\n\n[schema]\ncrate = "synth"\n\n[outputs]\njsonschema = "out/jsonschema"\nts = "out/ts"\n'
)
