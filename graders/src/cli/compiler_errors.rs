//! What a failed build shows the learner: the compiler's errors, trimmed.

/// The compiler errors of a failed build, without cargo's progress lines and warnings,
/// without places in the standard library's sources that show no code
/// (the `std_notes` module), and at most a screenful.
pub fn trim_errors(stderr: &str) -> String {
    let stderr = &super::std_notes::without_unreadable_std(stderr);
    const MAX_LINES: usize = 40;
    let mut kept = Vec::new();
    let mut in_error = false;
    for line in stderr.lines() {
        if line.starts_with("error") {
            in_error = !line.starts_with("error: could not compile");
        } else if line.starts_with("warning") || line.trim_start().starts_with("Compiling") {
            in_error = false;
        }
        if in_error {
            kept.push(line);
        }
    }
    if kept.is_empty() {
        kept = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    }
    let total = kept.len();
    let mut text = kept
        .into_iter()
        .take(MAX_LINES)
        .collect::<Vec<_>>()
        .join("\n");
    if total > MAX_LINES {
        text.push_str(&format!("\n... ({} more lines)", total - MAX_LINES));
    }
    text
}
