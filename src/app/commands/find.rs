//! `nqueens find N`: one solution for a large board.

use crate::app::args::FindArgs;
use crate::app::args::choices::FindMethod;
use crate::app::failure::Failure;
use crate::app::output::Output;
use crate::app::progress::Bar;
use crate::app::render::{Format, Item, stream_board, svg, write_text};
use crate::app::system::memory_available;
use nqueens::construct::{
    FindError, MIN_CONFLICTS_BYTES_PER_ROW, explicit, min_conflicts_showing, random_restart,
};
use nqueens::words::human_bytes;
use std::time::Instant;

/// The seed of the random methods when none is given.
pub const DEFAULT_SEED: u64 = 1;
/// The step limit of the random methods when none is given.
pub const DEFAULT_MAX_STEPS: u64 = 50_000_000;

/// The largest board random placement with restarts takes: past N = 1,000 its tries
/// rarely succeed, and each costs O(N^2), so it would run to its step limit for hours.
const LARGEST_RANDOM_RESTART: usize = 10_000;

/// Boards are drawn only up to this side; larger ones are written as a list.
const LARGEST_DRAWN: usize = 64;

pub fn run(args: &FindArgs) -> Result<(), Failure> {
    let n = args.n;
    if matches!(
        args.out.format(),
        Format::Board | Format::Unicode | Format::Svg
    ) && n > LARGEST_DRAWN
    {
        return Err(Failure::refused(format!(
            "boards are drawn up to N = {LARGEST_DRAWN}; use --format list (with --output FILE) for N = {n}"
        )));
    }
    if args.out.format() == Format::Svg && args.out.output.is_none() {
        return Err(Failure::refused(
            "--format svg writes a picture: give --output FILE",
        ));
    }
    if args.method == FindMethod::Explicit {
        for (flag, given) in [
            ("--seed", args.seed.is_some()),
            ("--max-steps", args.max_steps.is_some()),
        ] {
            if given {
                return Err(Failure::refused(format!(
                    "{flag} applies to --method min-conflicts and random-restart; the explicit \
                     construction has no randomness and no steps to limit"
                )));
            }
        }
    }
    if args.method == FindMethod::RandomRestart && n > LARGEST_RANDOM_RESTART {
        return Err(Failure::refused(format!(
            "random placement with restarts is for boards up to N = {}: its tries almost \
             never complete a larger board, and each costs about N^2 operations (N = \
             1,000 took 4 to over 60 s); use --method min-conflicts or explicit",
            nqueens::words::thousands(LARGEST_RANDOM_RESTART as u64)
        )));
    }
    refuse_beyond_memory(n, args.method)?;
    let seed = args.seed.unwrap_or(DEFAULT_SEED);
    let max_steps = args.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    // The destination is checked (and claimed) before the search.
    let mut out = Output::open(args.out.output.as_deref(), args.force)?;
    let started = Instant::now();
    let found = match args.method {
        FindMethod::Explicit => explicit(n),
        FindMethod::MinConflicts => {
            let bar = Bar::new(format!("N = {n}"), args.quiet).counting("queens placed");
            let found = min_conflicts_showing(n, seed, max_steps, &bar);
            bar.finish();
            found
        }
        FindMethod::RandomRestart => random_restart(n, seed, max_steps),
    };
    let seconds = started.elapsed().as_secs_f64();
    let cols = found.map_err(|e| match e {
        FindError::GaveUp { .. } => Failure::failed(format!("{e} (raise --max-steps)")),
        _ => Failure::failed(e.to_string()),
    })?;
    match args.out.format() {
        Format::Summary => out.write(&format!(
            "N = {n}: solution found by {} and checked in {seconds:.3} s\n",
            args.method.name()
        ))?,
        // Lines and JSON stream out of the compact board: no copy of it is made.
        format @ (Format::List | Format::Json) => stream_board(&mut out, format, &cols)?,
        // Drawn boards are small (N <= 64).
        format => {
            let wide: Vec<usize> = cols.iter().map(|&c| c as usize).collect();
            let body = match format {
                Format::Svg => svg(&[wide]),
                _ => {
                    let item = Item {
                        index: 1,
                        cols: &wide,
                        placed: None,
                        orbit_size: None,
                    };
                    let mut board = String::new();
                    write_text(&mut board, format, &item);
                    board.push('\n');
                    board
                }
            };
            out.write(&body)?;
        }
    }
    out.finish()
}

/// Refuses a search whose board would not fit in the memory left (an allocation that
/// fails ends the process with no word of why).
fn refuse_beyond_memory(n: usize, method: FindMethod) -> Result<(), Failure> {
    let per_row = match method {
        FindMethod::Explicit => 4,
        FindMethod::MinConflicts => MIN_CONFLICTS_BYTES_PER_ROW,
        // The lines (40 bytes a row), the board and one row's free squares.
        FindMethod::RandomRestart => 52,
    };
    let needed = per_row * n as u64;
    match memory_available() {
        Some(available) if needed > available => {
            let explicit = match method {
                FindMethod::Explicit => String::new(),
                _ => format!(
                    "; the explicit construction needs {}",
                    human_bytes(4 * n as u64)
                ),
            };
            Err(Failure::refused(format!(
                "finding a solution for N = {} by {} needs {} of memory, but {} is available{explicit}",
                nqueens::words::thousands(n as u64),
                method.name(),
                human_bytes(needed),
                human_bytes(available)
            )))
        }
        _ => Ok(()),
    }
}
