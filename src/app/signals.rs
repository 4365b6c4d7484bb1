//! Signals: Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed).
//!
//! A count stops cleanly ([`Stop`]): it says so at once, abandons the sub-problems in
//! hand (the kernels look at the flag every few microseconds, however long a sub-problem
//! is), saves its checkpoint and reports what it kept. A second signal ends the process
//! at once, keeping only what was saved before.
//!
//! A listing being written to a file ([`create_removed_on_signal`]) has nothing to keep:
//! the signal removes its temporary file and ends the process, so no hidden file is left.

use crate::app::failure::Failure;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, Once};

/// The stop flag a run checks, and the signal that set it.
pub struct Stop {
    pub stop: Arc<AtomicBool>,
    signal: Arc<AtomicI32>,
    /// What stopping does, said when the signal comes ("stopping, saving ...").
    notice: Arc<Mutex<String>>,
}

impl Stop {
    /// Watches for the signals on a thread of its own for the rest of the process;
    /// `notice` says what stopping will do with the work ("stopping, saving ...").
    pub fn on_signals(notice: &str) -> Result<Stop, Failure> {
        let stop = Stop {
            stop: Arc::new(AtomicBool::new(false)),
            signal: Arc::new(AtomicI32::new(0)),
            notice: Arc::new(Mutex::new(notice.into())),
        };
        let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])
            .map_err(|e| Failure::refused(format!("cannot handle signals: {e}")))?;
        let (flag, which) = (Arc::clone(&stop.stop), Arc::clone(&stop.signal));
        let notice = Arc::clone(&stop.notice);
        std::thread::Builder::new()
            .name("nqueens-signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if flag.load(Ordering::SeqCst) {
                        // The second signal: no more waiting.
                        std::process::exit(128 + signal);
                    }
                    which.store(signal, Ordering::SeqCst);
                    flag.store(true, Ordering::SeqCst);
                    // The terminal may be gone (SIGHUP): a failed write is no error.
                    let _ = writeln!(
                        std::io::stderr(),
                        "\nnqueens: {}: {} (send it again to quit at once)",
                        name(signal),
                        notice.lock().expect("no panics hold it")
                    );
                }
            })
            .map_err(|e| Failure::refused(format!("cannot handle signals: {e}")))?;
        Ok(stop)
    }

    /// Whether a signal has asked the run to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// The shell's status for the signal that stopped the run: 128 + its number (130
    /// for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
    pub fn status(&self) -> u8 {
        match self.signal.load(Ordering::SeqCst) {
            0 => 130,
            signal => (128 + signal) as u8,
        }
    }
}

fn name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "interrupted (SIGINT)",
        SIGTERM => "terminated (SIGTERM)",
        SIGHUP => "hung up (SIGHUP)",
        _ => "signalled",
    }
}

/// Files to remove if a signal ends the process.
static DOOMED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Creates a temporary file by `create` (`path` says where it is) that is removed if
/// SIGINT, SIGTERM or SIGHUP ends the process before it is renamed into place; the
/// process then exits with 128 + the signal. For commands that have nothing to save (not
/// `count`). The watch starts before the file exists, and the watcher waits for the
/// file's path to be noted (it takes the same lock), so no signal leaves it behind: one
/// that came between the two used to end the process with the file still there.
pub fn create_removed_on_signal<T>(
    create: impl FnOnce() -> Result<T, Failure>,
    path: impl FnOnce(&T) -> PathBuf,
) -> Result<T, Failure> {
    static WATCH: Once = Once::new();
    WATCH.call_once(|| {
        let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("nqueens-signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    for path in DOOMED.lock().expect("no panics hold it").iter() {
                        let _ = std::fs::remove_file(path);
                    }
                    let _ = writeln!(
                        std::io::stderr(),
                        "\nnqueens: {}: stopped; nothing was written",
                        name(signal)
                    );
                    std::process::exit(128 + signal);
                }
            });
    });
    let mut doomed = DOOMED.lock().expect("no panics hold it");
    let made = create()?;
    doomed.push(path(&made));
    Ok(made)
}
