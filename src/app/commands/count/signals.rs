//! Stopping a count cleanly: Ctrl-C and SIGTERM ask the run to stop between
//! sub-problems, so that it saves its checkpoint and says what it kept.

use crate::app::failure::Failure;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Ctrl-C and SIGTERM set `stop`: the run ends between sub-problems, saving its checkpoint.
pub struct Stop {
    pub stop: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
}

impl Stop {
    pub fn on_signals() -> Result<Stop, Failure> {
        let stop = Stop {
            stop: Arc::new(AtomicBool::new(false)),
            term: Arc::new(AtomicBool::new(false)),
        };
        for (signal, flag) in [
            (signal_hook::consts::SIGINT, &stop.stop),
            (signal_hook::consts::SIGTERM, &stop.stop),
            (signal_hook::consts::SIGTERM, &stop.term),
        ] {
            signal_hook::flag::register(signal, Arc::clone(flag))
                .map_err(|e| Failure::usage(format!("cannot handle signals: {e}")))?;
        }
        Ok(stop)
    }

    /// The shell's status for the signal that stopped the run.
    pub fn status(&self) -> u8 {
        if self.term.load(Ordering::Relaxed) {
            143
        } else {
            130
        }
    }
}
