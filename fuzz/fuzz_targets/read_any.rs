//! Any bytes as a file of unknown format: gzip, format recognition, the record splitter, every
//! parser, rules from tags, replay and the result check.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    kifu_fuzz::read("input", data, None, kifu::notation::board::Digits::default());
});
