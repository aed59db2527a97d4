//! Standard output of both commands: lines written so that a closed pipe (`solver locate |
//! head -1`, `pdbgen info FILE | head`) ends the program quietly, with status 0, instead of
//! the panic of `println!`; any other write error is reported with status 1.

use std::io::Write;

/// Writes `args` to standard output, with a newline when `newline` is set.
pub fn emit(args: std::fmt::Arguments<'_>, newline: bool) {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|_| {
            if newline {
                out.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|_| out.flush());
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// `println!` through [`emit`].
macro_rules! outln {
    () => { $crate::output::emit(format_args!(""), true) };
    ($($t:tt)*) => { $crate::output::emit(format_args!($($t)*), true) };
}
pub(crate) use outln;

/// `print!` through [`emit`].
macro_rules! out {
    ($($t:tt)*) => { $crate::output::emit(format_args!($($t)*), false) };
}
pub(crate) use out;
