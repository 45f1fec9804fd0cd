//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod reference;

use std::path::{Path, PathBuf};

/// A file of `../shared/data`, or `None` (with a note) when the shared folder is not here.
pub fn shared(path: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data").join(path);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} is not here", p.display());
        None
    }
}
