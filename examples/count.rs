//! Counts the solutions of one board with the library: `cargo run --release --example
//! count -- 12`.

use nqueens::{NoProgress, Options, count};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "12".into())
        .parse()?;
    let result = count(n, &Options::default(), &NoProgress)?;
    println!(
        "N = {n}: {} solutions, {} up to symmetry (by {}, {} kernel, {} threads)",
        result.total, result.unique, result.method, result.kernel, result.threads
    );
    Ok(())
}
