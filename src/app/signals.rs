//! Signals: Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed).
//!
//! One watcher ([`watch`], started before any command runs) hears them for the whole
//! process, so every command stops within a second, even one started with them ignored
//! (a background job of a script inherits SIGINT ignored). What a signal does:
//! - A run that keeps work ([`Stop`]: count, verify, bench, recount) stops cleanly: it says
//!   so at once, abandons the sub-problems in hand (the kernels look at the flag every few
//!   microseconds, however long a sub-problem is), saves what it keeps and reports it. A
//!   second signal ends the process at once, keeping only what was saved before.
//! - Any other command ends at once with 128 + the signal, first removing the temporary
//!   file of an output being written ([`create_removed_on_signal`]), so no hidden file is
//!   left.

use crate::app::failure::Failure;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The stop flag a run checks, and the signal that set it.
pub struct Stop {
    pub stop: Arc<AtomicBool>,
    signal: Arc<AtomicI32>,
}

/// A run that stops cleanly: its flag, its signal, and what stopping does with its work.
struct Graceful {
    stop: Arc<AtomicBool>,
    signal: Arc<AtomicI32>,
    notice: String,
}

/// The run the watcher stops cleanly, if one asked ([`Stop::on_signals`]).
static GRACEFUL: Mutex<Option<Graceful>> = Mutex::new(None);

/// Files to remove if a signal ends the process.
static DOOMED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Starts the one watcher of SIGINT, SIGTERM and SIGHUP for the rest of the process (once;
/// later calls return the first one's outcome).
pub fn watch() -> Result<(), Failure> {
    static STARTED: OnceLock<Result<(), String>> = OnceLock::new();
    STARTED
        .get_or_init(|| {
            let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP]).map_err(|e| e.to_string())?;
            std::thread::Builder::new()
                .name("nqueens-signals".into())
                .spawn(move || {
                    for signal in signals.forever() {
                        heard(signal);
                    }
                })
                .map(drop)
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(|e| Failure::refused(format!("cannot handle signals: {e}")))
}

/// What the watcher does with one signal (see the module docs).
fn heard(signal: i32) {
    if let Some(run) = GRACEFUL.lock().expect("no panics hold it").as_ref() {
        if run.stop.load(Ordering::SeqCst) {
            // The second signal: no more waiting.
            std::process::exit(128 + signal);
        }
        run.signal.store(signal, Ordering::SeqCst);
        run.stop.store(true, Ordering::SeqCst);
        // The terminal may be gone (SIGHUP): a failed write is no error.
        let _ = writeln!(
            std::io::stderr(),
            "\nnqueens: {}: {} (send it again to quit at once)",
            name(signal),
            run.notice
        );
        return;
    }
    // Waits for a file being created to be noted (see `create_removed_on_signal`).
    let doomed = DOOMED.lock().expect("no panics hold it");
    for path in doomed.iter() {
        let _ = std::fs::remove_file(path);
    }
    let kept = if doomed.is_empty() {
        ""
    } else {
        "; nothing was written"
    };
    let _ = writeln!(
        std::io::stderr(),
        "\nnqueens: {}: stopped{kept}",
        name(signal)
    );
    std::process::exit(128 + signal);
}

impl Stop {
    /// Asks the watcher to stop this run cleanly from now on; `notice` says what
    /// stopping will do with the work ("stopping, saving ...").
    pub fn on_signals(notice: &str) -> Result<Stop, Failure> {
        watch()?;
        let stop = Stop {
            stop: Arc::new(AtomicBool::new(false)),
            signal: Arc::new(AtomicI32::new(0)),
        };
        *GRACEFUL.lock().expect("no panics hold it") = Some(Graceful {
            stop: Arc::clone(&stop.stop),
            signal: Arc::clone(&stop.signal),
            notice: notice.into(),
        });
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
    watch()?;
    let mut doomed = DOOMED.lock().expect("no panics hold it");
    let made = create()?;
    doomed.push(path(&made));
    Ok(made)
}
