//! Builds the browser's engine: `crates/wasm` for `wasm32-unknown-unknown`
//! (adding the target through rustup when it is missing), then wasm-bindgen's
//! library turns it into `engine.js` and `engine_bg.wasm` in `$OUT_DIR/wasm/`,
//! which the server embeds and serves under `/assets/wasm/`.
//!
//! The inner build has its own target directory (`target/wasm-engine`), so
//! it never waits on the outer build's lock, and it reruns only when the
//! engine's sources change (or the migrations, which `sqlx::migrate!` reads
//! at compile time and cargo would not see): the server-only edit loop
//! stays fast. Where the
//! engine cannot be built, everything else is still served, with a warning
//! here and in the pages that offline play is missing. `PALABRE_WASM=off`
//! skips it on purpose.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let pkg = out.join("wasm");
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../..");
    for watched in [
        "crates/wasm/src",
        "crates/wasm/Cargo.toml",
        "crates/ai/src",
        "crates/ai/Cargo.toml",
        "crates/rules/src",
        "crates/view/src",
        "Cargo.lock",
        // sqlx::migrate! reads these at compile time.
        "crates/server/migrations",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(watched).display());
    }
    println!("cargo:rerun-if-env-changed=PALABRE_WASM");
    let _ = fs::remove_dir_all(&pkg);
    fs::create_dir_all(&pkg).expect("OUT_DIR is writable");
    if env::var("PALABRE_WASM").is_ok_and(|v| v == "off") {
        println!(
            "cargo:warning=PALABRE_WASM=off: the browser's engine is not built; offline play is missing"
        );
        return;
    }
    if let Err(why) = build(&root, &pkg) {
        let _ = fs::remove_dir_all(&pkg);
        fs::create_dir_all(&pkg).expect("OUT_DIR is writable");
        println!(
            "cargo:warning=the browser's engine was not built ({why}); Palabre is served without offline play"
        );
    }
}

fn build(root: &Path, pkg: &Path) -> Result<(), String> {
    ensure_target()?;
    let target_dir = root.join("target/wasm-engine");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--lib", "--profile", "wasm", "--target", TARGET])
        .arg("--manifest-path")
        .arg(root.join("crates/wasm/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir);
    // What the outer build set for itself (its flags, a clippy wrapper, its
    // target) must not leak into the engine's build, or each outer command
    // would rebuild it differently.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
    ] {
        cmd.env_remove(var);
    }
    let status = cmd.status().map_err(|e| format!("cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build for {TARGET} failed"));
    }
    let wasm = target_dir.join(TARGET).join("wasm/palabre_wasm.wasm");
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .out_name("engine")
        .web(true)
        .map_err(|e| e.to_string())?
        .typescript(false)
        .generate(pkg)
        .map_err(|e| format!("wasm-bindgen: {e}"))
}

/// The wasm target's standard library, added through rustup if missing
/// (rustup does not install a toolchain file's targets by itself here).
fn ensure_target() -> Result<(), String> {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("rustc: {e}"))?;
    let sysroot = String::from_utf8_lossy(&sysroot.stdout).trim().to_owned();
    if Path::new(&sysroot)
        .join("lib/rustlib")
        .join(TARGET)
        .exists()
    {
        return Ok(());
    }
    let added = Command::new("rustup")
        .args(["target", "add", TARGET])
        .status()
        .map_err(|e| format!("the {TARGET} target is missing and rustup cannot run: {e}"))?;
    if added.success() {
        Ok(())
    } else {
        Err(format!("rustup target add {TARGET} failed"))
    }
}
