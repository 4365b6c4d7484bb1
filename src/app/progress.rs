//! The progress bar: the library's [`Progress`] hook drawn with indicatif on stderr.
//!
//! The bar stays hidden for the first second (short runs show nothing) and whenever
//! stderr is not a terminal or `--quiet` is given. The ETA appears only once enough work
//! has finished for the rate to mean something.

use crate::app::system::say;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nqueens::Progress;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const SHOW_AFTER: Duration = Duration::from_secs(1);
/// With stderr not a terminal (a batch log), a plain line this often instead of a bar.
const LOG_EVERY: Duration = Duration::from_secs(30);
/// Fraction of the sub-problems done before an ETA is shown.
const ETA_AFTER: f64 = 0.05;

pub struct Bar {
    bar: ProgressBar,
    enabled: bool,
    started: Instant,
    shown: AtomicBool,
    eta_shown: AtomicBool,
    /// For batch logs: whether to write plain lines, and when the last one was written.
    log: Option<Mutex<Instant>>,
}

impl Bar {
    pub fn new(label: String, quiet: bool) -> Bar {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(style(false));
        bar.set_prefix(label);
        let terminal = std::io::stderr().is_terminal();
        let started = Instant::now();
        Bar {
            bar,
            enabled: !quiet && terminal,
            started,
            shown: AtomicBool::new(false),
            eta_shown: AtomicBool::new(false),
            log: (!quiet && !terminal).then(|| Mutex::new(started)),
        }
    }

    /// A bar over whole runs (for `bench`), shown at once when drawn at all.
    pub fn whole_runs(self, runs: u64) -> Bar {
        self.bar.set_length(runs);
        self.bar.set_style(
            ProgressStyle::with_template(
                "{prefix} [{bar:40}] {pos}/{len} runs  {elapsed_precise}  ETA {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        if self.enabled {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self
    }

    /// One whole run finished.
    pub fn run_done(&self) {
        self.bar.inc(1);
    }

    /// A line on stderr that does not tear the bar.
    pub fn note(&self, line: &str) {
        self.bar.suspend(|| say(line));
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Bar {
    /// A plain progress line for batch logs, at most every [`LOG_EVERY`].
    fn log_line(&self, last: &Mutex<Instant>) {
        let Ok(mut last) = last.try_lock() else {
            return;
        };
        if last.elapsed() < LOG_EVERY {
            return;
        }
        *last = Instant::now();
        let (done, total) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let elapsed = self.started.elapsed().as_secs_f64();
        let rate = done as f64 / elapsed.max(1e-9);
        let eta = total.saturating_sub(done) as f64 / rate.max(1e-9);
        say(&format!(
            "{}: {done}/{total} sub-problems, {elapsed:.0} s elapsed, {rate:.1}/s, ETA {eta:.0} s",
            self.bar.prefix()
        ));
    }
}

fn style(with_eta: bool) -> ProgressStyle {
    let template = if with_eta {
        "{prefix} [{bar:40}] {pos}/{len} sub-problems  {elapsed_precise}  {per_sec}  ETA {eta}"
    } else {
        "{prefix} [{bar:40}] {pos}/{len} sub-problems  {elapsed_precise}  {per_sec}"
    };
    ProgressStyle::with_template(template)
        .expect("valid template")
        .progress_chars("=> ")
}

impl Progress for Bar {
    fn begin(&self, subproblems: u64) {
        self.bar.set_length(subproblems);
    }

    fn advance(&self, done: u64) {
        self.bar.inc(done);
        if let Some(last) = &self.log {
            self.log_line(last);
        }
        if !self.enabled {
            return;
        }
        if !self.shown.load(Ordering::Relaxed)
            && self.started.elapsed() >= SHOW_AFTER
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        let len = self.bar.length().unwrap_or(0).max(1);
        if !self.eta_shown.load(Ordering::Relaxed)
            && self.bar.position() as f64 >= ETA_AFTER * len as f64
            && !self.eta_shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_style(style(true));
        }
    }
}

/// A spinner with a message, on stderr when it is a terminal.
pub fn spinner() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let spinner = ProgressBar::new_spinner();
    spinner.enable_steady_tick(Duration::from_millis(120));
    spinner
}
