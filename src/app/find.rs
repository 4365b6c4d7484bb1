//! `nqueens find N`: one solution for a large board.

use super::cli::{FindArgs, Method};
use super::render::{Format, Item, svg, text};
use super::{Failure, output};
use nqueens::construct::{FindError, explicit, min_conflicts, random_restart};
use std::time::Instant;

/// Boards are drawn only up to this side; larger ones are written as a list.
const LARGEST_DRAWN: usize = 64;

pub fn run(args: &FindArgs) -> Result<(), Failure> {
    let n = args.n;
    if matches!(
        args.out.format,
        Format::Board | Format::Unicode | Format::Svg
    ) && n > LARGEST_DRAWN
    {
        return Err(Failure::usage(format!(
            "boards are drawn up to N = {LARGEST_DRAWN}; use --format list (with --output FILE) for N = {n}"
        )));
    }
    if args.out.format == Format::Svg && args.out.output.is_none() {
        return Err(Failure::usage(
            "--format svg writes a picture: give --output FILE",
        ));
    }
    let started = Instant::now();
    let found = match args.method {
        Method::Explicit => explicit(n),
        Method::MinConflicts => min_conflicts(n, args.seed, args.max_steps),
        Method::RandomRestart => random_restart(n, args.seed, args.max_steps),
    };
    let seconds = started.elapsed().as_secs_f64();
    let cols = found.map_err(|e| match e {
        FindError::NoSolution(_) | FindError::GaveUp { .. } | FindError::Invalid(_) => {
            Failure::failed(e.to_string())
        }
    })?;
    let mut out = output::open(args.out.output.as_deref(), args.force)?;
    let body = match args.out.format {
        Format::Summary => format!(
            "N = {n}: solution found by {} and checked in {seconds:.3} s\n",
            args.method.name()
        ),
        Format::Svg => svg(&[cols]),
        format => {
            let item = Item {
                index: 1,
                cols: &cols,
                step: None,
                orbit_size: None,
            };
            format!("{}\n", text(format, &item))
        }
    };
    output::write(&mut out, &body)?;
    output::finish(&mut out)
}
