//! A whole count checked against the published table before it is printed: a resumed
//! count whose checkpoint was forged or damaged fails instead of printing a wrong total.

use crate::app::args::CountArgs;
use crate::app::escape::ShowPath;
use crate::app::failure::Failure;

/// Fails a count that differs from the published table (a board it has a term for) or
/// whose orbit split breaks the identities, naming the fields that differ, and the
/// checkpoint it resumed where one did: its results were edited or damaged.
pub fn refuse_if_not_published(
    count: &nqueens::Count,
    resumed: bool,
    args: &CountArgs,
) -> Result<(), Failure> {
    let v = nqueens::verify::verdict(count);
    if v.passed() {
        return Ok(());
    }
    let differ: Vec<String> = v
        .fields
        .iter()
        .filter(|f| !f.matches())
        .map(|f| {
            format!(
                "{} {} (published {})",
                f.name,
                f.computed,
                f.published.unwrap_or(0)
            )
        })
        .collect();
    let what = if differ.is_empty() {
        "its orbit split breaks the identities".to_string()
    } else {
        differ.join(", ")
    };
    let source = match &args.checkpoint {
        Some(path) if resumed => format!(
            "; the checkpoint {} holds results that were edited or damaged: remove it and \
             count again",
            path.shown()
        ),
        _ => String::new(),
    };
    Err(Failure::failed(format!(
        "N = {}: the count DIFFERS from the published values: {what}{source}",
        count.n
    )))
}
