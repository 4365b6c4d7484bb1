//! `nqueens solve N`: every solution, streamed in lexicographic order.

use crate::app::args::SolveArgs;
use crate::app::args::engine::worded;
use crate::app::failure::Failure;
use crate::app::output::Output;
use crate::app::render::{Format, Item, svg, text};
use nqueens::known::known;
use nqueens::solutions::{Solutions, orbit_of};

/// Above this N a full listing needs --limit or --force: N = 17 alone is 95,815,104 boards.
const LONGEST_UNASKED_N: usize = 16;

pub fn run(args: &SolveArgs) -> Result<(), Failure> {
    let n = args.n;
    if n > LONGEST_UNASKED_N && args.limit.is_none() && !args.force {
        let how_many = known(n).map_or("an enormous number of".to_string(), |k| {
            format!("{}", k.total)
        });
        return Err(Failure::refused(format!(
            "listing every solution for N = {n} means {how_many} boards; add --limit K, or --force to list them all"
        )));
    }
    if args.out.format() == Format::Summary {
        return Err(Failure::refused(
            "--format summary is for `find`; use list, board, unicode, json or svg",
        ));
    }
    if args.out.format() == Format::Svg && args.out.output.is_none() {
        return Err(Failure::refused(
            "--format svg writes a picture: give --output FILE",
        ));
    }
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut solutions = Solutions::new(n).map_err(worded)?;
    let mut out = Output::open(args.out.output.as_deref(), args.force)?;
    let mut listed = 0u64;
    let mut pictures = Vec::new();
    while listed < limit {
        let Some(cols) = solutions.next() else { break };
        let orbit_size = if args.unique {
            match orbit_of(&cols) {
                (size, true) => Some(size),
                _ => continue,
            }
        } else {
            None
        };
        listed += 1;
        if args.out.format() == Format::Svg {
            pictures.push(cols);
            if args.limit.is_none() {
                break; // one board unless --limit asks for more
            }
            continue;
        }
        let item = Item {
            index: listed,
            cols: &cols,
            placed: args.placed.then(|| solutions.placed()),
            orbit_size,
        };
        // Lines get their end here; boards end in one already, so they get a blank line.
        let mut line = text(args.out.format(), &item);
        line.push('\n');
        out.write(&line)?;
    }
    if args.out.format() == Format::Svg {
        out.write(&svg(&pictures))?;
    }
    out.finish()
}
