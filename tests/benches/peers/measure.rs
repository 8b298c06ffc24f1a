//! Timing: alternating rounds, medians, spread and the ratios the targets are stated in.

use std::time::Instant;

/// One codec on one dataset: its bytes and an encode and a decode closure.
pub struct Row<'a> {
    pub name: &'static str,
    pub bytes: Vec<u8>,
    encode: Box<dyn FnMut() + 'a>,
    decode: Box<dyn FnMut() + 'a>,
}

impl<'a> Row<'a> {
    pub fn new(name: &'static str, bytes: Vec<u8>) -> Self {
        Row {
            name,
            bytes,
            encode: Box::new(|| {}),
            decode: Box::new(|| {}),
        }
    }

    pub fn encode(mut self, f: impl FnMut() + 'a) -> Self {
        self.encode = Box::new(f);
        self
    }

    pub fn decode(mut self, f: impl FnMut() + 'a) -> Self {
        self.decode = Box::new(f);
        self
    }
}

/// Runs one row's `op` (`encode` or `decode`) `iters` times, for a profiler.
pub fn profile(row: &mut Row, op: &str, iters: usize) {
    let f = match op {
        "encode" => &mut row.encode,
        "decode" => &mut row.decode,
        _ => panic!("OP is encode or decode"),
    };
    for _ in 0..iters {
        f();
    }
}

/// The median and the quartiles of ns per call.
#[derive(Clone, Copy)]
pub struct Stat {
    pub median: f64,
    p25: f64,
    p75: f64,
}

impl Stat {
    fn of(mut samples: Vec<f64>) -> Stat {
        samples.sort_by(f64::total_cmp);
        let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
        Stat {
            median: at(0.5),
            p25: at(0.25),
            p75: at(0.75),
        }
    }

    /// The interquartile spread as ± percent of the median.
    fn spread(&self) -> f64 {
        (self.p75 - self.p25) / 2.0 / self.median * 100.0
    }
}

/// One dataset measured: every row's encode and decode.
pub struct Table {
    title: &'static str,
    names: Vec<(&'static str, usize)>,
    encode: Vec<Stat>,
    decode: Vec<Stat>,
    rounds: usize,
    iters: usize,
}

/// Ns per call of each closure over `rounds` rounds of `iters` calls, the closures taking
/// turns within each round so that load changes hit every row alike.
fn alternate(rounds: usize, iters: usize, fs: &mut [&mut Box<dyn FnMut() + '_>]) -> Vec<Stat> {
    for f in fs.iter_mut() {
        for _ in 0..iters.div_ceil(10) {
            f(); // warm-up
        }
    }
    let mut samples = vec![Vec::with_capacity(rounds); fs.len()];
    for round in 0..rounds {
        // Alternate the order too: first and last place swap every round.
        let order: Vec<usize> = if round % 2 == 0 {
            (0..fs.len()).collect()
        } else {
            (0..fs.len()).rev().collect()
        };
        for i in order {
            let start = Instant::now();
            for _ in 0..iters {
                (fs[i])();
            }
            samples[i].push(start.elapsed().as_nanos() as f64 / iters as f64);
        }
    }
    samples.into_iter().map(Stat::of).collect()
}

/// The standing rules' table header: a tuplet row is flagged when it is slower than the
/// hand-written ranges-checked row by more than 15%, or slower than rmp-serde tuple.
pub const TARGETS_HEADER: &str = "| dataset | encode: tuplet ÷ hand checked (≤ 1.15) | decode: tuplet ÷ hand checked (≤ 1.15) | encode: rmp-serde tuple ÷ tuplet (≥ 1) | decode: rmp-serde tuple ÷ tuplet (≥ 1) |\n|---|---:|---:|---:|---:|";

impl Table {
    pub fn measure(title: &'static str, mut rows: Vec<Row>, rounds: usize, iters: usize) -> Table {
        let names = rows.iter().map(|r| (r.name, r.bytes.len())).collect();
        let encode = alternate(
            rounds,
            iters,
            &mut rows.iter_mut().map(|r| &mut r.encode).collect::<Vec<_>>(),
        );
        let decode = alternate(
            rounds,
            iters,
            &mut rows.iter_mut().map(|r| &mut r.decode).collect::<Vec<_>>(),
        );
        Table {
            title,
            names,
            encode,
            decode,
            rounds,
            iters,
        }
    }

    fn index(&self, name: &str) -> usize {
        self.names
            .iter()
            .position(|(n, _)| *n == name)
            .expect("row")
    }

    pub fn print(&self) {
        let base = self.index("rmp-serde tuple");
        println!("\n### {}\n", self.title);
        println!("| codec | bytes | encode ns (± spread) | encode speed vs rmp-serde tuple | decode ns (± spread) | decode speed vs rmp-serde tuple |");
        println!("|---|---:|---:|---:|---:|---:|");
        for (i, (name, bytes)) in self.names.iter().enumerate() {
            let (e, d) = (self.encode[i], self.decode[i]);
            let bold = |s: String| if i == 0 { format!("**{s}**") } else { s };
            println!(
                "| {name} | {bytes} | {:.0} (±{:.0}%) | {} | {:.0} (±{:.0}%) | {} |",
                e.median,
                e.spread(),
                bold(format!("{:.2}x", self.encode[base].median / e.median)),
                d.median,
                d.spread(),
                bold(format!("{:.2}x", self.decode[base].median / d.median)),
            );
        }
        println!(
            "\n{} alternating rounds of {} calls; medians, ± half the interquartile range.",
            self.rounds, self.iters
        );
    }

    /// This dataset's row of the standing rules; a broken rule is marked `(flagged)`.
    pub fn targets_row(&self) -> String {
        let (t, rmp, hand) = (
            0,
            self.index("rmp-serde tuple"),
            self.index("hand-written, ranges checked"),
        );
        let mark = |ok: bool| if ok { "" } else { " (flagged)" };
        let enc_hand = self.encode[t].median / self.encode[hand].median;
        let dec_hand = self.decode[t].median / self.decode[hand].median;
        let enc = self.encode[rmp].median / self.encode[t].median;
        let dec = self.decode[rmp].median / self.decode[t].median;
        format!(
            "| {} | {enc_hand:.2}x{} | {dec_hand:.2}x{} | {enc:.2}x{} | {dec:.2}x{} |",
            self.title.split(' ').next().unwrap_or(self.title),
            mark(enc_hand <= 1.15),
            mark(dec_hand <= 1.15),
            mark(enc >= 1.0),
            mark(dec >= 1.0),
        )
    }
}
