//! The tokens of a Rust source file that the circle budget reads: identifiers, `::` and single
//! punctuation, with comments, strings and character literals dropped (so that a path written
//! in a doc comment or a message is no import), each token with its line.

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier or keyword (raw identifiers without their `r#`).
    Ident(String),
    /// `::`.
    PathSep,
    /// Any other punctuation character (`{`, `}`, `;`, `,`, `*`, `#`, `[`, `(`, `!`, …).
    Punct(char),
}

/// The tokens of `text`, each with its line (from 1).
pub fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            i = skip_block_comment(&c, i, &mut line);
        } else if let Some(end) = string_end(&c, i) {
            line += c[i..end].iter().filter(|&&x| x == '\n').count();
            i = end;
        } else if ch == '\'' {
            i = skip_quote(&c, i);
        } else if ch == '_' || ch.is_alphabetic() {
            let start = i;
            while i < c.len() && (c[i] == '_' || c[i].is_alphanumeric()) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            if word == "r" && c.get(i) == Some(&'#') {
                // A raw identifier: the word after `r#`.
                i += 1;
                continue;
            }
            out.push((Tok::Ident(word), line));
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i] == '_' || c[i].is_alphanumeric() || c[i] == '.') {
                i += 1;
            }
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// The index after a (nested) block comment starting at `i`, counting its lines.
fn skip_block_comment(c: &[char], mut i: usize, line: &mut usize) -> usize {
    let mut depth = 0;
    while i < c.len() {
        if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            *line += (c[i] == '\n') as usize;
            i += 1;
        }
    }
    i
}

/// The index after a string literal (`"…"`, `b"…"`, `r#"…"#`, `br"…"`, `c"…"`) starting at
/// `i`, or `None` when none starts there.
fn string_end(c: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    // A prefix letter must not end a longer identifier (`for"` is no prefix).
    if i > 0 && (c[i - 1] == '_' || c[i - 1].is_alphanumeric()) {
        return None;
    }
    if matches!(c.get(j), Some('b') | Some('c')) {
        j += 1;
    }
    let raw = c.get(j) == Some(&'r');
    if raw {
        j += 1;
    }
    let mut hashes = 0;
    while raw && c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if c.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < c.len() {
        if !raw && c[j] == '\\' {
            j += 2;
        } else if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
            return Some(j + 1 + hashes);
        } else {
            j += 1;
        }
    }
    Some(j)
}

/// The index after a character literal at `i` (`'a'`, `'\n'`, `'\u{7f}'`), or after the quote
/// of a lifetime or label (`'a`).
fn skip_quote(c: &[char], i: usize) -> usize {
    if c.get(i + 1) == Some(&'\\') {
        let mut j = i + 2;
        while j < c.len() && c[j] != '\'' && c[j] != '\n' {
            j += 1;
        }
        return j + 1;
    }
    if c.get(i + 2) == Some(&'\'') {
        return i + 3;
    }
    i + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(text: &str) -> Vec<String> {
        tokens(text)
            .into_iter()
            .filter_map(|(t, _)| match t {
                Tok::Ident(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn comments_strings_and_characters_are_dropped() {
        let text = "/// crate::a::b\nfn f<'a>(x: &'a str) { let s = \"crate::c\"; let r = r#\"super::d\"#; \
                    let q = '{'; let e = '\\''; /* crate::e /* nested */ */ g::h() }";
        assert_eq!(
            idents(text),
            [
                "fn", "f", "a", "x", "a", "str", "let", "s", "let", "r", "let", "q", "let", "e",
                "g", "h"
            ]
        );
        let lines: Vec<usize> = tokens("a\n/* x\ny */ b\n\"\n\" c")
            .iter()
            .map(|t| t.1)
            .collect();
        assert_eq!(lines, [1, 3, 5]);
    }
}
