//! A WebTransport session's snapshots (docs/webtransport.md, "Snapshots over datagrams"):
//! `world:snapshot` comes as datagrams in the acknowledged form `[number, ago, payload]`,
//! keyframes until the client acknowledges one (`world:ack`), then deltas against the
//! acknowledged snapshot, so a lost one costs nothing. Over real QUIC on loopback with the
//! `wtransport` client, against a server of its own (bounded in time).

use std::time::Duration;

use tokio::sync::mpsc;
use tuplet::delta::{Mirror, RING};
use tuplet::wire::Reader;
use tuplet::{Dispatch as _, Encoding, Message as _};
use village::dispatch::ClientMessage;
use village::player::PlayerJoin;
use village::session::SessionHello;
use village::world::{WorldAck, WorldSnapshot};
use village_server::{start, Config, Server};
use wtransport::{Connection, Endpoint, SendStream};

#[path = "support/wt_client.rs"]
mod wt_client;

async fn server() -> Server {
    let config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        webtransport: true,
        // A few NPCs, so that even a keyframe fits in a datagram.
        npcs: 4,
        ..Config::default()
    };
    start(config).await.expect("server starts")
}

/// A session to the village room of `s`, its stream, and every snapshot that comes as a
/// datagram (its envelope's payload) on `snapshots`. Frames on the stream are read and
/// their ids sent on `stream_ids`.
struct Session {
    _endpoint: Endpoint<wtransport::endpoint::endpoint_side::Client>,
    connection: Connection,
    send: SendStream,
    snapshots: mpsc::UnboundedReceiver<Vec<u8>>,
    stream_ids: mpsc::UnboundedReceiver<u64>,
}

async fn open(s: &Server) -> Session {
    let endpoint = wt_client::endpoint(s);
    let url = s.webtransport_url("village").unwrap();
    let connection = tokio::time::timeout(Duration::from_secs(5), endpoint.connect(url))
        .await
        .expect("answered within 5 s")
        .expect("the session opens");
    let (send, mut recv) = connection.open_bi().await.unwrap().await.unwrap();
    let (ids_tx, stream_ids) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut buf = Vec::new();
        let mut chunk = vec![0u8; 16 * 1024];
        while let Ok(Some(n)) = recv.read(&mut chunk).await {
            buf.extend_from_slice(&chunk[..n]);
            while let Some((width, len)) = prefix(&buf) {
                if buf.len() < width + len {
                    break;
                }
                let id = Reader::new(&buf[width..width + len])
                    .read_u64(0, u64::from(u32::MAX))
                    .unwrap_or(u64::MAX);
                buf.drain(..width + len);
                let _ = ids_tx.send(id);
            }
        }
    });
    let (tx, snapshots) = mpsc::unbounded_channel();
    let datagrams = connection.clone();
    tokio::spawn(async move {
        while let Ok(d) = datagrams.receive_datagram().await {
            let payload = d.payload();
            let mut r = Reader::new(payload.as_ref());
            let id = r.read_u64(0, u64::from(u32::MAX));
            if id.is_ok_and(|id| id == u64::from(WorldSnapshot::ID)) {
                let _ = tx.send(r.rest().to_vec());
            }
        }
    });
    Session {
        _endpoint: endpoint,
        connection,
        send,
        snapshots,
        stream_ids,
    }
}

/// The width and value of the QUIC variable-length integer at the start of `buf`.
fn prefix(buf: &[u8]) -> Option<(usize, usize)> {
    let first = *buf.first()?;
    let width = 1usize << (first >> 6);
    if buf.len() < width {
        return None;
    }
    let mut len = usize::from(first & 0x3f);
    for &b in &buf[1..width] {
        len = (len << 8) | usize::from(b);
    }
    Some((width, len))
}

impl Session {
    /// Sends `msg` on the stream.
    async fn say(&mut self, msg: impl Into<ClientMessage>) {
        let bytes = msg.into().to_envelope(Encoding::Compact).unwrap();
        let mut out = vec![0x40 | (bytes.len() >> 8) as u8, bytes.len() as u8];
        out.extend_from_slice(&bytes);
        self.send.write_all(&out).await.unwrap();
    }

    /// Sends `msg` as a datagram.
    fn datagram(&self, msg: impl Into<ClientMessage>) {
        let bytes = msg.into().to_envelope(Encoding::Compact).unwrap();
        self.connection.send_datagram(bytes).unwrap();
    }

    /// The next snapshot that came as a datagram, within 5 s.
    async fn snapshot(&mut self) -> Snap {
        let payload = tokio::time::timeout(Duration::from_secs(5), self.snapshots.recv())
            .await
            .expect("a snapshot datagram within 5 s")
            .expect("the session stays open");
        let mut r = Reader::new(&payload);
        assert_eq!(r.read_array_len().unwrap(), 3, "[number, ago, payload]");
        let number = r.read_u64(0, u64::MAX).unwrap();
        let ago = r.read_u64(0, u64::MAX).unwrap();
        Snap {
            number,
            ago,
            payload,
        }
    }
}

/// A snapshot of the acknowledged mode, its header read.
struct Snap {
    number: u64,
    /// 0: a keyframe; else a delta against snapshot `number - ago`.
    ago: u64,
    payload: Vec<u8>,
}

/// Until an acknowledgement, keyframes; after one, deltas against it, which apply whether
/// or not the snapshots between arrived; a newer acknowledgement moves the baseline.
#[tokio::test]
async fn snapshots_come_as_datagrams_and_a_lost_one_is_followed_by_a_delta_against_the_acked() {
    let s = server().await;
    let mut c = open(&s).await;
    c.say(SessionHello {
        protocol: 2,
        build: "wt-test".into(),
        locale: "en".into(),
        token: None,
        resume: None,
    })
    .await;
    c.say(PlayerJoin {
        name: "watcher".into(),
        colour: 0x3366cc,
        outfit: None,
    })
    .await;
    let mut mirror = Mirror::<WorldSnapshot>::acked(RING);

    // No acknowledgement yet: every snapshot is a keyframe, numbered from 1.
    let first = c.snapshot().await;
    assert_eq!((first.number, first.ago), (1, 0), "the first is a keyframe");
    let second = c.snapshot().await;
    assert_eq!(
        (second.number, second.ago),
        (2, 0),
        "no ack yet: a keyframe"
    );
    let applied = mirror.apply(&second.payload).expect("a keyframe applies");
    assert!(applied.keyframe);
    c.datagram(WorldAck {
        n: mirror.ack() as u32,
    });

    // Deltas against snapshot 2 once the ack is in. The first of them is "lost": not
    // applied, not acknowledged.
    let lost = loop {
        let s = c.snapshot().await;
        if s.ago != 0 {
            break s;
        }
    };
    assert_eq!(
        lost.number - lost.ago,
        2,
        "a delta against the acknowledged one"
    );
    let next = c.snapshot().await;
    assert_eq!(next.number, lost.number + 1, "numbered in order");
    assert_eq!(
        next.number - next.ago,
        2,
        "after a loss: still against the acknowledged snapshot"
    );
    let value = mirror
        .apply(&next.payload)
        .expect("applies without the lost one");
    assert!(!value.keyframe, "a delta, not a keyframe");
    assert_eq!(mirror.ack(), next.number);
    // The lost one arriving late is refused and changes nothing.
    let late = mirror.apply(&lost.payload).unwrap_err();
    assert_eq!(late.code(), tuplet::Code::NoBaseline);
    assert_eq!(mirror.ack(), next.number);

    // A newer acknowledgement moves the baseline to it.
    c.datagram(WorldAck {
        n: next.number as u32,
    });
    let moved = loop {
        let s = c.snapshot().await;
        mirror
            .apply(&s.payload)
            .expect("every later snapshot applies");
        if s.number - s.ago == next.number {
            break s;
        }
        assert!(
            s.number < next.number + 20,
            "the new baseline taken within 20 snapshots"
        );
    };
    assert!(moved.ago > 0);

    // The stream carried the session's reliable messages and no snapshot.
    c.connection.close(0u32.into(), b"done");
    let mut ids = Vec::new();
    while let Ok(id) = c.stream_ids.try_recv() {
        ids.push(id);
    }
    assert!(!ids.is_empty(), "the welcome came on the stream");
    assert!(
        !ids.contains(&u64::from(WorldSnapshot::ID)),
        "no snapshot on the stream: {ids:?}"
    );
}
