//! Readers that stop reading: dropped past the write timeout, evicted without costing their
//! neighbours a message.

use std::time::Duration;

use village_server::counters::Counter;

use crate::support::*;

#[tokio::test]
async fn a_reader_blocked_past_the_write_timeout_is_dropped() {
    let s = server(|c| {
        c.write_timeout = Duration::from_millis(1000);
        c.send_buffer = 4096;
    })
    .await;
    let stalled = stall(&s).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while s.counter(Counter::WriteTimeout) == 0 || s.connections() > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not dropped in 20 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(stalled);
    neighbours_still_served(&s, 3).await;
}

#[tokio::test]
async fn a_stalled_reader_is_evicted_and_its_neighbours_lose_nothing() {
    let s = server(|c| {
        c.queue_bytes = 16 * 1024;
        c.behind_close = Duration::from_millis(500);
        c.write_timeout = Duration::from_secs(60);
        c.send_buffer = 4096;
        c.spawns = vec![[0.0; 3]; 4];
    })
    .await;
    let stalled = stall(&s).await;
    let mut boss = join(&s, &admin(2, "boss")).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while s.counter(Counter::EvictedSlow) == 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not evicted in 20 s"
        );
        boss.sync().await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let stats = boss.stats().await.unwrap();
    assert!(stats.unsent.unwrap() > 0);
    assert_eq!(stats.dropped.unwrap()["(server) evicted_slow"], 1);
    // Its slot is free at once (its writer, blocked, ends at the write timeout: the test
    // above).
    let (before, stats_after) = (stats.accepted, boss.stats().await.unwrap());
    assert!(stats_after.accepted > before);
    // Once it reads again, what was queued comes out, then the close: 1008.
    let mut stalled = stalled;
    assert_eq!(stalled.close_code(Duration::from_secs(5)).await, Some(1008));
    neighbours_still_served(&s, 2).await;
}
