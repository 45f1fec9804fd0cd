//! WTHOR binaries: a `.wtb` database (header, 68-byte records) or, when the first byte is odd,
//! a `.JOU` / `.TRN` name file.
#![no_main]

use kifu::notation::format::Format;
use kifu::notation::wthor;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    match pick % 4 {
        1 => drop(wthor::parse_names(rest, 20)),
        3 => drop(wthor::parse_names(rest, 26)),
        _ => kifu_fuzz::read("input.wtb", rest, Some(Format::Wthor), Default::default()),
    }
});
