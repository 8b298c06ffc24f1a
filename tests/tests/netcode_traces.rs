//! Rust's `tuplet::netcode` against the shared traces (`tests/fixtures/netcode/traces.json`,
//! written by the TypeScript runtime through `examples/netcode-lab/src/traces.ts`): the same
//! state on every frame, every drawn value within the file's tolerance (scaled by
//! max(1, |value|)). The traces hold a walker with a heading and an animation id over jittery
//! links (a stop with the sender's silence, a teleport, a hidden tab, a stall; a teleport
//! 400 ms late, 250 ms Wi-Fi stalls, a lost stop pose; a flagged respawn with extrapolation
//! turned on) and a car in tick-stamped snapshots drawn at a `RenderClock`, from a server
//! whose tick keeps time, runs 12% slow or 10% fast.

use serde_json::Value;
use tuplet::netcode::{ChannelLayout, Interpolator, NetcodeSettings, RenderClock};

fn num(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

/// A trace's settings (TypeScript's names, over the defaults); a name Rust does not know fails.
fn settings_of(v: &Value) -> NetcodeSettings {
    let mut s = NetcodeSettings::DEFAULT;
    for (k, v) in v.as_object().into_iter().flatten() {
        let x = num(v);
        match k.as_str() {
            "extrapolateMs" => s.extrapolate_ms = x,
            "extrapolateAfter" => s.extrapolate_after = x,
            "recoverMs" => s.recover_ms = x,
            "dilateBelowMs" => s.dilate_below_ms = x,
            "dilateMin" => s.dilate_min = x,
            "latePercentile" => s.late_percentile = x,
            "ringSize" => s.ring_size = x as usize,
            other => panic!("a trace sets {other}, which this test does not map"),
        }
    }
    s
}

#[test]
fn rust_draws_what_typescript_drew() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/netcode/traces.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let tol = num(&file["tolerance"]);
    let traces = file["traces"].as_array().unwrap();
    assert!(traces.len() >= 4, "the traces file lost traces");
    let (mut frames, mut decisions) = (0usize, [0usize; 5]);
    for t in traces {
        let name = t["name"].as_str().unwrap();
        let l = &t["layout"];
        let layout = ChannelLayout {
            linear: l["linear"].as_u64().unwrap() as usize,
            angle: l["angle"].as_u64().unwrap() as usize,
            hold: l["hold"].as_u64().unwrap() as usize,
        };
        let settings = settings_of(&t["settings"]);
        let mut it = Interpolator::with_settings(layout, settings);
        let mut clock = RenderClock::new(settings);
        let expect = t["expect"].as_array().unwrap();
        let mut row = 0;
        for op in t["ops"].as_array().unwrap() {
            let op: Vec<f64> = op.as_array().unwrap().iter().map(num).collect();
            let got: Vec<f64> = match op[0] as u8 {
                0 => {
                    it.push_sent(op[1], op[2], &op[3..]);
                    continue;
                }
                5 => {
                    it.push_sent_teleport(op[1], op[2], &op[3..], true);
                    continue;
                }
                1 => {
                    let st = it.sample(op[1]);
                    std::iter::once(st as u8 as f64)
                        .chain(it.out().iter().copied())
                        .collect()
                }
                2 => {
                    it.push_at(op[1], &op[2..]);
                    continue;
                }
                3 => {
                    clock.observe(op[1], op[2]);
                    continue;
                }
                4 => {
                    let r = clock.now(op[1]);
                    if r.is_nan() {
                        [0.0, 0.0]
                            .into_iter()
                            .chain(it.out().iter().copied())
                            .collect()
                    } else {
                        let st = it.sample_at(r);
                        [st as u8 as f64, r]
                            .into_iter()
                            .chain(it.out().iter().copied())
                            .collect()
                    }
                }
                k => panic!("{name}: unknown op {k}"),
            };
            let want: Vec<f64> = expect[row].as_array().unwrap().iter().map(num).collect();
            assert_eq!(
                got[0], want[0],
                "{name}, frame {row}: Rust decided {} where TypeScript decided {}",
                got[0], want[0]
            );
            for (k, (g, w)) in got.iter().zip(&want).enumerate().skip(1) {
                // the file keeps 15 significant digits
                let bound = tol * g.abs().max(1.0) + 1e-14 * w.abs().max(1.0) * 10.0;
                assert!(
                    (g - w).abs() <= bound,
                    "{name}, frame {row}, value {k}: Rust {g}, TypeScript {w}"
                );
            }
            assert_eq!(got.len(), want.len(), "{name}, frame {row}");
            decisions[got[0] as usize] += 1;
            frames += 1;
            row += 1;
        }
        assert_eq!(row, expect.len(), "{name}: frames left over");
    }
    // the traces exercise every decision
    assert!(frames > 3000, "{frames} frames");
    for (state, n) in decisions.iter().enumerate().skip(1) {
        assert!(*n > 0, "no frame of state {state} in the traces");
    }
}
