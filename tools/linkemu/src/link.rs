//! Link profiles: what one direction of the emulated link does to each packet, and the
//! named links the labs use.

/// How packets are lost on one direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Loss {
    /// Nothing is lost.
    None,
    /// Each packet is lost with this probability, independently of the others.
    Independent(f64),
    /// Gilbert–Elliott: a good and a bad state; losses come in bursts while the link is bad.
    Bursty(GilbertElliott),
}

/// The Gilbert–Elliott loss model: per packet the state changes first, then the packet is
/// lost with the state's probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GilbertElliott {
    /// Probability of going from good to bad, per packet.
    pub enter_bad: f64,
    /// Probability of going from bad to good, per packet (a burst lasts 1 / this on average).
    pub leave_bad: f64,
    /// Loss probability in the good state.
    pub loss_good: f64,
    /// Loss probability in the bad state.
    pub loss_bad: f64,
}

impl GilbertElliott {
    /// The long-run share of packets lost.
    pub fn mean_loss(&self) -> f64 {
        let bad = self.enter_bad / (self.enter_bad + self.leave_bad);
        (1.0 - bad) * self.loss_good + bad * self.loss_bad
    }
}

impl Loss {
    /// The long-run share of packets lost.
    pub fn mean(&self) -> f64 {
        match self {
            Loss::None => 0.0,
            Loss::Independent(p) => *p,
            Loss::Bursty(ge) => ge.mean_loss(),
        }
    }
}

/// One direction of a link. A packet's delay is `base + U(0, jitter)`, plus `U(0, spike)` on a
/// `spike_share` of packets; like the labs' links it is delivered in order (at the later of its
/// own time and the previous packet's) unless `in_order` is false.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The name it is known by (`linkemu links` lists them).
    pub name: String,
    /// What it models, in a few words.
    pub about: String,
    /// One-way base delay, ms.
    pub base_ms: f64,
    /// Uniform jitter on top of the base, ms.
    pub jitter_ms: f64,
    /// Share of packets that get a spike on top.
    pub spike_share: f64,
    /// Largest spike, ms (uniform in [0, spike_ms)).
    pub spike_ms: f64,
    /// How packets are lost.
    pub loss: Loss,
    /// Share of packets held back out of order, so later ones pass them.
    pub reorder_share: f64,
    /// How long a reordered packet is held beyond its own time, ms.
    pub reorder_ms: f64,
    /// Share of packets delivered twice.
    pub duplicate_share: f64,
    /// Deliver in order (a packet never passes the one before it), like the labs' links.
    pub in_order: bool,
}

impl Link {
    /// A link with a fixed one-way delay and nothing else.
    pub fn fixed(name: &str, about: &str, base_ms: f64) -> Link {
        Link {
            name: name.to_string(),
            about: about.to_string(),
            base_ms,
            jitter_ms: 0.0,
            spike_share: 0.0,
            spike_ms: 0.0,
            loss: Loss::None,
            reorder_share: 0.0,
            reorder_ms: 8.0,
            duplicate_share: 0.0,
            in_order: true,
        }
    }

    /// The mean one-way delay a packet is drawn with (before in-order delivery holds it
    /// behind an earlier one), ms.
    pub fn mean_delay_ms(&self) -> f64 {
        self.base_ms + self.jitter_ms / 2.0 + self.spike_share * self.spike_ms / 2.0
    }
}

/// Bursty loss with a 2% long-run share in bursts of 4 packets on average (the Wi-Fi bursts).
pub const WIFI_BURSTS: GilbertElliott = GilbertElliott {
    enter_bad: 1.0 / 196.0,
    leave_bad: 0.25,
    loss_good: 0.0,
    loss_bad: 1.0,
};

/// The loss levels of the loss links, percent.
pub const LOSS_LEVELS: [f64; 3] = [0.5, 2.0, 5.0];
/// The round trips of the loss links, ms.
pub const ROUND_TRIPS: [f64; 3] = [50.0, 100.0, 250.0];

/// Every named link: the labs' links (the same names and numbers as
/// examples/netcode-lab/src/links.ts and examples/city-worker/lab/links.ts), the Wi-Fi link
/// with bursty loss, and `lossP-rttR` for each loss level and round trip.
pub fn named() -> Vec<Link> {
    let mut v = vec![
        Link::fixed("none", "no added delay", 0.0),
        Link {
            jitter_ms: 5.0,
            ..Link::fixed("clean", "25 ms + up to 5 ms jitter", 25.0)
        },
        wifi(),
        Link {
            jitter_ms: 25.0,
            spike_share: 0.02,
            spike_ms: 150.0,
            ..Link::fixed("far", "110 ms + up to 25 ms, 2% spikes up to 150 ms", 110.0)
        },
        Link {
            jitter_ms: 80.0,
            ..Link::fixed(
                "village",
                "0–80 ms uniform jitter (the village game's simulation)",
                0.0,
            )
        },
        Link {
            name: "wifi-burst".into(),
            about: "the Wi-Fi link with 2% loss in bursts of 4 packets on average".into(),
            loss: Loss::Bursty(WIFI_BURSTS),
            ..wifi()
        },
    ];
    for rtt in ROUND_TRIPS {
        for loss in LOSS_LEVELS {
            v.push(Link {
                loss: Loss::Independent(loss / 100.0),
                ..Link::fixed(
                    &format!("loss{loss}-rtt{rtt}"),
                    &format!("{} ms one way, {loss}% independent loss", rtt / 2.0),
                    rtt / 2.0,
                )
            });
        }
    }
    v
}

fn wifi() -> Link {
    Link {
        jitter_ms: 30.0,
        spike_share: 0.02,
        spike_ms: 120.0,
        ..Link::fixed(
            "wifi",
            "45 ms + up to 30 ms, 2% held up to 120 ms more",
            45.0,
        )
    }
}

/// The named link `name`; `jitter80` is the city lab's name for `village`.
pub fn by_name(name: &str) -> Option<Link> {
    let want = if name == "jitter80" { "village" } else { name };
    named().into_iter().find(|l| l.name == want)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loss_links_are_named_and_set_as_they_say() {
        let l = by_name("loss2-rtt100").expect("loss2-rtt100");
        assert_eq!(l.base_ms, 50.0);
        assert_eq!(l.loss, Loss::Independent(0.02));
        let l = by_name("loss0.5-rtt250").expect("loss0.5-rtt250");
        assert_eq!(l.base_ms, 125.0);
        assert_eq!(l.loss.mean(), 0.005);
        assert_eq!(named().len(), 6 + 9);
    }

    #[test]
    fn wifi_bursts_lose_two_percent() {
        assert!((WIFI_BURSTS.mean_loss() - 0.02).abs() < 1e-12);
        assert_eq!(by_name("jitter80"), by_name("village"));
    }
}
