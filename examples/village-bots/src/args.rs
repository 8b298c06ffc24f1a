//! The bots' command line: what to run.

/// What to run.
#[derive(Debug, Clone)]
pub struct Args {
    pub url: String,
    pub bots: usize,
    pub rooms: usize,
    pub secs: f64,
    pub warmup: f64,
    pub tag: String,
    pub threads: usize,
    /// The server's token key (`--token-key`, else `VILLAGE_TOKEN_KEY`): signed-in bots
    /// mint their join tokens with it. Without one every bot is a guest.
    pub key: Option<Vec<u8>>,
    /// Offer permessage-deflate (`--deflate on|off`, on by default).
    pub deflate: bool,
    /// Connect through a loopback TCP proxy that counts the bytes on the wire
    /// (`--wire-count`).
    pub wire_count: bool,
}

/// The command line's flags, checked.
pub fn parse() -> Result<Args, String> {
    let mut a = Args {
        url: "ws://127.0.0.1:7878".into(),
        bots: 10,
        rooms: 1,
        secs: 20.0,
        warmup: 3.0,
        tag: format!("run{}", std::process::id()),
        threads: 1,
        key: std::env::var("VILLAGE_TOKEN_KEY")
            .ok()
            .map(String::into_bytes),
        deflate: true,
        wire_count: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--wire-count" {
            a.wire_count = true;
            continue;
        }
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let num = |v: &str| v.parse::<f64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--url" => a.url = value.trim_end_matches('/').to_string(),
            "--bots" => a.bots = num(&value)? as usize,
            "--rooms" => a.rooms = num(&value)? as usize,
            "--secs" => a.secs = num(&value)?,
            "--warmup" => a.warmup = num(&value)?,
            "--tag" => a.tag = value,
            "--threads" => a.threads = num(&value)? as usize,
            "--token-key" => a.key = Some(value.into_bytes()),
            "--deflate" => {
                a.deflate = match value.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("--deflate {value}: expected on or off")),
                }
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if a.bots == 0 || a.rooms == 0 || a.secs <= 0.0 {
        return Err("--bots, --rooms and --secs must be positive".into());
    }
    Ok(a)
}
