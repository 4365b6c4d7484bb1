//! Drawing placements: a list of columns, text boards, Unicode boards, JSON Lines, SVG.

use super::failure::Failure;
use super::output::Output;
use clap::ValueEnum;
use serde::Serialize;

/// How placements are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One placement per line: the 0-based column of the queen in each row, row 0 first.
    List,
    /// `. Q` text boards, one row per line, a blank line between boards.
    Board,
    /// A chequered Unicode board with queens.
    Unicode,
    /// JSON Lines: {"n", "index", "cols" (0-based, by row), optional "placed", "orbit_size"}.
    Json,
    /// An SVG picture of one board, or of the first K boards in a grid (needs --output).
    Svg,
    /// (find only) One line: how the solution was found and checked, and how long it took.
    Summary,
}

/// A placement with what the listing knows about it.
pub struct Item<'a> {
    pub index: u64,
    pub cols: &'a [usize],
    /// Queens the search had placed when it found this one.
    pub placed: Option<u128>,
    pub orbit_size: Option<usize>,
}

#[derive(Serialize)]
struct JsonItem<'a> {
    n: usize,
    index: u64,
    cols: &'a [usize],
    #[serde(skip_serializing_if = "Option::is_none")]
    placed: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    orbit_size: Option<usize>,
}

/// Appends the text of one placement in a line-oriented format (not SVG or summary) to
/// `out`, without its final line end.
pub fn write_text(out: &mut String, format: Format, item: &Item) {
    use std::fmt::Write as _;
    let n = item.cols.len();
    match format {
        Format::List => {
            if let Some(placed) = item.placed {
                write!(out, "placed {placed}: ").expect("writing to a String");
            }
            if let Some(size) = item.orbit_size {
                write!(out, "orbit {size}: ").expect("writing to a String");
            }
            for (i, &col) in item.cols.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                push_number(out, col);
            }
        }
        Format::Board | Format::Unicode => {
            write!(out, "solution {}", item.index).expect("writing to a String");
            if let Some(placed) = item.placed {
                write!(out, ", placed {placed}").expect("writing to a String");
            }
            if let Some(size) = item.orbit_size {
                write!(out, ", orbit {size}").expect("writing to a String");
            }
            out.push('\n');
            for (row, &queen) in item.cols.iter().enumerate() {
                for col in 0..n {
                    if col > 0 {
                        out.push(' ');
                    }
                    out.push(match (format, col == queen, (row + col) % 2 == 0) {
                        (Format::Board, true, _) => 'Q',
                        (Format::Board, false, _) => '.',
                        (_, true, _) => '♛',
                        (_, false, true) => '□',
                        (_, false, false) => '■',
                    });
                }
                out.push('\n');
            }
        }
        Format::Json => out.push_str(
            &serde_json::to_string(&JsonItem {
                n,
                index: item.index,
                cols: item.cols,
                placed: item.placed,
                orbit_size: item.orbit_size,
            })
            .expect("plain data serializes"),
        ),
        Format::Svg | Format::Summary => unreachable!("not a line format"),
    }
}

/// Appends `value` in decimal: the columns of a listing, millions of them a second, so
/// the usual ones (below 100) skip the formatter.
fn push_number(out: &mut String, value: usize) {
    use std::fmt::Write as _;
    if value < 10 {
        out.push(char::from(b'0' + value as u8));
    } else if value < 100 {
        out.push(char::from(b'0' + (value / 10) as u8));
        out.push(char::from(b'0' + (value % 10) as u8));
    } else {
        write!(out, "{value}").expect("writing to a String");
    }
}

/// Writes one compact board as a `list` line or a JSON Lines object, a chunk at a time, so
/// a board of millions of queens never exists as one string.
pub fn stream_board(out: &mut Output, format: Format, cols: &[u32]) -> Result<(), Failure> {
    use std::fmt::Write as _;
    const CHUNK: usize = 1 << 16;
    let (open, separator, close) = match format {
        Format::List => (String::new(), " ", "\n"),
        Format::Json => (
            format!("{{\"n\":{},\"index\":1,\"cols\":[", cols.len()),
            ",",
            "]}\n",
        ),
        _ => unreachable!("a line format"),
    };
    let mut chunk = open;
    for (i, col) in cols.iter().enumerate() {
        if i > 0 {
            chunk.push_str(separator);
        }
        write!(chunk, "{col}").expect("writing to a String");
        if chunk.len() >= CHUNK {
            out.write(&chunk)?;
            chunk.clear();
        }
    }
    chunk.push_str(close);
    out.write(&chunk)
}

/// An SVG picture of the boards in a grid, up to 4 boards a row.
pub fn svg(boards: &[Vec<usize>]) -> String {
    const SQUARE: usize = 24;
    const GAP: usize = 16;
    let n = boards.first().map_or(1, Vec::len);
    let side = n * SQUARE;
    let per_row = boards.len().clamp(1, 4);
    let grid_rows = boards.len().div_ceil(per_row).max(1);
    let width = per_row * (side + GAP) + GAP;
    let height = grid_rows * (side + GAP) + GAP;
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n"
    );
    for (i, cols) in boards.iter().enumerate() {
        let x0 = GAP + (i % per_row) * (side + GAP);
        let y0 = GAP + (i / per_row) * (side + GAP);
        out.push_str(&format!(
            "  <g class=\"board\" transform=\"translate({x0} {y0})\">\n"
        ));
        for row in 0..n {
            for col in 0..n {
                let fill = if (row + col) % 2 == 0 {
                    "#f0d9b5"
                } else {
                    "#b58863"
                };
                out.push_str(&format!(
                    "    <rect class=\"square\" x=\"{}\" y=\"{}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"/>\n",
                    col * SQUARE,
                    row * SQUARE
                ));
            }
        }
        for (row, &col) in cols.iter().enumerate() {
            out.push_str(&format!(
                "    <circle class=\"queen\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#202020\"/>\n",
                col * SQUARE + SQUARE / 2,
                row * SQUARE + SQUARE / 2,
                SQUARE * 3 / 8
            ));
        }
        out.push_str("  </g>\n");
    }
    out.push_str("</svg>\n");
    out
}
