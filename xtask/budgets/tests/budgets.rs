//! The budgets of `cargo budgets` on small git repositories made for each test: for
//! every budget a tree that keeps it and one that breaks it, its offender named. The offending
//! words are put together at run time, so this file keeps the words budget itself.

use std::path::Path;
use std::process::Command;
use tempfile::TempDir;
use xtask_budgets::{self as budgets, deps, size, words, Offence};

/// A temporary git repository whose files are all tracked.
struct Repo(TempDir);

impl Repo {
    /// A repository with a library package `pdbformat` and a program package `app`.
    fn new() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q"]);
        let repo = Repo(dir);
        repo.add("Cargo.toml", "[workspace]\nmembers = [\"lib\", \"app\"]\n");
        repo.add("lib/Cargo.toml", &manifest("pdbformat", ""));
        repo.add("lib/src/lib.rs", "//! A library.\n");
        repo.add("app/Cargo.toml", &manifest("app", "clap = \"4\"\n"));
        repo.add("app/src/main.rs", "//! A program.\nfn main() {}\n");
        repo
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    /// Writes a file (creating its folders) and tracks it.
    fn add(&self, path: &str, text: &str) {
        self.write(path, text.as_bytes());
        git(self.path(), &["add", path]);
    }

    fn write(&self, path: &str, bytes: &[u8]) {
        let file = self.path().join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, bytes).unwrap();
    }

    /// Every offence, as printed.
    fn offences(&self) -> Vec<String> {
        budgets::check(self.path())
            .unwrap()
            .iter()
            .map(Offence::to_string)
            .collect()
    }
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?} failed");
}

fn manifest(name: &str, dependencies: &str) -> String {
    format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n\n[dependencies]\n{dependencies}")
}

/// `n` lines of code.
fn lines(n: usize) -> String {
    (0..n).map(|i| format!("fn f{i}() {{}}\n")).collect()
}

#[test]
fn a_clean_repository_keeps_every_budget() {
    let repo = Repo::new();
    assert_eq!(repo.offences(), Vec::<String>::new());
    assert!(budgets::run(repo.path()).unwrap());
}

#[test]
fn a_source_file_past_700_lines_is_named() {
    let repo = Repo::new();
    repo.add("lib/src/fits.rs", &lines(700));
    repo.add("app/src/cmd/deep.rs", &lines(700));
    assert_eq!(repo.offences(), Vec::<String>::new());

    repo.add("lib/src/fits.rs", &lines(701));
    // A file with a test module at its end counts whole.
    let with_tests = format!(
        "{}#[cfg(test)]\nmod tests {{\n    fn t() {{}}\n}}\n",
        lines(697)
    );
    repo.add("app/src/cmd/deep.rs", &with_tests);
    assert_eq!(
        repo.offences(),
        [
            "app/src/cmd/deep.rs: 701 lines (budget 700)",
            "lib/src/fits.rs: 701 lines (budget 700)",
        ]
    );
    assert!(!budgets::run(repo.path()).unwrap());
}

#[test]
fn the_packages_outside_the_workspace_count_too() {
    let repo = Repo::new();
    repo.add("python/Cargo.toml", &manifest("bindings", ""));
    repo.add("python/src/lib.rs", &lines(800));
    repo.add("fuzz/Cargo.toml", &manifest("fuzzing", ""));
    repo.add("fuzz/src/lib.rs", &lines(750));
    assert_eq!(
        repo.offences(),
        [
            "fuzz/src/lib.rs: 750 lines (budget 700)",
            "python/src/lib.rs: 800 lines (budget 700)",
        ]
    );
}

#[test]
fn test_files_past_700_lines_are_not_offenders() {
    let repo = Repo::new();
    let long = lines(900);
    // Integration tests, benchmarks and fuzz targets are outside src/.
    repo.add("lib/tests/big.rs", &long);
    repo.add("lib/benches/big.rs", &long);
    repo.add("fuzz/fuzz_targets/big.rs", &long);
    // A test module split out of its parent, and a folder of tests.
    repo.add("lib/src/format/tests.rs", &long);
    repo.add("lib/src/tests/reader.rs", &long);
    // A file that is one `#[cfg(test)]` module, and one that is `#![cfg(test)]`.
    let module = format!(
        "//! Tests of the reader.\n\n#[cfg(test)]\n#[allow(unused)]\nmod reader_tests {{\n    use super::*;\n\n{}}}\n",
        (0..900).map(|i| format!("    fn t{i}() {{}}\n")).collect::<String>()
    );
    repo.add("lib/src/reader_tests.rs", &module);
    repo.add(
        "lib/src/inner.rs",
        &format!("//! Tests.\n#![cfg(test)]\n{long}"),
    );
    // Not Rust, or not in a package.
    repo.add("lib/src/table.txt", &long);
    repo.add("scripts/src/gen.rs", &long);
    assert_eq!(repo.offences(), Vec::<String>::new());

    // A module followed by code is not all tests.
    repo.add(
        "lib/src/reader_tests.rs",
        &format!("{module}fn after() {{}}\n"),
    );
    assert_eq!(
        repo.offences(),
        ["lib/src/reader_tests.rs: 909 lines (budget 700)"]
    );
    assert!(size::is_test_file("a/tests.rs", ""));
    assert!(!size::is_test_file("a/b.rs", "fn main() {}\n"));
}

#[test]
fn benchmarks_past_400_lines_and_the_readme_past_200_are_named() {
    let repo = Repo::new();
    repo.add("BENCHMARKS.md", &lines(400));
    repo.add("README.md", &lines(200));
    // Other documents, and a crate's README, have no budget.
    repo.add("lib/README.md", &lines(500));
    repo.add("docs/FORMAT.md", &lines(900));
    assert_eq!(repo.offences(), Vec::<String>::new());

    repo.add("BENCHMARKS.md", &lines(401));
    assert_eq!(repo.offences(), ["BENCHMARKS.md: 401 lines (budget 400)"]);
    repo.add("BENCHMARKS.md", &lines(400));
    repo.add("README.md", &lines(201));
    assert_eq!(repo.offences(), ["README.md: 201 lines (budget 200)"]);
}

#[test]
fn a_library_depending_on_clap_is_named() {
    let repo = Repo::new();
    // Tests may use anything, and so may the programs (app has clap already).
    let dev = "thiserror = \"2\"\n\n[dev-dependencies]\nclap = \"4\"\nanyhow = \"1\"\n";
    repo.add("lib/Cargo.toml", &manifest("pdbformat", dev));
    repo.add("gen/Cargo.toml", &manifest("pdbgen", "clapper = \"1\"\n"));
    assert_eq!(repo.offences(), Vec::<String>::new());

    repo.add(
        "lib/Cargo.toml",
        &manifest("pdbformat", "thiserror = \"2\"\nclap.workspace = true\n"),
    );
    assert_eq!(
        repo.offences(),
        ["lib/Cargo.toml: library pdbformat depends on clap ([dependencies]), a command-line or web crate"]
    );
}

#[test]
fn every_kind_of_dependency_of_a_library_counts() {
    let repo = Repo::new();
    let text = "[package]\nname = \"pdbsolver\"\nversion = \"0.1.0\"\n\n\
        [dependencies]\nargs = { package = \"clap\", version = \"4\" }\n\
        bar = { version = \"0.17\", package = \"indicatif\", optional = true }\n\n\
        [build-dependencies]\nanyhow = \"1\"\n\n\
        [target.'cfg(unix)'.dependencies]\ntokio-util = \"0.7\"\n\n\
        [features]\nprogress = [\"dep:bar\"]\n";
    repo.add("solver/Cargo.toml", text);
    let offences = repo.offences();
    let expected = [
        "library pdbsolver depends on clap ([dependencies])",
        "library pdbsolver depends on indicatif ([dependencies])",
        "library pdbsolver depends on anyhow ([build-dependencies])",
        "library pdbsolver depends on tokio-util ([target.'cfg(unix)'.dependencies])",
    ];
    assert_eq!(offences.len(), expected.len(), "{offences:?}");
    for e in expected {
        let line = format!("solver/Cargo.toml: {e}, a command-line or web crate");
        assert!(offences.contains(&line), "{line} missing from {offences:?}");
    }
    for f in deps::FORBIDDEN {
        assert!(deps::is_forbidden(f));
    }
    assert!(deps::is_forbidden("clap_derive") && deps::is_forbidden("tower-http"));
    assert!(!deps::is_forbidden("clapper") && !deps::is_forbidden("thiserror"));
}

#[test]
fn a_file_naming_an_issue_number_is_named() {
    let repo = Repo::new();
    // Instance numbers, anchors, other words and the lock files are fine.
    let fine = "| depth | #38 | #40 |\nOn #25 the search issued 3 loads.\n\
        See [the example](#10-example-file); tissue 5; issues remain.\n";
    repo.add("NOTES.md", fine);
    repo.add("Cargo.lock", &format!("# {} 51\n", "issue"));
    repo.add("app/package-lock.json", &format!("\"{} 51\"\n", "issue"));
    assert_eq!(repo.offences(), Vec::<String>::new());

    // Put together here, so that this file does not name them.
    let (a, b, c, d, e) = (
        format!("{} 51", "issue"),
        format!("{} #12", "Issue"),
        format!("{} 28", "ISSUES"),
        format!("(#{})", 7),
        format!("{} #9", "closes"),
    );
    repo.add(
        "app/src/main.rs",
        &format!("//! A program.\n// Fixed in {a}.\nfn main() {{}}\n"),
    );
    repo.add(
        "NOTES.md",
        &format!("{fine}{b} and {c} were the same.\nMerged {d}; {e}.\n"),
    );
    assert_eq!(
        repo.offences(),
        [
            format!("NOTES.md:4: names an issue number (`{b}`)"),
            format!("NOTES.md:4: names an issue number (`{c}`)"),
            format!("NOTES.md:5: names an issue number (`{d}`)"),
            format!("NOTES.md:5: names an issue number (`{e}`)"),
            format!("app/src/main.rs:2: names an issue number (`{a}`)"),
        ]
    );
}

#[test]
fn a_file_naming_a_machine_path_is_named() {
    let repo = Repo::new();
    // Temporary folders made through an API or a variable, relative paths and URLs are fine.
    let fine = "let dir = tempfile::tempdir()?;\nout=\"$(mktemp -d)\"\n\
        cp a \"${TMPDIR:-/var/tmp}/x\" && cp b \"$out/work/y\"\n\
        see https://example.com/root/tree and docs/work/notes\n";
    repo.add("scripts/run.sh", fine);
    // Binary files and untracked files are not read.
    repo.write(
        "scripts/untracked.sh",
        format!("cd /{}/main\n", "work").as_bytes(),
    );
    repo.add("data.bin", &format!("\0cd /{}/main\n", "work"));
    assert_eq!(repo.offences(), Vec::<String>::new());

    let text = format!(
        "{fine}cd /{}/main\nout=\"/{}/out\" (/{}/.cargo/bin)\nls /{}/alice/src\ndir {}:\\{}\\bob\n",
        "work", "tmp", "root", "home", "C", "Users"
    );
    repo.add("scripts/run.sh", &text);
    assert_eq!(
        repo.offences(),
        [
            format!(
                "scripts/run.sh:5: names a folder of a particular machine (`/{}/`)",
                "work"
            ),
            format!(
                "scripts/run.sh:6: names a folder of a particular machine (`/{}/`)",
                "tmp"
            ),
            format!(
                "scripts/run.sh:6: names a folder of a particular machine (`/{}/`)",
                "root"
            ),
            format!(
                "scripts/run.sh:7: names a folder of a particular machine (`/{}/alice/`)",
                "home"
            ),
            format!(
                "scripts/run.sh:8: names a folder of a particular machine (`C:\\{}`)",
                "Users"
            ),
        ]
    );
    assert!(words::line_offences(&format!("file c:/{}/x", "Users")).len() == 1);
    assert!(words::line_offences(&format!("https://{}.example.com", "users")).is_empty());
}

#[test]
fn an_import_circle_between_two_modules_is_named() {
    let repo = Repo::new();
    repo.add(
        "lib/src/lib.rs",
        "//! A library.\nmod board;\nmod goal;\npub use board::Board;\npub use goal::Goal;\n",
    );
    repo.add(
        "lib/src/board.rs",
        "//! Boards.\npub struct Board;\nimpl Board {\n    pub fn new() -> Board {\n        Board\n    }\n}\n",
    );
    // One way: the goal uses the board. Re-exports and the parent's use of its modules are
    // no import of theirs.
    repo.add(
        "lib/src/goal.rs",
        "//! Goals.\nuse crate::board::Board;\npub struct Goal(pub Board);\n",
    );
    assert_eq!(repo.offences(), Vec::<String>::new());

    // The other way too, through a path in code: a circle.
    repo.add(
        "lib/src/board.rs",
        "//! Boards.\npub struct Board;\nimpl Board {\n    pub fn new() -> Board {\n        \
         let _ = crate::goal::Goal(Board);\n        Board\n    }\n}\n",
    );
    assert_eq!(
        repo.offences(),
        [
            "lib/src/board.rs: import circle: lib/src/board.rs:5 -> lib/src/goal.rs, \
          lib/src/goal.rs:2 -> lib/src/board.rs"
        ]
    );
    assert!(!budgets::run(repo.path()).unwrap());
}

#[test]
fn a_circle_through_a_folder_and_a_glob_import_is_named_and_test_code_is_not() {
    let repo = Repo::new();
    repo.add(
        "app/src/main.rs",
        "//! A program.\nmod search;\nmod report;\nfn main() {}\n",
    );
    repo.add(
        "app/src/search/mod.rs",
        "//! Searches.\nmod ida;\npub use ida::Ida;\n",
    );
    repo.add(
        "app/src/search/ida.rs",
        "//! IDA*.\nuse crate::report::*;\npub struct Ida(pub Line);\n",
    );
    repo.add(
        "app/src/report.rs",
        "//! Reports.\npub struct Line;\n#[cfg(test)]\nmod tests {\n    use crate::search::Ida;\n}\n",
    );
    assert_eq!(repo.offences(), Vec::<String>::new());
    // The report names the search's type (through the folder's re-export) outside its tests.
    repo.add(
        "app/src/report.rs",
        "//! Reports.\npub struct Line;\npub fn of(_: &crate::search::Ida) {}\n",
    );
    assert_eq!(
        repo.offences(),
        [
            "app/src/report.rs: import circle: app/src/report.rs:3 -> app/src/search/ida.rs, \
          app/src/search/ida.rs:2 -> app/src/report.rs"
        ]
    );
}
