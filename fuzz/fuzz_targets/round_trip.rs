//! Write-then-read: a record read from a text format (the first byte picks it) that replays is
//! written in every game format and read back with the same moves.
#![no_main]

use kifu::notation::format::Format;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let text_formats: Vec<Format> = Format::ALL.into_iter().filter(|f| !f.is_binary()).collect();
    kifu_fuzz::round_trip(text_formats[usize::from(pick) % text_formats.len()], text);
});
