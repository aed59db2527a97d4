//! The generated figures of `cargo xtask bench`: each section is a file of its own in the
//! figures folder (`docs/figures/NAME.md`), written whole by the command and never by hand;
//! `BENCHMARKS.md` links them and keeps the tables a person wrote.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The figures folder of the repository at `root`.
pub fn default_dir(root: &Path) -> PathBuf {
    root.join("docs/figures")
}

/// The text of a section's file: its title, the line that says which command writes it, and
/// `body` (the machine line and the table).
pub fn render(title: &str, command: &str, body: &str) -> String {
    format!(
        "# {title}\n\nWritten by `{command}`: rerun it to refresh these figures, never edit them by \
         hand. [BENCHMARKS.md](../../BENCHMARKS.md) says how figures are taken.\n\n{}\n",
        body.trim_end()
    )
}

/// Writes section `name` (titled `title`, written by `command`) into `dir/NAME.md`, replacing
/// the file; returns its path.
pub fn write(dir: &Path, name: &str, title: &str, command: &str, body: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(format!("{name}.md"));
    std::fs::write(&path, render(title, command, body))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_is_a_whole_file_that_says_how_it_was_made() {
        let dir = tempfile::tempdir().unwrap();
        let p = write(
            dir.path(),
            "generator",
            "Generator",
            "cargo xtask bench",
            "| t |\n",
        )
        .unwrap();
        assert_eq!(p, dir.path().join("generator.md"));
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(
            text.starts_with("# Generator\n\nWritten by `cargo xtask bench`"),
            "{text}"
        );
        assert!(text.ends_with("\n\n| t |\n"), "{text}");
        // Rewritten whole: nothing of the earlier table stays.
        write(
            dir.path(),
            "generator",
            "Generator",
            "cargo xtask bench",
            "| u |",
        )
        .unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains("| u |") && !text.contains("| t |"), "{text}");
    }
}
