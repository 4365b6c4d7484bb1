//! `nqueens --version`, `completions` and `man`: what the binary says about itself.

use crate::common::{self, nqueens};
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

#[test]
fn every_command_has_a_manual_page_with_the_exit_status() {
    for command in common::COMMANDS {
        let out = nqueens().args(["man", command]).assert().success();
        let page = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert!(page.contains(&format!("nqueens\\-{command}")), "{command}");
        assert!(page.contains(".SH \"EXIT STATUS\""), "{command}");
    }
    let dir = tempfile::tempdir().unwrap();
    nqueens()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    let mut pages: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    pages.sort();
    assert_eq!(pages.len(), common::COMMANDS.len() + 1);
    assert!(pages.contains(&"nqueens.1".to_string()));
    nqueens()
        .args(["man", "counts"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("there is no command 'counts'"));
}
