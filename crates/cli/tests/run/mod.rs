//! Runs the `palabre` binary as a user does: arguments and standard input
//! in; exit code, standard output and standard error out.

use assert_cmd::Command;

pub fn palabre(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = Command::cargo_bin("palabre")
        .unwrap()
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (
        out.status.code().unwrap(),
        text(out.stdout),
        text(out.stderr),
    )
}
