//! One crate's modules as the circle budget sees them: the module tree from the crate root's
//! `mod` lines (file modules and inline ones, test modules left out), what each module defines
//! and binds by `use`, and every path its code names; then each path resolved to the file that
//! defines what it names.
//!
//! Resolution follows Rust's rules as far as a reader of text can: `crate`, `super` and `self`,
//! child modules, items defined at a module's top level, names bound by `use` (a re-export is
//! followed to the file that defines the name) and glob imports. What it cannot place (other
//! crates, the standard library, names made by macros) is not an import of the crate.

use super::lexer::{tokens, Tok};
use std::collections::{BTreeMap, BTreeSet};

/// A module's path from the crate root (empty for the root).
pub type ModPath = Vec<String>;

/// A name bound by `use` in a module.
#[derive(Clone, Debug)]
struct Binding {
    /// The name bound (`None` for a glob import, `*`).
    name: Option<String>,
    /// The path it stands for, as written (relative to the module).
    path: Vec<String>,
}

/// A path that the code of a module names, with the line it is on.
#[derive(Clone, Debug)]
pub struct Named {
    /// The module whose code names it.
    pub module: ModPath,
    /// The path, as written.
    pub path: Vec<String>,
    /// Its line in the module's file.
    pub line: usize,
}

/// One module.
#[derive(Clone, Debug, Default)]
struct Module {
    /// The file that holds it (a file module's own, or the file of an inline module).
    file: String,
    /// Its child modules.
    children: BTreeSet<String>,
    /// The names of the items defined at its top level.
    items: BTreeSet<String>,
    /// Its `use` bindings, re-exports included.
    bindings: Vec<Binding>,
}

/// The modules of one crate and the paths their code names.
#[derive(Debug, Default)]
pub struct Crate {
    modules: BTreeMap<ModPath, Module>,
    /// Every path named by an import (`use` that is not a re-export) or in code.
    pub named: Vec<Named>,
}

impl Crate {
    /// Reads the crate whose root file is `root` (a path relative to the repository), reading
    /// files through `read` (`None`: no such file).
    pub fn read(root: &str, read: &dyn Fn(&str) -> Option<String>) -> Crate {
        let mut krate = Crate::default();
        let mut pending = vec![(Vec::new(), root.to_owned(), true)];
        while let Some((path, file, is_dir_owner)) = pending.pop() {
            let Some(text) = read(&file) else { continue };
            let children = krate.read_file(&path, &file, &text);
            let dir = match file.rsplit_once('/') {
                Some((d, _)) if is_dir_owner => d.to_owned(),
                Some((d, name)) => format!("{d}/{}", name.trim_end_matches(".rs")),
                None => String::new(),
            };
            for child in children {
                let mut p = path.clone();
                p.push(child.clone());
                let plain = format!("{dir}/{child}.rs");
                if read(&plain).is_some() {
                    pending.push((p, plain, false));
                } else {
                    pending.push((p, format!("{dir}/{child}/mod.rs"), true));
                }
            }
        }
        krate
    }

    /// Reads one file holding module `path`; returns the names of its file modules (`mod x;`),
    /// test modules left out.
    fn read_file(&mut self, path: &ModPath, file: &str, text: &str) -> Vec<String> {
        let toks = tokens(text);
        let mut file_children = Vec::new();
        // The modules open at this point: (path, brace depth of its body).
        let mut stack: Vec<(ModPath, usize)> = vec![(path.clone(), 0)];
        self.module(path, file);
        let (mut depth, mut i) = (0usize, 0usize);
        let mut test_only = false;
        while i < toks.len() {
            let (tok, line) = (&toks[i].0, toks[i].1);
            if tok == &Tok::Punct('#') {
                let end = attribute_end(&toks, i);
                test_only |= is_cfg_test(&toks[i..end]);
                i = end;
                continue;
            }
            if test_only {
                // An item only compiled for tests or documentation: none of its imports count.
                i = item_end(&toks, i);
                test_only = false;
                continue;
            }
            match tok {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth = depth.saturating_sub(1);
                    if stack.len() > 1 && stack.last().is_some_and(|s| s.1 > depth) {
                        stack.pop();
                    }
                }
                _ => {}
            }
            let (module, body) = stack.last().cloned().expect("the file's module");
            let Tok::Ident(word) = tok else {
                i += 1;
                continue;
            };
            match word.as_str() {
                "mod" if ident(&toks, i + 1).is_some() => {
                    let name = ident(&toks, i + 1).unwrap_or_default().to_owned();
                    let inline = toks.get(i + 2).map(|t| &t.0) == Some(&Tok::Punct('{'));
                    let mut p = module.clone();
                    p.push(name.clone());
                    if inline {
                        self.module(&p, file);
                        stack.push((p, depth + 1));
                    } else if depth == body {
                        file_children.push(name.clone());
                    }
                    self.get(&module).children.insert(name);
                    i += 2;
                    continue;
                }
                "use" => {
                    let reexport = i > 0 && is_visibility_end(&toks, i);
                    let (trees, end) = use_trees(&toks, i + 1);
                    for (path, name) in trees {
                        if !reexport {
                            let (module, path) = (module.clone(), path.clone());
                            self.named.push(Named { module, path, line });
                        }
                        self.get(&module).bindings.push(Binding { name, path });
                    }
                    i = end;
                    continue;
                }
                "fn" | "struct" | "enum" | "trait" | "const" | "static" | "type" | "union"
                | "macro_rules"
                    if depth == body =>
                {
                    let mut j = i + 1;
                    if matches!(ident(&toks, j), Some("mut")) || toks[j].0 == Tok::Punct('!') {
                        j += 1;
                    }
                    if let Some(name) = ident(&toks, j).filter(|n| *n != "_" && *n != "fn") {
                        self.get(&module).items.insert(name.to_owned());
                    }
                }
                _ => {
                    let (path, end) = path_at(&toks, i);
                    if path.len() > 1 {
                        self.named.push(Named { module, path, line });
                    }
                    i = end.max(i + 1);
                    continue;
                }
            }
            i += 1;
        }
        file_children
    }

    fn get(&mut self, path: &ModPath) -> &mut Module {
        self.modules.get_mut(path).expect("a module read before")
    }

    /// Makes sure module `path` exists, held by `file`.
    fn module(&mut self, path: &ModPath, file: &str) {
        self.modules.entry(path.clone()).or_insert_with(|| Module {
            file: file.to_owned(),
            ..Module::default()
        });
    }

    /// The file of the module at `path`, if the crate has it.
    pub fn file_of(&self, path: &ModPath) -> Option<&str> {
        self.modules.get(path).map(|m| m.file.as_str())
    }

    /// Whether `file` holds a module below `module` (a submodule, or one of theirs).
    pub fn is_descendant_file(&self, module: &ModPath, file: &str) -> bool {
        self.modules
            .iter()
            .any(|(p, m)| m.file == file && p.len() > module.len() && p.starts_with(module))
    }

    /// The file that defines what `path` names when written in module `from`, or `None` when
    /// it is not in this crate.
    pub fn resolve(&self, from: &ModPath, path: &[String]) -> Option<String> {
        self.resolve_in(from, path, &mut BTreeSet::new())
    }

    /// [`Crate::resolve`], having tried (and not to be tried again: glob imports can lead in
    /// circles) each of `seen`.
    fn resolve_in(
        &self,
        from: &ModPath,
        path: &[String],
        seen: &mut BTreeSet<(ModPath, Vec<String>)>,
    ) -> Option<String> {
        if path.is_empty() || !seen.insert((from.clone(), path.to_vec())) {
            return None;
        }
        let mut at = from.clone();
        let mut rest = path;
        match rest[0].as_str() {
            "crate" => {
                at.clear();
                rest = &rest[1..];
            }
            "self" => rest = &rest[1..],
            "super" => {
                while rest.first().is_some_and(|s| s == "super") {
                    at.pop()?;
                    rest = &rest[1..];
                }
            }
            _ => {}
        }
        self.walk(&at, rest, seen)
    }

    /// Follows `rest` down from module `at`.
    fn walk(
        &self,
        at: &ModPath,
        rest: &[String],
        seen: &mut BTreeSet<(ModPath, Vec<String>)>,
    ) -> Option<String> {
        let m = self.modules.get(at)?;
        let Some(seg) = rest.first() else {
            return Some(m.file.clone());
        };
        if m.children.contains(seg) {
            let mut p = at.clone();
            p.push(seg.clone());
            return self.walk(&p, &rest[1..], seen);
        }
        if m.items.contains(seg) {
            return Some(m.file.clone());
        }
        for b in &m.bindings {
            // A use path starts at `crate`, `self`, `super`, a child module or an item of the
            // module; any other start is another crate (`use anyhow::anyhow` binds `anyhow`
            // to a path into the crate `anyhow`, not into itself).
            let start = b.path.first().map(String::as_str).unwrap_or_default();
            let local = matches!(start, "crate" | "self" | "super")
                || m.children.contains(start)
                || m.items.contains(start);
            if !local {
                continue;
            }
            let path: Vec<String> = match &b.name {
                Some(name) if name == seg => b.path.iter().chain(&rest[1..]).cloned().collect(),
                None => b.path.iter().chain(rest).cloned().collect(),
                Some(_) => continue,
            };
            if let Some(f) = self.resolve_in(at, &path, seen) {
                return Some(f);
            }
        }
        None
    }
}

/// The identifier at `i`, if the token there is one.
fn ident(toks: &[(Tok, usize)], i: usize) -> Option<&str> {
    match toks.get(i).map(|t| &t.0) {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

/// The index after the attribute (`#[…]` or `#![…]`) whose `#` is at `i`.
fn attribute_end(toks: &[(Tok, usize)], i: usize) -> usize {
    let mut j = i + 1;
    if toks.get(j).map(|t| &t.0) == Some(&Tok::Punct('!')) {
        j += 1;
    }
    if toks.get(j).map(|t| &t.0) != Some(&Tok::Punct('[')) {
        return i + 1;
    }
    let mut depth = 0;
    while j < toks.len() {
        match toks[j].0 {
            Tok::Punct('[') => depth += 1,
            Tok::Punct(']') => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    j
}

/// The index after the item starting at `i`: after its first `;` outside brackets, or after
/// the braces of its body, whichever comes first.
fn item_end(toks: &[(Tok, usize)], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < toks.len() {
        match toks[i].0 {
            Tok::Punct('{') | Tok::Punct('(') | Tok::Punct('[') => depth += 1,
            Tok::Punct('}') | Tok::Punct(')') | Tok::Punct(']') => {
                depth = depth.saturating_sub(1);
                if depth == 0 && toks[i].0 == Tok::Punct('}') {
                    return i + 1;
                }
            }
            Tok::Punct(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

/// Whether an attribute's tokens are `#[cfg(test)]` or `#[cfg(doc)]` (an import only for the
/// documentation's links).
fn is_cfg_test(attr: &[(Tok, usize)]) -> bool {
    let words: Vec<&str> = attr
        .iter()
        .filter_map(|t| match &t.0 {
            Tok::Ident(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    words == ["cfg", "test"] || words == ["cfg", "doc"]
}

/// Whether the tokens before `i` end a visibility (`pub`, `pub(crate)`, `pub(super)`, …).
fn is_visibility_end(toks: &[(Tok, usize)], i: usize) -> bool {
    match &toks[i - 1].0 {
        Tok::Ident(s) => s == "pub",
        Tok::Punct(')') => (0..i).rev().take(6).any(|j| ident(toks, j) == Some("pub")),
        _ => false,
    }
}

/// The path (identifiers joined by `::`) starting at `i`, and the index after it.
fn path_at(toks: &[(Tok, usize)], mut i: usize) -> (Vec<String>, usize) {
    let mut path = Vec::new();
    while let Some(s) = ident(toks, i) {
        path.push(s.to_owned());
        if toks.get(i + 1).map(|t| &t.0) != Some(&Tok::PathSep) {
            return (path, i + 1);
        }
        i += 2;
    }
    (path, i)
}

/// One use tree's full path and the name it binds (`None` for a glob).
type UseTree = (Vec<String>, Option<String>);

/// The use trees of a `use` item whose first path token is at `i`, and the index after the
/// `;`.
fn use_trees(toks: &[(Tok, usize)], i: usize) -> (Vec<UseTree>, usize) {
    let mut out = Vec::new();
    let end = use_tree(toks, i, &[], &mut out);
    let mut j = end;
    while j < toks.len() && toks[j].0 != Tok::Punct(';') {
        j += 1;
    }
    (out, j + 1)
}

/// One use tree at `i` under `prefix`; returns the index after it.
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<UseTree>,
) -> usize {
    let mut path = prefix.to_vec();
    if toks.get(i).map(|t| &t.0) == Some(&Tok::PathSep) {
        i += 1;
    }
    loop {
        match toks.get(i).map(|t| &t.0) {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                i += 1;
                if toks.get(i).map(|t| &t.0) == Some(&Tok::PathSep) {
                    path.push(s);
                    i += 1;
                    continue;
                }
                let (full, name) = if s == "self" {
                    (path.clone(), path.last().cloned())
                } else {
                    path.push(s.clone());
                    (path.clone(), Some(s))
                };
                if ident(toks, i) == Some("as") {
                    // `as _` binds nothing: a name no path can name.
                    let alias = ident(toks, i + 1).map(str::to_owned);
                    out.push((full, alias));
                    return i + 2;
                }
                out.push((full, name));
                return i;
            }
            Some(Tok::Punct('*')) => {
                out.push((path, None));
                return i + 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                while i < toks.len() && toks[i].0 != Tok::Punct('}') {
                    if toks[i].0 == Tok::Punct(',') {
                        i += 1;
                        continue;
                    }
                    let next = use_tree(toks, i, &path, out);
                    // A token no use tree starts with (an attribute's `#`): passed over.
                    i = next.max(i + 1);
                }
                return i + 1;
            }
            _ => return i,
        }
    }
}
