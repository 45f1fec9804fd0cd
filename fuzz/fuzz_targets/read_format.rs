//! Bytes read as one given text format (the first byte picks it, and what board digits mean),
//! so every reader sees every input whatever recognition would have said.
#![no_main]

use kifu::notation::board::Digits;
use kifu::notation::format::Format;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let text: Vec<Format> = Format::ALL.into_iter().filter(|f| !f.is_binary()).collect();
    let format = text[usize::from(pick & 0x0f) % text.len()];
    let digits = if pick & 0x80 == 0 { Digits::default() } else { Digits::EmptyBlackWhite };
    kifu_fuzz::read("input", rest, Some(format), digits);
});
