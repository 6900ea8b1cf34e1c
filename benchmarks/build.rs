//! Build script: detects whether the real OCaml toplevel (`ocaml`, Debian's `ocaml-nox`) is
//! on PATH, so that the differential test of the generated OCaml texts against it
//! (`tests/fuzz.rs`) reports itself as ignored, not passed, on a machine without it (as the
//! root crate's `build.rs` does for `tests/integration/ocaml_oracle.rs`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_ocaml)");
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-changed=build.rs");
    let found = std::process::Command::new("ocaml")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        println!("cargo::rustc-cfg=has_ocaml");
    }
}
