//! Proximity voice chat signalling: the room only brokers WebRTC sessions between nearby
//! players and relays speaking indicators; audio itself goes peer to peer. Ids 930–949.

/// Sent by a client that enables voice: its capabilities.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "voice:enable", id = 930, dir = "c2s")]
pub struct VoiceEnable {
    /// On or off.
    pub on: bool,
    /// Push-to-talk instead of open mic.
    pub push_to_talk: bool,
    /// Opus bitrate it will send, kbit/s.
    #[tuplet(range(8, 64))]
    pub kbps: u8,
}

/// What a signalling blob is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum SignalKind {
    /// SDP offer.
    Offer = 0,
    /// SDP answer.
    Answer = 1,
    /// One ICE candidate.
    Candidate = 2,
}

/// A WebRTC signalling blob, as the browser produced it.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Signal {
    /// Offer, answer or candidate.
    pub kind: SignalKind,
    /// The payload.
    #[tuplet(len(min = 1, max = 8192))]
    pub sdp: String,
}

/// Sent by a client to a peer in voice range (offer, answer, ICE), through the room.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "voice:signal", id = 931, dir = "c2s")]
pub struct VoiceSignal {
    /// Peer.
    #[tuplet(len = 9)]
    pub to: String,
    /// The blob.
    pub signal: Signal,
}

/// The blob delivered to the peer, if still in range.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "voice:signal", id = 931, dir = "s2c")]
pub struct VoiceSignalRelayed {
    /// The blob.
    pub signal: Signal,
    /// Sender.
    pub from: crate::common::PlayerRef,
}

/// Sent to a voice user when players enter or leave voice range (connect / hang up).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "voice:peers", id = 932, dir = "s2c")]
pub struct VoicePeers {
    /// Peers to connect to.
    #[tuplet(len(max = 16), item_len(min = 9, max = 9))]
    pub connect: Vec<String>,
    /// Peers to drop.
    #[tuplet(len(max = 16), item_len(min = 9, max = 9))]
    pub drop: Vec<String>,
    /// TURN credentials, when relay is needed.
    #[tuplet(len(max = 256))]
    pub turn: Option<String>,
}

/// Sent when the server falls back to relaying audio (peers behind strict NATs): short
/// Opus frames, forwarded as they come.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "voice:frames", id = 933, dir = "both")]
pub struct VoiceFrames {
    /// Speaker; set by the server.
    #[tuplet(len = 9)]
    pub s: Option<String>,
    /// 20 ms Opus frames.
    #[tuplet(len(min = 1, max = 5), item_len(min = 1, max = 400))]
    pub frames: Vec<Vec<u8>>,
    /// Sequence of the first frame.
    pub seq: u16,
}
