//! `cargo xtask dist` finds the release build where cargo puts it: with `CARGO_TARGET_DIR` set
//! (given to the `cargo metadata` the task runs, not to this process, whose environment every
//! test shares), the target folder is that one, and the packing step takes the commands from
//! its `release/` folder.

use std::path::Path;
use std::process::Command;

/// Compiles a stand-in for `command` into `dir`: a program that prints its version line with
/// `commit`, as the real commands do.
fn stand_in(dir: &Path, command: &str, commit: &str) {
    let source = dir.join(format!("{command}.c"));
    std::fs::write(
        &source,
        format!(
            "#include <stdio.h>\nint main(void) {{ puts(\"{command} 9.9.9 (commit {commit})\"); return 0; }}\n"
        ),
    )
    .unwrap();
    let status = Command::new("cc")
        .arg("-o")
        .arg(dir.join(command))
        .arg(&source)
        .status()
        .expect("a C compiler");
    assert!(status.success());
    std::fs::remove_file(source).unwrap();
}

#[test]
fn the_release_is_packed_from_the_target_folder_cargo_names() {
    let root = xtask::project_root();
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir =
        xtask::target_dir_with(&root, &[("CARGO_TARGET_DIR", target.path().as_os_str())]).unwrap();
    assert_eq!(dir, target.path());
    // Without the variable, cargo's own choice (this workspace's, wherever it is configured).
    assert_ne!(xtask::target_dir(&root).unwrap(), target.path());

    let release = dir.join("release");
    std::fs::create_dir_all(&release).unwrap();
    for command in xtask::dist::tarball::COMMANDS {
        stand_in(&release, command, "0123abc");
    }
    let file =
        xtask::dist::tarball::write(&root, &release, out.path(), "9.9.9", "0123abc").unwrap();
    let listing = Command::new("tar")
        .arg("-tzf")
        .arg(out.path().join(&file))
        .output()
        .unwrap();
    let listing = String::from_utf8(listing.stdout).unwrap();
    let folder = xtask::dist::tarball::folder_name("9.9.9");
    for command in xtask::dist::tarball::COMMANDS {
        assert!(
            listing.lines().any(|l| l == format!("{folder}/{command}")),
            "{command} not in the tarball:\n{listing}"
        );
    }
}
