//! Encode once per shape, not once per viewer: a relayed move to 39 viewers is encoded at
//! most twice (the tuple for current clients, the named map for clients that announced the
//! old shape), and every viewer's queue gets a reference-counted copy of the same bytes.

use bytes::Bytes;
use tuplet::{Dispatch, Encoding};
use village::dispatch::ServerMessage;

/// The envelope of one message, encoded lazily per shape.
pub(crate) struct Frames<'a> {
    msg: &'a ServerMessage,
    compact: Option<Bytes>,
    named: Option<Bytes>,
    /// How many encodings this made (at most one per shape).
    pub encodes: u32,
}

impl<'a> Frames<'a> {
    pub fn new(msg: &'a ServerMessage) -> Frames<'a> {
        Frames {
            msg,
            compact: None,
            named: None,
            encodes: 0,
        }
    }

    /// The frame in `shape`, encoding it on first use. `None` (logged) when the server built
    /// an invalid value: that is a server bug, and it must not take the room down.
    pub fn get(&mut self, shape: Encoding) -> Option<Bytes> {
        let slot = match shape {
            Encoding::Compact => &mut self.compact,
            Encoding::Named => &mut self.named,
        };
        if slot.is_none() {
            self.encodes += 1;
            match self.msg.to_envelope(shape) {
                Ok(bytes) => *slot = Some(bytes.into()),
                Err(e) => {
                    eprintln!("village-server: cannot encode {}: {e}", self.msg.name());
                    return None;
                }
            }
        }
        slot.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use village::emote::{Emote, EmoteShown};

    #[test]
    fn one_encoding_per_shape_whatever_the_viewers() {
        let msg = ServerMessage::from(EmoteShown {
            s: "abcdefghi".into(),
            emote: Emote::Wave,
            looping: false,
            at: 1,
        });
        let mut frames = Frames::new(&msg);
        let shapes = [Encoding::Compact, Encoding::Named, Encoding::Compact];
        let sent: Vec<Bytes> = shapes
            .iter()
            .cycle()
            .take(39)
            .map(|&s| frames.get(s).unwrap())
            .collect();
        assert_eq!(frames.encodes, 2);
        assert_eq!(sent[0], sent[2]);
        assert_eq!(sent[0][0], 0xcd, "envelope id 570 as uint16");
        assert_eq!(sent[0][3] & 0xf0, 0x90, "compact: an array");
        assert_eq!(sent[1][3] & 0xf0, 0x80, "named: a map");
    }
}
