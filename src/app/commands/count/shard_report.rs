//! What a shard's run leaves: its result file, and a line on stdout.

use crate::app::args::CountArgs;
use crate::app::escape::ShowPath;
use crate::app::failure::Failure;
use crate::app::output::write_atomically;
use crate::app::report::json_seconds;
use crate::app::system::print_line;
use nqueens::records::{Checksummed, ShardResult};
use serde::Serialize;

/// A shard's run as `--json` prints it: its file's record without the sub-problems'
/// counts, and where the file is.
#[derive(Serialize)]
struct JsonShard<'a> {
    n: usize,
    method: &'a str,
    shard: usize,
    shards: usize,
    /// The shard's own sub-problems.
    subproblems: usize,
    /// Its contribution to the total.
    total: u128,
    nodes: u128,
    seconds: f64,
    digest: &'a str,
    output: String,
}

/// Writes the shard's `result` (of `subproblems` sub-problems) to its file; if it cannot
/// be written, the result goes to stdout instead (so the work is not lost) and the run
/// fails naming the file and the reason.
pub(super) fn report(
    out: &mut impl std::io::Write,
    result: &ShardResult,
    subproblems: usize,
    args: &CountArgs,
) -> Result<(), Failure> {
    let path = args
        .output
        .as_deref()
        .expect("checked: a shard has an output");
    let text = result.to_file_text();
    let summary = format!(
        "shard {}/{} of N = {}: {}, total contribution {}",
        result.shard,
        result.shards,
        result.n,
        nqueens::words::plural(subproblems as u64, "sub-problem"),
        result.total
    );
    match write_atomically(path, &text, args.force) {
        Ok(()) if args.json => {
            let json = JsonShard {
                n: result.n,
                method: &result.method,
                shard: result.shard,
                shards: result.shards,
                subproblems,
                total: result.total,
                nodes: result.nodes,
                seconds: json_seconds(result.seconds),
                digest: &result.digest,
                output: path.shown().to_string(),
            };
            print_line(out, &serde_json::to_string(&json).expect("serializes"))
        }
        Ok(()) => print_line(out, &format!("{summary}, written to {}", path.shown())),
        Err(e) => {
            if !args.json {
                print_line(out, &format!("{summary}; its result file follows:"))?;
            }
            print_line(out, text.trim_end())?;
            Err(Failure::failed(format!(
                "cannot write {}: {e}; the shard's result is on stdout: save that line as \
                 the file for `nqueens merge`",
                path.shown()
            )))
        }
    }
}
