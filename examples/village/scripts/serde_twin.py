#!/usr/bin/env python3
"""Writes a serde-only twin of the village crate: the same types with every tuplet derive
replaced by serde's Serialize + Deserialize and every #[tuplet(...)] attribute removed.
Used by build-time.sh to compare clean build times (issue: at most 3x serde alone)."""
import pathlib
import re
import sys

src = pathlib.Path(__file__).resolve().parent.parent
out = pathlib.Path(sys.argv[1])
(out / "src").mkdir(parents=True, exist_ok=True)


def strip_tuplet_attrs(text: str) -> str:
    """Removes #[tuplet(...)] attributes, balancing brackets (they may span lines)."""
    result, i = [], 0
    while True:
        j = text.find("#[tuplet(", i)
        if j < 0:
            result.append(text[i:])
            return "".join(result)
        result.append(text[i:j])
        depth, k = 0, j + 1
        while k < len(text):
            if text[k] == "[":
                depth += 1
            elif text[k] == "]":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1


for path in (src / "src").rglob("*.rs"):
    text = path.read_text()
    text = strip_tuplet_attrs(text)
    text = re.sub(r"tuplet::(Message|Record|Enum|Flags|Dispatch)\b", "SERDE", text)
    text = re.sub(r"(SERDE,\s*)+SERDE|SERDE", "serde::Serialize, serde::Deserialize", text)
    text = text.replace("tuplet::Reserved", "()").replace("use tuplet::Reserved;", "")
    text = re.sub(r"\bReserved\b", "()", text)
    dest = out / "src" / path.relative_to(src / "src")
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(text)

(out / "Cargo.toml").write_text(
    """[package]
name = "village-serde"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
serde = { version = "1", features = ["derive"] }

[workspace]
"""
)
