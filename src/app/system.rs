//! What the app asks of the system, in one place: the machine and build a benchmark ran
//! on, the CPUs and memory this process may use, its peak memory (Linux `/proc` and cgroup
//! files; absent elsewhere), and writing to stdout when a reader may close it early.

use super::failure::Failure;
use serde::{Deserialize, Serialize};
use std::io::{self, Write};

/// This program's version, as every file it writes records it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Machine {
    pub cpu: String,
    /// Logical CPUs this process may use (affinity and cgroup limits respected).
    pub logical_cpus: usize,
    pub memory_bytes: u64,
    pub os: String,
    pub nqueens_version: String,
    pub git_commit: String,
    pub rustc: String,
    /// When the benchmark ran, UTC, RFC 3339.
    pub date: String,
    /// The instruction-set features the kernels look for, as the CPU reports them.
    #[serde(default)]
    pub cpu_features: Vec<String>,
}

/// Logical CPUs this process may use (affinity and cgroup limits respected).
pub fn available_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The CPU's model name, as the system reports it (the architecture where it does not),
/// with its family, model and stepping where it gives them.
pub fn cpu_name() -> String {
    cpu_from(&std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default())
}

/// [`cpu_name`] from the text of `/proc/cpuinfo`. Under a hypervisor the name is often
/// only "Intel(R) Xeon(R) Processor" or "AMD EPYC Processor", which two generations
/// twice apart in speed share; the family and model numbers tell them apart, so that
/// figures from two machines can be compared.
fn cpu_from(cpuinfo: &str) -> String {
    let name = field(cpuinfo, "model name")
        .or_else(|| field(cpuinfo, "Processor"))
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let numbers = ["cpu family", "model", "stepping"].map(|key| field(cpuinfo, key));
    match numbers {
        [Some(family), Some(model), Some(stepping)] => {
            format!("{name} (family {family}, model {model}, stepping {stepping})")
        }
        _ => name,
    }
}

/// The machine and build, for a benchmark report.
pub fn describe() -> Machine {
    let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
    let cpu = cpu_name();
    let memory_bytes = kib_field(&read("/proc/meminfo"), "MemTotal").unwrap_or(0);
    let release = read("/etc/os-release");
    let name = release
        .lines()
        .find_map(|l| l.strip_prefix("PRETTY_NAME="))
        .map(|v| v.trim_matches('"').to_string())
        .unwrap_or_else(|| std::env::consts::OS.to_string());
    let kernel = read("/proc/sys/kernel/osrelease");
    let os = if kernel.trim().is_empty() {
        name
    } else {
        format!("{name}, kernel {}", kernel.trim())
    };
    Machine {
        cpu,
        logical_cpus: available_cpus(),
        memory_bytes,
        os,
        nqueens_version: VERSION.to_string(),
        git_commit: env!("NQUEENS_GIT_COMMIT").to_string(),
        rustc: env!("NQUEENS_RUSTC_VERSION").to_string(),
        date: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        cpu_features: nqueens::cpu::features_seen()
            .into_iter()
            .map(String::from)
            .collect(),
    }
}

/// The value of the first `key : value` line.
fn field(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k.trim() == key).then(|| v.trim().to_string())
    })
}

/// A `key: N kB` field in bytes.
fn kib_field(text: &str, key: &str) -> Option<u64> {
    let value = field(text, key)?;
    let kib: u64 = value.split_whitespace().next()?.parse().ok()?;
    Some(kib * 1024)
}

/// The process's peak resident set (`VmHWM`), where Linux tells it.
pub fn peak_memory() -> Option<u64> {
    kib_field(&std::fs::read_to_string("/proc/self/status").ok()?, "VmHWM")
}

/// The memory this process can still take, in bytes: the least of the system's available
/// memory (`MemAvailable`), what its cgroup's limit leaves (`memory.max` less
/// `memory.current`) and half of what its address-space limit (`ulimit -v`) leaves (the
/// allocator and the threads reserve address space ahead of use: a count of N = 21 by
/// halves, 260 MB resident, needed 550 MB of address space). `None` when none of them is
/// known.
pub fn memory_available() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let system = read("/proc/meminfo").and_then(|t| kib_field(&t, "MemAvailable"));
    let cgroup = read("/proc/self/cgroup").and_then(|groups| {
        // cgroup v2: one line "0::/path".
        let path = groups.lines().find_map(|l| l.strip_prefix("0::"))?;
        let dir = format!("/sys/fs/cgroup{}", path.trim_end_matches('/'));
        let max: u64 = read(&format!("{dir}/memory.max"))?.trim().parse().ok()?;
        let current: u64 = read(&format!("{dir}/memory.current"))?
            .trim()
            .parse()
            .unwrap_or(0);
        Some(max.saturating_sub(current))
    });
    let address_space = read("/proc/self/limits").and_then(|limits| {
        let line = limits
            .lines()
            .find(|l| l.starts_with("Max address space"))?;
        let soft: u64 = line.split_whitespace().nth(3)?.parse().ok()?;
        let used = read("/proc/self/status").and_then(|t| kib_field(&t, "VmSize"))?;
        Some(soft.saturating_sub(used) / 2)
    });
    [system, cgroup, address_space].into_iter().flatten().min()
}

/// Keeps glibc's malloc to one arena. Rust's allocations go to mimalloc, but glibc still
/// mallocs a few bytes on each new thread (its thread-local destructor list), and each
/// such thread would reserve an arena of 64 MB of address space: under `ulimit -v`, three
/// threads' arenas took half of a 400 MB limit that [`memory_available`] had promised the
/// count. Call it first thing, before any thread starts.
pub fn one_libc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning parameter; no thread allocates yet.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// This machine's name, for the files of long runs.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map_or_else(|_| "unknown".into(), |name| name.trim().to_string())
}

/// Whether the process started with standard output closed (`nqueens count 12 >&-`).
/// Rust's runtime opens /dev/null on a closed standard descriptor before `main`, so the
/// descriptor is looked at earlier, by [`note_closed_stdout`] among the program's
/// constructors.
pub fn stdout_is_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs before Rust's runtime starts (the C runtime calls the `.init_array` entries).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

/// Notes whether descriptor 1 is closed, for [`stdout_is_closed`].
extern "C" fn note_closed_stdout() {
    // SAFETY: F_GETFD only reads the descriptor's flags; it touches no memory.
    let flags = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) };
    if flags == -1 {
        STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Passes a write's result on, except that a reader that closed the pipe early (`head`)
/// ends the program quietly, as such a reader expects.
pub fn quiet_on_broken_pipe(result: io::Result<()>) -> Result<(), Failure> {
    match result {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        other => Ok(other?),
    }
}

/// Writes a line to `out` and flushes it (see [`quiet_on_broken_pipe`]).
pub fn print_line(out: &mut impl Write, line: &str) -> Result<(), Failure> {
    quiet_on_broken_pipe(writeln!(out, "{line}").and_then(|()| out.flush()))
}

/// Writes a line to stderr for a person to read. A terminal that is gone (closed after
/// SIGHUP, say) is no reason to stop: the line is dropped, unlike `eprintln!`, which
/// would panic.
pub fn say(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// Writes bytes to stdout and flushes them (see [`quiet_on_broken_pipe`]).
pub fn print_bytes(bytes: &[u8]) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    quiet_on_broken_pipe(out.write_all(bytes).and_then(|()| out.flush()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_is_named_with_its_family_and_model_where_the_system_gives_them() {
        let x86 = "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\n\
                   model name\t: Intel(R) Xeon(R) Processor\nstepping\t: 2\n\nprocessor\t: 1\n";
        assert_eq!(
            cpu_from(x86),
            "Intel(R) Xeon(R) Processor (family 6, model 207, stepping 2)"
        );
        // An ARM kernel gives a CPU part, not these numbers.
        let arm = "processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd0c\n\nProcessor\t: AArch64\n";
        assert_eq!(cpu_from(arm), "AArch64");
        assert_eq!(cpu_from(""), std::env::consts::ARCH);
    }
}
