//! Disk space held back for the player store: a file of [`RESERVE`] bytes beside the
//! store's file, written (not sparse) when the store opens. When a write fails, the store
//! deletes it and tries again at once, so the states held in memory land even on a disk
//! that filled meanwhile; once writes succeed again the file is written anew.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Bytes held back: room for the write-ahead log of a few thousand players' states.
pub const RESERVE: usize = 2 * 1024 * 1024;

/// Tries to write the file again at most this often while it is missing.
const RETRY: Duration = Duration::from_secs(5);

/// The reserve file and whether it is there.
pub(crate) struct Reserve {
    path: PathBuf,
    held: bool,
    last_try: Option<Instant>,
}

impl Reserve {
    /// The reserve beside `store` (`players.db.reserve`), written now if the disk allows.
    pub fn beside(store: &Path) -> Reserve {
        let mut name = store.as_os_str().to_owned();
        name.push(".reserve");
        let mut r = Reserve {
            path: PathBuf::from(name),
            held: false,
            last_try: None,
        };
        r.restore();
        r
    }

    /// Whether the reserve file is held now.
    #[cfg(test)]
    pub fn held(&self) -> bool {
        self.held
    }

    /// Deletes the reserve file, freeing its space; true when it was held.
    pub fn release(&mut self) -> bool {
        let was = self.held;
        self.held = false;
        was && std::fs::remove_file(&self.path).is_ok()
    }

    /// Writes the reserve file if it is missing (at most once every [`RETRY`]); true when
    /// it is held afterwards.
    pub fn restore(&mut self) -> bool {
        if self.held || self.last_try.is_some_and(|t| t.elapsed() < RETRY) {
            return self.held;
        }
        self.last_try = Some(Instant::now());
        self.held = write(&self.path).is_ok();
        if !self.held {
            let _ = std::fs::remove_file(&self.path);
        }
        self.held
    }
}

fn write(path: &Path) -> std::io::Result<()> {
    let mut f = std::fs::File::create(path)?;
    let block = vec![0u8; 64 * 1024];
    for _ in 0..RESERVE / block.len() {
        f.write_all(&block)?;
    }
    f.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reserve_is_written_released_and_restored() {
        let dir = std::env::temp_dir().join(format!("village-reserve-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut r = Reserve::beside(&dir.join("players.db"));
        let file = dir.join("players.db.reserve");
        assert!(r.held());
        assert_eq!(std::fs::metadata(&file).unwrap().len(), RESERVE as u64);
        assert!(r.release());
        assert!(!file.exists());
        assert!(!r.release(), "released once");
        // Within RETRY of the last write it is not tried again.
        assert!(!r.restore());
        r.last_try = None;
        assert!(r.restore());
        assert!(file.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
