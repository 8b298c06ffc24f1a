#!/usr/bin/env python3
"""The delta lab's sizer: reads frames (examples/delta-lab's `frames`, colyseus.mjs) and
prints, per row, the bytes per client per tick raw and through a streaming deflate.

    sizes.py FRAMES...          (- for stdin)

A frame is a row byte, a client byte, a u32 little-endian length and the message; length 0
is a tick on which nothing was sent. The deflate is permessage-deflate's with context
takeover, the same for every row: one zlib raw deflate stream (level 6, 15-bit window,
memLevel 8, as Node's `ws` and browsers negotiate by default) per client and row, each
message flushed with Z_SYNC_FLUSH and its trailing 00 00 ff ff dropped (RFC 7692 7.2.1).
Prints one JSON object: {row: {"ticks", "clients", "raw", "deflated", "max_raw"}}, raw and
deflated being means over every client and tick.
"""
import json
import struct
import sys
import zlib

TAIL = b"\x00\x00\xff\xff"


def main(paths):
    rows = {}
    streams = {}
    for path in paths:
        f = sys.stdin.buffer if path == "-" else open(path, "rb")
        read = f.read
        while True:
            head = read(6)
            if not head:
                break
            if len(head) < 6:
                raise SystemExit(f"sizes.py: {path}: truncated frame")
            row, client, n = struct.unpack("<BBI", head)
            msg = read(n)
            if len(msg) < n:
                raise SystemExit(f"sizes.py: {path}: truncated frame")
            r = rows.setdefault(row, {"frames": 0, "clients": set(), "raw": 0, "deflated": 0, "max_raw": 0})
            r["frames"] += 1
            r["clients"].add(client)
            if n == 0:
                continue
            z = streams.get((row, client))
            if z is None:
                z = streams[(row, client)] = zlib.compressobj(6, zlib.DEFLATED, -15, 8)
            out = z.compress(msg) + z.flush(zlib.Z_SYNC_FLUSH)
            if not out.endswith(TAIL):
                raise SystemExit("sizes.py: a sync flush without its 00 00 ff ff tail")
            r["raw"] += n
            r["deflated"] += len(out) - len(TAIL)
            r["max_raw"] = max(r["max_raw"], n)
        if f is not sys.stdin.buffer:
            f.close()
    result = {}
    for row, r in sorted(rows.items()):
        clients = len(r["clients"])
        ticks = r["frames"] // clients
        result[row] = {
            "ticks": ticks,
            "clients": clients,
            "raw": r["raw"] / r["frames"],
            "deflated": r["deflated"] / r["frames"],
            "max_raw": r["max_raw"],
        }
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main(sys.argv[1:] or ["-"])
