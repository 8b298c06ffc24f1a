#!/usr/bin/env python3
"""The committed fuzz corpora, one file per target: `corpus/TARGET.b64` holds one input per
line in standard base64 (an empty line is the empty input), lines sorted and unique, so a
diff shows the inputs added and removed. libFuzzer wants a folder of files: `unpack` writes
one (each input named by its SHA-1, as libFuzzer names them) and `pack` reads one back.

Usage: fuzz/corpus.py unpack TARGET DIR
       fuzz/corpus.py pack DIR TARGET
"""

import base64
import hashlib
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def packed(target: str) -> str:
    return os.path.join(HERE, "corpus", f"{target}.b64")


def unpack(target: str, folder: str) -> int:
    os.makedirs(folder, exist_ok=True)
    n = 0
    with open(packed(target), encoding="ascii") as f:
        for line in f:
            data = base64.b64decode(line.rstrip("\n"), validate=True)
            with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as out:
                out.write(data)
            n += 1
    return n


def pack(folder: str, target: str) -> int:
    lines = set()
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                lines.add(base64.b64encode(f.read()).decode("ascii"))
    dest = packed(target)
    # Atomic: a temporary file beside the corpus, then a rename.
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(dest), prefix=f".{target}.")
    with os.fdopen(fd, "w", encoding="ascii") as out:
        for line in sorted(lines):
            out.write(line + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, dest)
    return len(lines)


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[1] not in ("unpack", "pack"):
        sys.exit(__doc__)
    if sys.argv[1] == "unpack":
        print(f"{sys.argv[2]}: {unpack(sys.argv[2], sys.argv[3])} inputs into {sys.argv[3]}")
    else:
        print(f"{sys.argv[3]}: {pack(sys.argv[2], sys.argv[3])} inputs into {packed(sys.argv[3])}")


if __name__ == "__main__":
    main()
