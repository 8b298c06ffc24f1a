//! The bots' report: a readable table, and one `RESULT` line of `key=value` pairs for
//! scripts (the benchmark part parses it).

use std::collections::BTreeMap;
use std::time::Duration;

use crate::args::Args;
use crate::bot::Totals;

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

/// Prints the report; `wire` is what the counting proxy saw in the window (down, up).
pub fn print(args: &Args, t: &Totals, floor: &[f64], wire: Option<(u64, u64)>) {
    let windows: Vec<_> = t.bots.iter().filter_map(|b| b.window.as_ref()).collect();
    let secs = windows.iter().map(|w| w.secs).fold(0.0, f64::max).max(1e-9);
    let moves_per_s: f64 = windows
        .iter()
        .map(|w| (w.stop.moves.unwrap_or(0) - w.start.moves.unwrap_or(0)) as f64 / w.secs)
        .sum();
    let mut p50s: Vec<f64> = windows
        .iter()
        .map(|w| f64::from(w.stop.move_cost_p50_ms.unwrap_or(0.0)))
        .collect();
    p50s.sort_by(f64::total_cmp);
    let room_max = |f: &dyn Fn(&crate::bot::Window) -> f32| {
        windows.iter().map(|w| f64::from(f(w))).fold(0.0, f64::max)
    };
    let cost_p50 = quantile(&p50s, 0.5);
    let cost_p95 = room_max(&|w| w.stop.move_cost_p95_ms.unwrap_or(0.0));
    let late_p95 = room_max(&|w| w.stop.tick_late_p95_ms.unwrap_or(0.0));
    let late_max = room_max(&|w| w.stop.tick_late_max_ms.unwrap_or(0.0));
    let mut rtts: Vec<f64> = t
        .bots
        .iter()
        .flat_map(|b| b.rtts.iter().map(|d: &Duration| d.as_secs_f64() * 1e3))
        .collect();
    rtts.sort_by(f64::total_cmp);
    let ping_p95 = quantile(&rtts, 0.95);

    // Valid messages the bots sent against what the rooms accepted.
    let mut sent_per_room: BTreeMap<usize, u64> = BTreeMap::new();
    for b in &t.bots {
        *sent_per_room.entry(b.room).or_default() += b.valid_sent;
    }
    let accepted: u64 = windows.iter().map(|w| w.end.accepted.unwrap_or(0)).sum();
    let sent: u64 = sent_per_room.values().sum();
    let lost = sent.saturating_sub(accepted);
    let unsent: u64 = windows.iter().map(|w| w.end.unsent.unwrap_or(0)).sum();
    let mut dropped: BTreeMap<String, u64> = BTreeMap::new();
    for w in &windows {
        for (k, v) in w.end.dropped.iter().flatten() {
            *dropped.entry(k.clone()).or_default() += u64::from(*v);
        }
    }
    let garbage: u64 = t.bots.iter().map(|b| b.garbage_sent).sum();
    let corrections: u64 = t.bots.iter().map(|b| b.corrections).sum();
    let mut by_type: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for b in &t.bots {
        for (k, v) in &b.bytes_in {
            let e = by_type.entry(k).or_default();
            e.0 += v.0;
            e.1 += v.1;
        }
    }
    let clients = t.bots.len() as f64;
    let per_client = |bytes: u64| bytes as f64 / clients / secs;
    let total_in: u64 = by_type.values().map(|v| v.0).sum();

    println!(
        "village-bots: {} room(s) x {} bot(s), {:.1} s measured after {:.1} s warm-up",
        args.rooms, args.bots, secs, args.warmup
    );
    println!("  moves handled/s          {moves_per_s:.0}");
    println!(
        "  handler cost per move    p50 {:.4} ms, p95 {:.4} ms (decode, validate, fan-out encode, enqueue)",
        cost_p50, cost_p95
    );
    println!("  tick lateness            p95 {late_p95:.3} ms, max {late_max:.3} ms");
    let (floor_p95, floor_max) = (quantile(floor, 0.95), quantile(floor, 1.0));
    println!(
        "  machine floor            p95 {floor_p95:.3} ms, max {floor_max:.3} ms (a bare thread's 50 ms sleep, overslept)"
    );
    println!(
        "  ping (round trip)        p95 {ping_p95:.3} ms over {} pings",
        rtts.len()
    );
    println!(
        "  valid messages           {sent} sent, {accepted} accepted, {lost} lost, {unsent} frames unsent"
    );
    println!("  corrections received     {corrections}");
    println!("  garbage sent             {garbage}, dropped by type and code:");
    for (k, v) in &dropped {
        println!("    {k:<40} {v}");
    }
    println!("  bytes per client per second received, by type:");
    let mut rows: Vec<_> = by_type.iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1 .0));
    for (k, (bytes, n)) in rows {
        println!(
            "    {k:<24} {:>9.0} B/s {:>7.1} msg/s",
            per_client(*bytes),
            *n as f64 / clients / secs
        );
    }
    println!("    {:<24} {:>9.0} B/s", "total", per_client(total_in));
    let drops: u64 = dropped.values().sum();
    // Bytes on the wire per client per server tick (20 Hz), framing and deflate included.
    let ticks = args.secs * 20.0;
    let (wire_down, wire_up) = wire.map_or((0.0, 0.0), |(d, u)| {
        (d as f64 / clients / ticks, u as f64 / clients / ticks)
    });
    if wire.is_some() {
        println!(
            "  on the wire per client per tick  {wire_down:.0} B down, {wire_up:.0} B up (deflate {})",
            if args.deflate { "offered" } else { "off" }
        );
    }
    println!(
        "RESULT rooms={} bots={} secs={secs:.1} moves_per_s={moves_per_s:.0} cost_p50_ms={cost_p50:.4} \
         cost_p95_ms={cost_p95:.4} late_p95_ms={late_p95:.3} late_max_ms={late_max:.3} \
         ping_p95_ms={ping_p95:.3} floor_p95_ms={floor_p95:.3} floor_max_ms={floor_max:.3} sent={sent} accepted={accepted} lost={lost} unsent={unsent} \
         garbage={garbage} dropped={drops} bytes_per_client_s={:.0} \
         wire_down_per_client_tick={wire_down:.1} wire_up_per_client_tick={wire_up:.1}",
        args.rooms,
        args.bots,
        per_client(total_in)
    );
}
