//! `nqueens --version`, `completions` and `man`: what the binary says about itself.

mod common;

use common::nqueens;
use predicates::prelude::*;

#[test]
fn completions_and_the_manual_come_from_the_binary() {
    for shell in ["bash", "zsh", "fish"] {
        let out = nqueens().args(["completions", shell]).assert().success();
        let script = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert!(
            script.contains("nqueens") && script.contains("checkpoint"),
            "{shell}"
        );
    }
    let out = nqueens().arg("man").assert().success();
    let page = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        page.starts_with(".ie") && page.contains(".TH nqueens 1"),
        "{page}"
    );
    nqueens().args(["completions", "tcsh"]).assert().code(2);
}

#[test]
fn version_names_the_kernels_of_this_cpu() {
    let best = nqueens::cpu::KernelLevel::detect().name();
    nqueens()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("fastest first: {best}")));
}
