//! Lists every solution of a small board, one per line (the column of each row's queen),
//! and checks each: `cargo run --release --example solutions -- 6`.

use nqueens::placement::check;
use nqueens::solutions::Solutions;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "6".into())
        .parse()?;
    let mut listed = 0;
    for cols in Solutions::new(n)? {
        assert!(check(&cols).is_ok(), "every listed placement is a solution");
        let line: Vec<String> = cols.iter().map(usize::to_string).collect();
        println!("{}", line.join(" "));
        listed += 1;
    }
    println!("{listed} solutions of N = {n}");
    Ok(())
}
