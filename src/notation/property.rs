//! The bracketed-property syntax GGF and SGF share.
//!
//! Both formats write properties `NAME[value]`: a name of ASCII letters, then a value in
//! brackets where a backslash escapes the next character (so `\]` and `\\`). The helpers here
//! read and write that syntax; what the properties mean stays with each format.

use nom::branch::alt;
use nom::bytes::complete::take_while1;
use nom::character::complete::{anychar, char, digit0, digit1, none_of, one_of};
use nom::combinator::{all_consuming, opt};
use nom::multi::many0_count;
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};

use super::{BoardSyntax, Span, SyntaxError};
use crate::core::Color;

/// The offset of the first non-whitespace character at or after `pos`.
pub(super) fn skip_whitespace(text: &str, pos: usize) -> usize {
    text.len() - text[pos..].trim_start().len()
}

/// An error on the character at `pos` (or at the end).
pub(super) fn at_char(text: &str, pos: usize, message: &str) -> SyntaxError {
    let len = text[pos..].chars().next().map_or(0, char::len_utf8);
    SyntaxError { span: Span { start: pos, end: pos + len }, message: message.to_owned() }
}

/// An error on `span`.
pub(super) fn error(span: Span, message: String) -> SyntaxError {
    SyntaxError { span, message }
}

/// A property name: ASCII letters.
pub(super) fn identifier(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_alphabetic()).parse(input)
}

/// The error for a property `name` whose value does not start at `pos`.
pub(super) fn no_value(text: &str, pos: usize, name: &str) -> SyntaxError {
    at_char(text, pos, &format!("`{name}` has no value: expected `[`"))
}

/// The value `[...]` at `pos`: the span of its raw content and the offset after `]`; when it
/// does not read (no `[`, or no closing `]`), an error from `pos` to the end saying `unclosed()`.
pub(super) fn bracketed(
    text: &str,
    pos: usize,
    unclosed: impl FnOnce() -> String,
) -> Result<(Span, usize), SyntaxError> {
    match raw_value(&text[pos..]) {
        Ok((rest, raw)) => Ok((Span { start: pos + 1, end: pos + 1 + raw.len() }, text.len() - rest.len())),
        Err(_) => Err(error(Span { start: pos, end: text.len() }, unclosed())),
    }
}

/// The text `parser` consumed. (nom 8.0's `recognize` miscounts some nested parsers.)
pub(super) fn consumed<'a, O>(
    mut parser: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
) -> impl FnMut(&'a str) -> IResult<&'a str, &'a str> {
    move |input| {
        let (rest, _) = parser.parse(input)?;
        Ok((rest, &input[..input.len() - rest.len()]))
    }
}

/// `[...]`: the raw text between the brackets, where `\\` escapes the next character.
fn raw_value(input: &str) -> IResult<&str, &str> {
    let content = consumed(many0_count(alt((consumed(preceded(char('\\'), anychar)), consumed(none_of("\\]"))))));
    delimited(char('['), content, char(']')).parse(input)
}

/// A value with its escapes resolved: `\x` is `x`, a lone trailing `\` disappears, and with
/// `soft_breaks` a backslash before a line break (`\n`, `\r`, `\n\r` or `\r\n`) removes both.
pub(super) fn unescape(raw: &str, soft_breaks: bool) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\n') if soft_breaks => {
                chars.next_if_eq(&'\r');
            }
            Some('\r') if soft_breaks => {
                chars.next_if_eq(&'\n');
            }
            Some(c) => out.push(c),
            None => {}
        }
    }
    out
}

/// Writes a value `[...]`, escaping `\` and `]`.
pub(super) fn put_value(out: &mut String, value: &str) {
    out.push('[');
    for c in value.chars() {
        if matches!(c, '\\' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(']');
}

/// The tag a property (its name in upper case) is read into: its tag in `renamed` (pairs of
/// tag and property), else its name in lower case, behind `prefix` when that name is `rules` or
/// a tag of `renamed`.
pub(super) fn tag_of(name: &str, renamed: &[(&str, &str)], prefix: &str) -> String {
    if let Some((tag, _)) = renamed.iter().find(|(_, p)| *p == name) {
        return (*tag).to_owned();
    }
    let lower = name.to_ascii_lowercase();
    if lower == "rules" || renamed.iter().any(|(tag, _)| *tag == lower) { format!("{prefix}{lower}") } else { lower }
}

/// The property a tag (in lower case) is written under: its property in `renamed`, else the
/// tag without `prefix` in upper case; none when that is not a name of letters, or when it is
/// one of the `reserved` properties the format reads as something else (moves, the board, the
/// rules): written, it would change the game.
pub(super) fn property_of(tag: &str, renamed: &[(&str, &str)], prefix: &str, reserved: &[&str]) -> Option<String> {
    if let Some((_, property)) = renamed.iter().find(|(t, _)| *t == tag) {
        return Some((*property).to_owned());
    }
    let bare = tag.strip_prefix(prefix).unwrap_or(tag);
    let property = bare.to_ascii_uppercase();
    (!bare.is_empty() && bare.chars().all(|c| c.is_ascii_alphabetic()) && !reserved.contains(&property.as_str()))
        .then_some(property)
}

/// A decimal: optional sign, digits, optional fraction (`-2.39`, `.5`, `3.`).
fn decimal(input: &str) -> IResult<&str, &str> {
    let digits = alt((consumed((digit1, opt((char('.'), digit0)))), consumed((char('.'), digit1))));
    consumed((opt(one_of("+-")), digits)).parse(input)
}

/// A finite decimal number, the whole of `input` (no whitespace around it): optional sign,
/// digits, optional fraction (`-2.39`, `.5`, `3.`).
pub(super) fn number(input: &str) -> Option<f64> {
    let (_, text) = all_consuming(decimal).parse(input).ok()?;
    text.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// The standard start (white on the upper-left and lower-right centre cells, black on the other
/// two), no side given; empty for an odd size.
pub(super) fn diagonal(size: u8) -> BoardSyntax {
    let mut board = BoardSyntax::empty(size);
    if size >= 2 && size.is_multiple_of(2) {
        let (n, h) = (usize::from(size), usize::from(size / 2));
        for (file, rank, color) in
            [(h - 1, h, Color::White), (h, h + 1, Color::White), (h, h, Color::Black), (h - 1, h + 1, Color::Black)]
        {
            board.cells[(rank - 1) * n + file] = Some(color);
        }
    }
    board
}
