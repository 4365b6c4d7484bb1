//! Files that carry work between runs: checkpoints (resume an interrupted count) and shard
//! results (merge the pieces of a count run on many machines).
//!
//! Both are JSON with a CRC-32 of their own bytes (taken with the checksum's value left
//! empty), so a damaged or hand-edited file is refused rather than trusted, and a file read
//! back is judged by exactly the text that was written: a number that would print another
//! way once parsed (a float's last digit) cannot make a good file look damaged. Per
//! sub-problem they hold `[id, solutions, nodes]`: the solutions found in that sub-problem
//! (not yet weighted by orbit sizes) and the nodes searched.

use serde::{Deserialize, Serialize};

/// The format name of a checkpoint file.
pub const CHECKPOINT_FORMAT: &str = "nqueens-checkpoint-1";
/// The format name of a shard result file.
pub const SHARD_FORMAT: &str = "nqueens-shard-1";

/// One finished sub-problem: id, solutions, nodes.
pub type Record = (usize, u64, u64);

/// A count in progress: which sub-problems are finished, and their tallies. `D` holds the
/// records: a list when read, [`Streamed`] when written (so that a checkpoint of millions
/// of sub-problems is written from the run's own tallies, not from a copy of them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint<D = Vec<Record>> {
    /// Always [`CHECKPOINT_FORMAT`].
    pub format: String,
    /// The nqueens version that wrote it.
    pub version: String,
    /// Board side.
    pub n: usize,
    /// The counting method (sub-problem ids depend on it).
    #[serde(default = "backtrack")]
    pub method: String,
    /// The split depth (sub-problem ids depend on it).
    pub split_depth: usize,
    /// Sub-problems in the whole count.
    pub subproblems: usize,
    /// The shard `[I, K]` this run covers, if it is one.
    pub shard: Option<(usize, usize)>,
    /// The finished sub-problems, by increasing id.
    pub done: D,
    /// Seconds spent on the count so far, over every run that resumed it (files from
    /// before this field read as 0).
    #[serde(default)]
    pub seconds: f64,
    /// The runs that did the work so far, oldest first (files from before this field
    /// have none).
    #[serde(default)]
    pub runs: Vec<Run>,
    /// The [`digest`] of `done` (files from before this field have none; a resume
    /// refuses a checkpoint without one).
    #[serde(default)]
    pub digest: String,
    /// CRC-32 of the file with this field empty, in hex.
    pub checksum: String,
}

/// One run that took part in a count: where it ran and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The machine's name (rank 0's for an MPI run).
    pub host: String,
    /// The kernel level it counted with.
    pub kernel: String,
    /// Worker threads on each machine.
    pub threads: usize,
    /// MPI processes (1 for a run on one machine; an MPI run's rank 0 hands out work).
    pub ranks: usize,
    /// Wall seconds of this run.
    pub seconds: f64,
}

/// The result of one shard of a count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardResult {
    /// Always [`SHARD_FORMAT`].
    pub format: String,
    /// The nqueens version that wrote it.
    pub version: String,
    /// Board side.
    pub n: usize,
    /// The counting method.
    #[serde(default = "backtrack")]
    pub method: String,
    /// The split depth.
    pub split_depth: usize,
    /// Sub-problems in the whole count.
    pub subproblems: usize,
    /// This shard's number, 1 to `shards`.
    pub shard: usize,
    /// How many shards the count is cut into.
    pub shards: usize,
    /// Every sub-problem of the shard with its tally, by increasing id.
    pub results: Vec<Record>,
    /// The shard's contribution to the total (weighted by orbit sizes).
    pub total: u128,
    /// Nodes searched in the shard's sub-problems.
    pub nodes: u128,
    /// Wall time spent on the shard, summed over the runs that resumed it.
    pub seconds: f64,
    /// The machine it ran on (the last run's, when it was resumed).
    pub host: String,
    /// The runs that did the shard's work, oldest first (files from before this field
    /// have none).
    #[serde(default)]
    pub runs: Vec<Run>,
    /// The [`digest`] of `results` (files from before this field have none).
    #[serde(default)]
    pub digest: String,
    /// CRC-32 of the file with this field empty, in hex.
    pub checksum: String,
}

/// The digest of a count's results: SHA-256 of one line `ID SOLUTIONS` per sub-problem,
/// by increasing id, in hex. It depends on the counts alone (not on the threads, kernel,
/// machine or time that found them), so two sites that counted the same sub-problems,
/// whole or in shards, compare digests instead of redoing the work.
pub fn digest(results: impl IntoIterator<Item = (usize, u64)>) -> String {
    let mut sorted: Vec<(usize, u64)> = results.into_iter().collect();
    sorted.sort_unstable();
    digest_in_order(sorted)
}

/// [`digest`] of results already by increasing id, made as they come (nothing is held;
/// results in another order give another digest).
pub fn digest_in_order(results: impl IntoIterator<Item = (usize, u64)>) -> String {
    let mut digest = Digesting::default();
    for (id, solutions) in results {
        digest.add(id, solutions);
    }
    digest.finish()
}

/// A [`digest`] made one result at a time, by increasing id.
#[derive(Default)]
pub struct Digesting {
    hasher: sha2::Sha256,
    line: String,
}

impl Digesting {
    /// Takes the next result.
    pub fn add(&mut self, id: usize, solutions: u64) {
        use sha2::Digest;
        use std::fmt::Write;
        self.line.clear();
        writeln!(self.line, "{id} {solutions}").expect("a String takes any text");
        self.hasher.update(self.line.as_bytes());
    }

    /// The digest of the results taken, in hex.
    pub fn finish(self) -> String {
        use sha2::Digest;
        self.hasher
            .finalize()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }
}

/// The most seconds a file may say its runs took: three centuries.
const MOST_SECONDS: f64 = 1e10;

/// Why a file's time and runs cannot be what runs wrote (`None` when they can): seconds
/// that are negative, not finite or past three centuries, a run on no threads or ranks or
/// with a kernel this program does not have, or runs whose seconds do not add up to the
/// file's. Such a file was edited or damaged.
pub fn impossible_runs(seconds: f64, runs: &[Run]) -> Option<String> {
    let possible = |s: f64| s.is_finite() && (0.0..=MOST_SECONDS).contains(&s);
    if !possible(seconds) {
        return Some(format!("{seconds} seconds cannot be"));
    }
    let most_threads = crate::schedule::MAX_THREADS;
    for run in runs {
        let known_kernel = crate::cpu::KernelLevel::ALL
            .iter()
            .any(|k| k.name() == run.kernel);
        let why = if !possible(run.seconds) {
            format!("{} seconds", run.seconds)
        } else if !(1..=most_threads).contains(&run.threads) {
            format!("{} threads (a run has 1 to {most_threads})", run.threads)
        } else if run.ranks == 0 {
            "0 ranks".to_string()
        } else if !known_kernel {
            format!("kernel {:?}", crate::words::shorten(&run.kernel))
        } else {
            continue;
        };
        return Some(format!("a run with {why} cannot be"));
    }
    let summed: f64 = runs.iter().map(|run| run.seconds).sum();
    let slack = 1e-6 * seconds.max(1.0);
    if !runs.is_empty() && (summed - seconds).abs() > slack {
        return Some(format!(
            "its runs took {summed} seconds in all, the file says {seconds}"
        ));
    }
    None
}

/// Files written before the join existed were counted by backtracking.
fn backtrack() -> String {
    crate::methods::Method::BACKTRACK.name().into()
}

/// The key of the checksum field as it appears in a file. JSON escapes every quote inside
/// a string, so this text occurs only as the key itself.
const CHECKSUM_KEY: &str = "\"checksum\":\"";

/// A record type with a self-checksum.
pub trait Checksummed: Serialize + Clone {
    /// The checksum field.
    fn checksum_field(&mut self) -> &mut String;

    /// The record as file text, with its checksum filled in: the CRC-32 of the very text
    /// written, with the checksum's value empty.
    fn to_file_text(&self) -> String {
        let mut blank = self.clone();
        blank.checksum_field().clear();
        let text = serde_json::to_string(&blank).expect("plain data serializes");
        let sum = crc_hex(&text);
        let at = text
            .rfind(CHECKSUM_KEY)
            .expect("the record has a checksum field")
            + CHECKSUM_KEY.len();
        format!("{}{sum}{}\n", &text[..at], &text[at..])
    }

    /// The CRC-32 of the record as this version serializes it, with an empty checksum
    /// field: how files were sealed before the checksum was taken over the bytes.
    fn reserialized_checksum(&self) -> String {
        let mut blank = self.clone();
        blank.checksum_field().clear();
        crc_hex(&serde_json::to_string(&blank).expect("plain data serializes"))
    }
}

fn crc_hex(text: &str) -> String {
    format!("{:08x}", crc32fast::hash(text.as_bytes()))
}

/// The checksum a file's own bytes carry, and the checksum of those bytes with its value
/// left empty (trailing white space is not part of the record). `None` when the file has
/// no checksum field.
fn checksum_of_bytes(text: &str) -> Option<(&str, String)> {
    let text = text.trim_end();
    let at = text.rfind(CHECKSUM_KEY)? + CHECKSUM_KEY.len();
    let len = text[at..].find('"')?;
    let blanked = format!("{}{}", &text[..at], &text[at + len..]);
    Some((&text[at..at + len], crc_hex(&blanked)))
}

impl Checksummed for Checkpoint {
    fn checksum_field(&mut self) -> &mut String {
        &mut self.checksum
    }
}

impl Checksummed for ShardResult {
    fn checksum_field(&mut self) -> &mut String {
        &mut self.checksum
    }
}

/// Records serialized as a JSON list straight from an iterator, which the closure makes
/// anew for each write: a checkpoint's finished sub-problems, taken from the run's own
/// tallies where they are.
pub struct Streamed<F>(pub F);

impl<F, I> Serialize for Streamed<F>
where
    F: Fn() -> I,
    I: Iterator<Item = Record>,
{
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// Writes `blank` sealed, byte for byte as [`Checksummed::to_file_text`] writes the record
/// it stands for: `blank` must serialize to that record's JSON with its checksum (the last
/// field) empty. The text goes through the CRC on its way out, so neither a copy of the
/// record nor its text is held: a checkpoint of a whole count of N = 27 (135 million
/// sub-problems, 2 GB of text) was held three times over to be written.
pub fn write_sealed(blank: &impl Serialize, out: impl std::io::Write) -> std::io::Result<()> {
    let mut sealer = Sealer {
        out: std::io::BufWriter::with_capacity(1 << 16, out),
        crc: crc32fast::Hasher::new(),
        held: Vec::with_capacity(HELD.len() + 1),
    };
    serde_json::to_writer(&mut sealer, blank)?;
    sealer.finish()
}

/// The end of a blank record: the checksum's empty value closed, then the record.
const HELD: &[u8] = b"\"}";

/// A writer that takes the CRC of everything written and holds back its last bytes, so
/// that the checksum can be written into the blank value they close.
struct Sealer<W: std::io::Write> {
    out: std::io::BufWriter<W>,
    crc: crc32fast::Hasher,
    held: Vec<u8>,
}

impl<W: std::io::Write> std::io::Write for Sealer<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.crc.update(buf);
        if buf.len() >= HELD.len() {
            let (passed, kept) = buf.split_at(buf.len() - HELD.len());
            self.out.write_all(&self.held)?;
            self.out.write_all(passed)?;
            self.held.clear();
            self.held.extend_from_slice(kept);
        } else {
            self.held.extend_from_slice(buf);
            let over = self.held.len().saturating_sub(HELD.len());
            self.out.write_all(&self.held[..over])?;
            self.held.drain(..over);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl<W: std::io::Write> Sealer<W> {
    fn finish(mut self) -> std::io::Result<()> {
        use std::io::Write;
        assert_eq!(
            self.held, HELD,
            "a sealed record ends with its empty checksum"
        );
        let sum = self.crc.clone().finalize();
        writeln!(self.out, "{sum:08x}\"}}")?;
        self.out.flush()
    }
}

/// Parses a file's text and checks its checksum.
///
/// The checksum is that of the file's bytes with its value left empty, as
/// [`Checksummed::to_file_text`] writes it. A file whose bytes do not match is still
/// accepted if the record it holds, written out again, matches: earlier versions sealed
/// the record that way, and a file reformatted since (its floats, its spacing) still holds
/// the same record.
pub fn parse<T: Checksummed + for<'de> Deserialize<'de>>(text: &str) -> Result<T, String> {
    let mut record: T = serde_json::from_str(text).map_err(|e| unreadable(&e))?;
    let stored = record.checksum_field().clone();
    let bytes_match = checksum_of_bytes(text)
        .is_some_and(|(found, computed)| found == stored && computed == stored);
    if !bytes_match && record.reserialized_checksum() != stored {
        return Err(DAMAGED.into());
    }
    Ok(record)
}

/// Why a file's checksum refuses it.
const DAMAGED: &str = "damaged: its checksum does not match its contents";

/// Why a file that is not JSON of its kind is refused.
fn unreadable(e: &serde_json::Error) -> String {
    let what = match e.classify() {
        serde_json::error::Category::Io | serde_json::error::Category::Eof => "it ends too soon",
        serde_json::error::Category::Syntax => "it is not JSON",
        serde_json::error::Category::Data => "a field is missing or has the wrong kind of value",
    };
    format!(
        "unreadable: {what} (line {}, column {}); it is not an nqueens file or it was edited",
        e.line(),
        e.column()
    )
}

/// Reads a checkpoint of this version's sealing from `file` without holding its text or
/// its records: the checksum is taken over the file's bytes in a first pass, then each
/// finished sub-problem is handed to `take` as it is parsed, in the file's order. Returns
/// the rest of the checkpoint, its `done` the number of records. (Read whole, a
/// checkpoint of N = 27's 135 million sub-problems took about 80 bytes a record.)
pub fn read_checkpoint(
    file: &mut std::fs::File,
    take: &mut dyn FnMut(Record),
) -> Result<Checkpoint<usize>, String> {
    use serde::de::DeserializeSeed;
    use std::io::{BufReader, Seek, SeekFrom};
    let cannot = |e: std::io::Error| format!("cannot read it ({e})");
    if !sealed_bytes_match(file).map_err(cannot)? {
        return Err(DAMAGED.into());
    }
    file.seek(SeekFrom::Start(0)).map_err(cannot)?;
    let mut reader = serde_json::Deserializer::from_reader(BufReader::with_capacity(1 << 16, file));
    let checkpoint = CheckpointSeed { take }
        .deserialize(&mut reader)
        .and_then(|cp| reader.end().map(|()| cp))
        .map_err(|e| unreadable(&e))?;
    Ok(checkpoint)
}

/// Whether a file's checksum is that of its bytes with the checksum's value left empty,
/// taken a block at a time. The checksum is the record's last field: it lies in the
/// file's last bytes.
fn sealed_bytes_match(file: &mut std::fs::File) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let len = file.metadata()?.len();
    let tail_len = len.min(256);
    let mut tail = vec![0; tail_len as usize];
    file.seek(SeekFrom::Start(len - tail_len))?;
    file.read_exact(&mut tail)?;
    let key = CHECKSUM_KEY.as_bytes();
    let Some(key_at) = tail.windows(key.len()).rposition(|w| w == key) else {
        return Ok(false);
    };
    let value_at = key_at + key.len();
    let Some(value_len) = tail[value_at..].iter().position(|&b| b == b'"') else {
        return Ok(false);
    };
    let stored = &tail[value_at..value_at + value_len];
    let mut crc = crc32fast::Hasher::new();
    file.seek(SeekFrom::Start(0))?;
    let before = len - tail_len + value_at as u64;
    let mut head = (&mut *file).take(before);
    let mut block = vec![0; 1 << 16];
    loop {
        let read = head.read(&mut block)?;
        if read == 0 {
            break;
        }
        crc.update(&block[..read]);
    }
    // The text after the value, with the white space that ends a file left out as
    // `checksum_of_bytes` leaves it.
    let after = tail[value_at + value_len..].trim_ascii_end();
    crc.update(after);
    Ok(stored == format!("{:08x}", crc.finalize()).as_bytes())
}

/// A checkpoint read field by field, its records handed on as they are parsed.
struct CheckpointSeed<'t> {
    take: &'t mut dyn FnMut(Record),
}

impl<'de> serde::de::DeserializeSeed<'de> for CheckpointSeed<'_> {
    type Value = Checkpoint<usize>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for CheckpointSeed<'_> {
    type Value = Checkpoint<usize>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a checkpoint")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        use serde::de::Error;
        /// The fields as they are found, in any order.
        #[derive(Default)]
        struct Found {
            format: Option<String>,
            version: Option<String>,
            n: Option<usize>,
            method: Option<String>,
            split_depth: Option<usize>,
            subproblems: Option<usize>,
            shard: Option<Option<(usize, usize)>>,
            done: Option<usize>,
            seconds: Option<f64>,
            runs: Option<Vec<Run>>,
            digest: Option<String>,
            checksum: Option<String>,
        }
        let mut cp = Found::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "format" => cp.format = Some(map.next_value()?),
                "version" => cp.version = Some(map.next_value()?),
                "n" => cp.n = Some(map.next_value()?),
                "method" => cp.method = Some(map.next_value()?),
                "split_depth" => cp.split_depth = Some(map.next_value()?),
                "subproblems" => cp.subproblems = Some(map.next_value()?),
                "shard" => cp.shard = Some(map.next_value()?),
                "done" => {
                    cp.done = Some(map.next_value_seed(RecordsSeed {
                        take: &mut *self.take,
                    })?)
                }
                "seconds" => cp.seconds = Some(map.next_value()?),
                "runs" => cp.runs = Some(map.next_value()?),
                "digest" => cp.digest = Some(map.next_value()?),
                "checksum" => cp.checksum = Some(map.next_value()?),
                _ => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        let needed = |field: &'static str| A::Error::missing_field(field);
        Ok(Checkpoint {
            format: cp.format.ok_or_else(|| needed("format"))?,
            version: cp.version.ok_or_else(|| needed("version"))?,
            n: cp.n.ok_or_else(|| needed("n"))?,
            method: cp.method.unwrap_or_else(backtrack),
            split_depth: cp.split_depth.ok_or_else(|| needed("split_depth"))?,
            subproblems: cp.subproblems.ok_or_else(|| needed("subproblems"))?,
            shard: cp.shard.ok_or_else(|| needed("shard"))?,
            done: cp.done.ok_or_else(|| needed("done"))?,
            seconds: cp.seconds.unwrap_or(0.0),
            runs: cp.runs.unwrap_or_default(),
            digest: cp.digest.unwrap_or_default(),
            checksum: cp.checksum.ok_or_else(|| needed("checksum"))?,
        })
    }
}

/// A checkpoint's records, each handed on as it is parsed; their number is the value.
struct RecordsSeed<'t> {
    take: &'t mut dyn FnMut(Record),
}

impl<'de> serde::de::DeserializeSeed<'de> for RecordsSeed<'_> {
    type Value = usize;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for RecordsSeed<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of [id, solutions, nodes]")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut count = 0;
        while let Some(record) = seq.next_element::<Record>()? {
            (self.take)(record);
            count += 1;
        }
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_made_in_order_is_the_digest_of_the_same_results_shuffled() {
        let results: Vec<(usize, u64)> =
            (0..1000).map(|id| (id, (id as u64 * 7919) % 613)).collect();
        let mut shuffled = results.clone();
        shuffled.reverse();
        shuffled.swap(3, 700);
        assert_eq!(digest_in_order(results.clone()), digest(shuffled));
        let mut changed = results.clone();
        changed[500].1 += 1;
        assert_ne!(digest_in_order(changed), digest(results));
    }

    /// Records become a map by id; an id out of range or given twice is refused, named.
    fn checkpoint<D>(done: D) -> Checkpoint<D> {
        Checkpoint {
            format: CHECKPOINT_FORMAT.into(),
            version: "0".into(),
            n: 8,
            method: backtrack(),
            split_depth: 0,
            subproblems: 1 << 40,
            shard: Some((3, 7)),
            done,
            seconds: 0.1 + 0.2,
            runs: vec![Run {
                host: "h\"q".into(),
                kernel: "avx2".into(),
                threads: 2,
                ranks: 1,
                seconds: 1e-7,
            }],
            digest: String::new(),
            checksum: String::new(),
        }
    }

    /// A checkpoint streamed from its records is, byte for byte, the one written from a
    /// copy of them, and reads back as it was.
    #[test]
    fn a_streamed_checkpoint_is_the_text_of_the_whole_one() {
        for count in [0, 1, 2, 3, 1000] {
            let done: Vec<Record> = (0..count)
                .map(|i| (i * 3, u64::MAX - i as u64, i as u64 * 7))
                .collect();
            let whole = checkpoint(done.clone());
            let streamed = checkpoint(Streamed(|| done.iter().copied()));
            let mut bytes = Vec::new();
            write_sealed(&streamed, &mut bytes).expect("a Vec takes any bytes");
            let text = String::from_utf8(bytes).expect("JSON is UTF-8");
            assert_eq!(text, whole.to_file_text(), "{count} records");
            let back = parse::<Checkpoint>(&text).expect("sealed");
            assert_eq!((back.done, back.shard), (whole.done, whole.shard));
        }
    }

    /// The sealer holds back the record's last two bytes however its writes are cut.
    #[test]
    fn the_sealer_takes_writes_of_any_length() {
        use std::io::Write;
        let blank = br#"{"a":[1,2],"checksum":""}"#;
        let sum = crc32fast::hash(blank);
        for cut in [1, 2, 3, 5, blank.len()] {
            let mut out = Vec::new();
            let mut sealer = Sealer {
                out: std::io::BufWriter::new(&mut out),
                crc: crc32fast::Hasher::new(),
                held: Vec::new(),
            };
            for piece in blank.chunks(cut) {
                sealer.write_all(piece).expect("a Vec takes any bytes");
            }
            sealer.finish().expect("a Vec takes any bytes");
            let want = format!("{{\"a\":[1,2],\"checksum\":\"{sum:08x}\"}}\n");
            assert_eq!(
                String::from_utf8(out).expect("ASCII"),
                want,
                "writes of {cut}"
            );
        }
    }

    #[test]
    fn checksums_catch_edits() {
        let record = Checkpoint {
            format: CHECKPOINT_FORMAT.into(),
            version: "0".into(),
            n: 8,
            method: backtrack(),
            split_depth: 0,
            subproblems: 3,
            shard: None,
            done: vec![(0, 1, 2)],
            seconds: 1.5,
            runs: Vec::new(),
            digest: String::new(),
            checksum: String::new(),
        };
        let text = record.to_file_text();
        let back: Checkpoint = parse(&text).unwrap();
        assert_eq!(back.done, record.done);
        let edited = text.replace("[[0,1,2]]", "[[0,9,2]]");
        assert!(
            parse::<Checkpoint>(&edited)
                .unwrap_err()
                .contains("damaged")
        );
        for bad in ["{oops", "{\"format\": 1}", &text.replace("null", "1")] {
            let why = parse::<Checkpoint>(bad).unwrap_err();
            assert!(why.contains("unreadable"), "{why}");
            assert!(!why.contains("invalid type"), "no serde wording: {why}");
        }
    }
}
