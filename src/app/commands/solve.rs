//! `nqueens solve N`: every solution, streamed in lexicographic order.

use crate::app::args::SolveArgs;
use crate::app::args::engine::{default_threads, worded};
use crate::app::failure::Failure;
use crate::app::output::Output;
use crate::app::progress::Bar;
use crate::app::render::{Format, Item, svg, write_text};
use nqueens::Progress;
use nqueens::known::known;
use nqueens::solutions::{InOrder, Listed, Which};

/// Above this N a full listing needs --limit or --force: N = 17 alone is 95,815,104 boards.
const LONGEST_UNASKED_N: usize = 16;

pub fn run(args: &SolveArgs) -> Result<(), Failure> {
    let n = args.n;
    if n > LONGEST_UNASKED_N && args.limit.is_none() && !args.force {
        let how_many = known(n).map_or("an enormous number of".to_string(), |k| {
            nqueens::words::thousands(k.total)
        });
        return Err(Failure::refused(format!(
            "listing every solution for N = {n} means {how_many} boards; add --limit K, or --force to list them all"
        )));
    }
    let format = args.out.format();
    if format == Format::Summary {
        return Err(Failure::refused(
            "--format summary is for `find`; use list, board, unicode, json or svg",
        ));
    }
    if format == Format::Svg && args.out.output.is_none() {
        return Err(Failure::refused(
            "--format svg writes a picture: give --output FILE",
        ));
    }
    let threads = match args.threads {
        Some(threads) => threads,
        None => default_threads()?,
    };
    let which = match args.unique {
        true => Which::OnePerOrbit,
        false => Which::All,
    };
    // A picture holds one board unless --limit asks for more.
    let limit = args
        .limit
        .unwrap_or(if format == Format::Svg { 1 } else { u64::MAX });
    let mut listing = InOrder::new(n, which, limit, threads).map_err(worded)?;
    let mut out = Output::open(args.out.output.as_deref(), args.force)?;
    let bar = progress_bar(args, which, limit);
    if format == Format::Svg {
        let mut boards = Vec::new();
        let keep =
            |boards: &mut Vec<Vec<usize>>, listed: &Listed| boards.push(listed.cols.to_vec());
        while let Some(pieces) = listing.next_batch(keep) {
            boards.extend(pieces.into_iter().flatten());
        }
        out.write(&svg(&boards))?;
    } else {
        let write = |text: &mut String, listed: &Listed| {
            let item = Item {
                index: listed.index,
                cols: listed.cols,
                placed: args.placed.then_some(listed.placed),
                orbit_size: listed.orbit_size,
            };
            write_text(text, format, &item);
            // Lines get their end here; boards end in one already, so they get a blank line.
            text.push('\n');
        };
        let mut shown = 0;
        while let Some(pieces) = listing.next_batch(write) {
            for piece in pieces {
                out.write(&piece)?;
            }
            if let Some(bar) = &bar {
                let listed = listing.listed();
                bar.advance(listed - shown, (listed - shown) as f64);
                shown = listed;
            }
        }
    }
    if let Some(bar) = &bar {
        bar.finish();
    }
    out.finish()
}

/// A bar over the solutions to list, where their number is known and the listing goes
/// to a file (`--output`, or stdout sent to one): on a terminal or a pipe (`| less`) a
/// bar would be drawn among the lines or under the pager.
fn progress_bar(args: &SolveArgs, which: Which, limit: u64) -> Option<Bar> {
    let to_file = args.out.output.is_some()
        || std::fs::metadata("/dev/stdout").is_ok_and(|meta| meta.is_file());
    let known = known(args.n)?;
    let all = match which {
        Which::All => known.total,
        Which::OnePerOrbit => known.unique,
    };
    let total = u64::try_from(all).unwrap_or(u64::MAX).min(limit);
    (to_file && !args.quiet).then(|| {
        let bar = Bar::new(format!("N = {}", args.n), false).counting("solutions");
        bar.begin(total, total as f64);
        bar
    })
}
