//! Records the git commit and the compiler version for `nqueens bench` reports.

use std::process::Command;

fn main() {
    let output = |cmd: &str, args: &[&str]| {
        Command::new(cmd)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|| "unknown".into())
    };
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    println!(
        "cargo:rustc-env=NQUEENS_GIT_COMMIT={}",
        output("git", &["rev-parse", "--short=12", "HEAD"])
    );
    println!(
        "cargo:rustc-env=NQUEENS_RUSTC_VERSION={}",
        output(&rustc, &["--version"])
    );
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs");
}
