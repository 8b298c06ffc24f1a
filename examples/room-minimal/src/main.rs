//! `room-minimal [ADDR]`: serves one room at `ws://ADDR/` (default 127.0.0.1:7878).

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args().nth(1).unwrap_or("127.0.0.1:7878".into());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("room-minimal: listening on ws://{}", listener.local_addr()?);
    room_minimal::serve(listener).await;
    Ok(())
}
