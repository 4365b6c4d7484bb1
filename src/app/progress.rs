//! The progress bar: the library's [`Progress`] hook drawn with indicatif on stderr.
//!
//! The bar appears after the first second (short runs show nothing), whether or not a
//! sub-problem has finished: while the count is prepared it is a spinner. It fits the
//! terminal's width, quotes the rate to three figures, and shows an ETA only once enough
//! work has finished for the rate to mean something. When stderr is not a terminal, or
//! is one that draws no bars (`TERM=dumb`), a plain line in human units goes to the log
//! every 30 seconds instead; `--quiet` shows neither.

use crate::app::system::say;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use nqueens::Progress;
use nqueens::words::duration;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const SHOW_AFTER: Duration = Duration::from_secs(1);
/// With stderr not a terminal (a batch log), a plain line this often instead of a bar.
const LOG_EVERY: Duration = Duration::from_secs(30);
/// Fraction of the estimated work done before an ETA is shown.
const ETA_AFTER: f64 = 0.05;

pub struct Bar {
    bar: ProgressBar,
    /// The estimated work of this run, and how much of it is done.
    share: Arc<Mutex<Share>>,
    enabled: bool,
    started: Instant,
    shown: AtomicBool,
    eta_shown: AtomicBool,
    /// For batch logs: whether to write plain lines, and when the last one was written.
    log: Option<Mutex<Instant>>,
    /// What the bar counts, as its log lines name it.
    units: &'static str,
}

impl Bar {
    pub fn new(label: String, quiet: bool) -> Bar {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(preparing());
        bar.set_prefix(label);
        let terminal = draws_bars();
        let started = Instant::now();
        let enabled = !quiet && terminal;
        if enabled {
            // Shown after a second even if nothing has finished yet (a long preparation,
            // or sub-problems of hours), and kept moving.
            bar.enable_steady_tick(Duration::from_millis(250));
            let later = bar.clone();
            std::thread::spawn(move || {
                std::thread::sleep(SHOW_AFTER);
                if !later.is_finished() {
                    later.set_draw_target(ProgressDrawTarget::stderr());
                }
            });
        }
        Bar {
            bar,
            share: Arc::new(Mutex::new(Share {
                total: 0.0,
                done: 0.0,
                since: started,
            })),
            enabled,
            started,
            shown: AtomicBool::new(false),
            eta_shown: AtomicBool::new(false),
            log: (!quiet && !terminal).then(|| Mutex::new(started)),
            units: "sub-problems",
        }
    }

    /// The bar counting `units` ("solutions") instead of sub-problems.
    pub fn counting(mut self, units: &'static str) -> Bar {
        self.units = units;
        self
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

/// A bar dropped on the way out of a failed command leaves no line behind.
impl Drop for Bar {
    fn drop(&mut self) {
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
        let eta = match self.share.lock().expect("no panics hold it").left() {
            Some(left) => format!("ETA {}", duration(left)),
            None => "no ETA yet".to_string(),
        };
        say(&format!(
            "{}: {done}/{total} {}, {} elapsed, {}/s, {eta}",
            self.bar.prefix(),
            self.units,
            duration(elapsed),
            three_figures(rate)
        ));
    }
}

/// A run's estimated work and how much of it is done, for an ETA that weighs each
/// finished sub-problem by its estimated work rather than counting it as one.
struct Share {
    total: f64,
    done: f64,
    /// When the sub-problems began.
    since: Instant,
}

impl Share {
    /// The fraction of the work done.
    fn fraction(&self) -> f64 {
        if self.total > 0.0 {
            (self.done / self.total).min(1.0)
        } else {
            0.0
        }
    }

    /// Seconds left, from the time so far and the share of the work done.
    fn left(&self) -> Option<f64> {
        let f = self.fraction();
        (f > 0.0).then(|| self.since.elapsed().as_secs_f64() * (1.0 - f) / f)
    }
}

/// The bar over sub-problems: as wide as the terminal allows, the rest short enough to
/// fit 80 columns with room for the bar.
fn style(with_eta: bool, share: &Arc<Mutex<Share>>) -> ProgressStyle {
    let template = if with_eta {
        "{prefix} [{wide_bar}] {pos}/{len} {elapsed} {rate} ETA {left}"
    } else {
        "{prefix} [{wide_bar}] {pos}/{len} {elapsed} {rate}"
    };
    let share = Arc::clone(share);
    ProgressStyle::with_template(template)
        .expect("valid template")
        .with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}/s", three_figures(state.per_sec()));
            },
        )
        .with_key(
            "left",
            move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                let left = share.lock().expect("no panics hold it").left();
                let _ = match left {
                    Some(left) => write!(w, "{}", short_duration(left)),
                    None => write!(w, "?"),
                };
            },
        )
        .progress_chars("=> ")
}

/// Seconds as the bar shows them: "42s", "7m", "3h", "12d".
fn short_duration(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0}s"),
        s if s < 7200.0 => format!("{:.0}m", s / 60.0),
        s if s < 172_800.0 => format!("{:.0}h", s / 3600.0),
        s => format!("{:.0}d", s / 86400.0),
    }
}

/// Before the first sub-problem is handed out: the count is being prepared.
fn preparing() -> ProgressStyle {
    ProgressStyle::with_template("{prefix} {spinner} preparing {elapsed}").expect("valid template")
}

/// A rate to three significant figures: 0.0123, 1.23, 123, 12300.
fn three_figures(x: f64) -> String {
    if x <= 0.0 || !x.is_finite() {
        return "0".into();
    }
    let decimals = (2 - x.log10().floor() as i32).max(0) as usize;
    if decimals == 0 {
        format!("{:.0}", x)
    } else {
        format!("{x:.decimals$}")
    }
}

impl Progress for Bar {
    fn begin(&self, subproblems: u64, work: f64) {
        *self.share.lock().expect("no panics hold it") = Share {
            total: work,
            done: 0.0,
            since: Instant::now(),
        };
        self.bar.set_length(subproblems);
        self.bar.set_style(style(false, &self.share));
    }

    fn advance(&self, done: u64, work: f64) {
        self.bar.inc(done);
        let fraction = {
            let mut share = self.share.lock().expect("no panics hold it");
            share.done += work;
            share.fraction()
        };
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
        if !self.eta_shown.load(Ordering::Relaxed)
            && fraction >= ETA_AFTER
            && !self.eta_shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_style(style(true, &self.share));
        }
    }
}

/// A bar over a run of about `seconds` (`estimate`'s sample), filled by the clock: shown
/// after [`SHOW_AFTER`] on a terminal that draws bars, never with `quiet`. It stops one
/// step short of full until finished, as a sample may run past its budget to end the
/// sub-problems it has begun.
pub fn over_seconds(label: String, seconds: f64, quiet: bool) -> ProgressBar {
    if quiet || !draws_bars() {
        return ProgressBar::hidden();
    }
    const STEPS: u64 = 1000;
    let bar = ProgressBar::with_draw_target(Some(STEPS), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{wide_bar}] {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix(label);
    bar.enable_steady_tick(Duration::from_millis(250));
    let clock = bar.clone();
    let started = Instant::now();
    std::thread::spawn(move || {
        std::thread::sleep(SHOW_AFTER);
        if !clock.is_finished() {
            clock.set_draw_target(ProgressDrawTarget::stderr());
        }
        // Whole seconds for a budget of a minute or two, else in larger units.
        let show = |s: f64| {
            if seconds < 120.0 {
                format!("{s:.0} s")
            } else {
                duration(s)
            }
        };
        while !clock.is_finished() {
            let elapsed = started.elapsed().as_secs_f64();
            clock.set_message(format!("{} of about {}", show(elapsed), show(seconds)));
            let share = elapsed / seconds.max(1e-9);
            clock.set_position(((share * STEPS as f64) as u64).min(STEPS - 1));
            std::thread::sleep(Duration::from_millis(250));
        }
    });
    bar
}

/// Whether stderr is a terminal that draws bars (not `TERM=dumb`).
fn draws_bars() -> bool {
    let dumb = std::env::var_os("TERM").is_some_and(|term| term == "dumb");
    std::io::stderr().is_terminal() && !dumb
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
