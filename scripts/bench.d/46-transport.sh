#!/usr/bin/env bash
# The transport lab (examples/transport-lab, docs/link-emulator.md): the real village server
# in one network namespace, five walking bots and one watcher in the other, joined by the
# link emulator; WebSocket against WebTransport over the loss links and the Wi-Fi bursts.
# Prints its Markdown section. Needs root (or `unshare -Urn`), as tools/linkemu does.
#
#   TRANSPORT_LAB_SEEDS=1  TRANSPORT_LAB_KEY_SEEDS=3  TRANSPORT_LAB_SECS=10
#   TRANSPORT_LAB_TRANSPORTS=ws,wt  (the defaults; about 10 minutes)
#   scripts/bench.d/46-transport.sh --smoke   loss2-rtt100, one seed of 3 s per transport,
#                                             debug build, every check, no table (~30 s)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${CARGO_TARGET_DIR:-target}"
transports=${TRANSPORT_LAB_TRANSPORTS:-ws,wt}
if [ "${1:-}" = --smoke ]; then
  cargo build -q --locked -p village-server -p transport-lab
  exec timeout 60 "$dir/debug/transport-lab" bench --smoke --transports "$transports"
fi
cargo build -q --locked --release -p village-server -p transport-lab
echo "## WebSocket against WebTransport over a lossy link (\`scripts/bench transport\`)"
echo
cat <<'EOF'
The real `village-server` runs in one network namespace and the clients in another,
joined by the link emulator (`tools/linkemu`, [docs/link-emulator.md](docs/link-emulator.md)):
the kernel's TCP carries the WebSocket, `wtransport`'s QUIC carries WebTransport, over the
same seeded loss and delay. Five bots walk 4 m circles at 3 m/s, each sending its pose
10 times a second (over WebTransport as datagrams); one watcher draws every bot through
tuplet's interpolator (`tuplet::netcode::EntityFeed`, the default settings) at 60 frames a
second and judges each frame's speed: *frozen* below 10% of the walking speed, *off-speed*
further than 25% from it. The clients are Rust (`examples/transport-lab`): the same
interpolator as the TypeScript one, and a QUIC client that runs in a namespace without a
browser. Each run measures 10 s after 3 s of warm-up; `loss2-rtt100` runs three seeds.

- *interp delay*: the interpolator's own adaptive delay, or fixed (min = max) at the
  figure, the same for both transports.
- *interpolator delay*: the delay it settled at (mean over judged frames, its clock
  offset taken out); *drawn behind*: how far behind the bot's own clock it was drawn.
- *bytes/player/tick*: envelope bytes every client received (no TCP, TLS or QUIC
  framing), per player per server tick (20 Hz).
- *move age*: a bot's pose stamp to its arrival at the watcher, through the server;
  *ping to server*: a `diag:ping`'s stamp to the server's answer time (one clock: the
  namespaces share the kernel's).
- *as datagrams*: the share of those bytes that came as datagrams. Over WebTransport the
  snapshots (`world:snapshot`) are datagrams too: each client's tracker deltas against the
  newest snapshot its mirror acknowledged (`world:ack`, a datagram per snapshot applied).
- *mirror errors (applied, refused)*: over every client, payloads a `Mirror` could not
  read and snapshots applied out of tick order (each error asks for a keyframe); then the
  snapshots applied, and the payloads an acknowledged mirror refused as late, duplicated
  or against a baseline it no longer holds (`no_baseline`: nothing changes, nothing wrong
  is drawn; always 0 over a WebSocket).
EOF
echo
"$dir/release/transport-lab" bench --transports "$transports" \
  --seeds "${TRANSPORT_LAB_SEEDS:-1}" --key-seeds "${TRANSPORT_LAB_KEY_SEEDS:-3}" \
  --secs "${TRANSPORT_LAB_SECS:-10}" | sed 's/^\(ok  \|FAIL\) /- \1 /'
