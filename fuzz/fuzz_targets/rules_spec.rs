//! `--rules` specs: the text up to the first newline is the spec, the bytes after it pick the
//! moves of a game played under those rules (symmetries checked at every move).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let Ok(spec) = std::str::from_utf8(&data[..split]) else { return };
    kifu_fuzz::play(spec, data.get(split + 1..).unwrap_or_default());
});
