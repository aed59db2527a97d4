//! The generated tables of `BENCHMARKS.md`: each lives between its marker comments
//! (`<!-- bench:NAME:start -->` … `<!-- bench:NAME:end -->`), which a section rewrites while the
//! prose around them is kept.

use anyhow::{bail, Result};

/// Replaces the text between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` in
/// `doc` by `body`; appends a new section titled `title` with the markers when they are absent.
/// Everything outside the markers is kept as it is.
pub fn replace_section(doc: &str, name: &str, title: &str, body: &str) -> Result<String> {
    let start = format!("<!-- bench:{name}:start -->");
    let end = format!("<!-- bench:{name}:end -->");
    let body = body.trim_end();
    match (doc.find(&start), doc.find(&end)) {
        (Some(s), Some(e)) if s < e => Ok(format!("{}{start}\n{body}\n{}", &doc[..s], &doc[e..])),
        (None, None) => {
            let mut out = doc.trim_end().to_string();
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            out.push_str(&format!("## {title}\n\n{start}\n{body}\n{end}\n"));
            Ok(out)
        }
        _ => bail!("the markers {start} and {end} are not a pair in that order; fix them by hand"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_replaced_or_added() {
        let doc = "# B\n\nprose\n";
        let a = replace_section(doc, "generator", "Generator", "| t |\n").unwrap();
        assert!(a.starts_with("# B\n\nprose\n\n## Generator\n\n<!-- bench:generator:start -->\n| t |\n<!-- bench:generator:end -->\n"), "{a}");
        let b = replace_section(&format!("{a}\nmore prose\n"), "generator", "G", "| u |").unwrap();
        assert!(
            b.contains("start -->\n| u |\n<!-- bench:generator:end -->\n\nmore prose\n"),
            "{b}"
        );
        assert!(!b.contains("| t |"));
        assert_eq!(replace_section(&b, "generator", "G", "| u |").unwrap(), b);
        let bad = "<!-- bench:solver:end --> <!-- bench:solver:start -->";
        assert!(replace_section(bad, "solver", "S", "x").is_err());
        assert!(replace_section("<!-- bench:solver:start -->", "solver", "S", "x").is_err());
    }
}
