//! One room: a single task that owns every player's state, handles their messages in
//! arrival order and runs the 20 Hz tick. No locks: connections talk to it through a
//! channel, and it answers through each player's bounded outbound queue.

mod diag;
mod event;
mod input;
mod join;
mod moves;
mod saving;
mod send;
mod session_end;
mod session_open;
mod state;
mod tick;

pub(crate) use event::{close, Event, Out};
pub(crate) use session_end::End;
pub(crate) use state::{Room, RoomCtx};

use tokio::sync::mpsc;

impl Room {
    /// Runs the room until it has been empty for `Config::room_idle` and `stop_if_idle`
    /// agrees (it removes the room from the registry and closes `rx` when no event is
    /// waiting; its tick clock is closed with it), or every sender of its channel is gone.
    pub async fn run(
        mut self,
        mut rx: mpsc::Receiver<Event>,
        mut stop_if_idle: impl FnMut(&mut mpsc::Receiver<Event>) -> bool,
    ) {
        let mut ticks = crate::ticker::start(self.config.tick());
        loop {
            tokio::select! {
                biased;
                Some(at) = ticks.recv() => {
                    self.on_tick(at);
                    // With a new room wanted, an empty room stops now.
                    if self.open == 0
                        && self.detached == 0
                        && (self.empty_since.elapsed() >= self.config.room_idle
                            || self.guests.room_wanted())
                        && stop_if_idle(&mut rx)
                    {
                        break;
                    }
                }
                ev = rx.recv() => match ev {
                    Some(ev) => self.on_event(ev),
                    None => break,
                },
            }
        }
        // Connections that raced the stop: tell them to go (they ask for the room again).
        while let Some(ev) = rx.recv().await {
            match ev {
                Event::Open { tx, .. } | Event::Resume { tx, .. } => {
                    let _ = tx.try_send(Out::Close(close::TRY_LATER, "room stopped"));
                }
                Event::Evict { done, .. } => {
                    let _ = done.send(());
                }
                _ => {}
            }
        }
    }

    fn on_event(&mut self, ev: Event) {
        match ev {
            Event::Open {
                conn,
                tx,
                queued,
                hello,
                who,
                len,
                ticket,
                saved,
                ip,
                datagrams,
            } => self.on_open(
                conn, tx, queued, hello, who, len, ticket, saved, ip, datagrams,
            ),
            Event::Resume {
                conn,
                tx,
                queued,
                hello,
                claims,
                len,
                datagrams,
            } => self.on_resume(conn, tx, queued, hello, claims, len, datagrams),
            Event::Evict { account, done } => {
                if let Some(idx) = self.slot_of_account(account) {
                    self.end_session(idx, End::Replaced);
                }
                let _ = done.send(());
            }
            Event::Drain { at_ms } => self.on_drain(at_ms),
            Event::Input { conn, bytes } => self.on_input(conn, &bytes),
            Event::Close { conn } => self.on_close(conn),
        }
    }
}
