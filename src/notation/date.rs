//! Dates as records write them (`1999.10.22`, `1999-10-22`, `1988`, `2024.03.??`, GGS's seconds
//! since 1970, an ISO time), read into one calendar form and written in each format's.

/// A calendar date whose month and day may be unknown.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Date {
    /// The year.
    pub year: u16,
    /// The month (1-12), when known.
    pub month: Option<u8>,
    /// The day (1-31), when known (never without the month).
    pub day: Option<u8>,
}

impl Date {
    /// Reads a date: GGS's seconds since 1970 (`940607137`), or a year of four digits, then
    /// optionally the month and the day, each of two digits or `??`, after `.`, `-` or `/`
    /// (`2004`, `2004.05.01`, `2004-05`, `2024.03.??`), and optionally a time after `T`, `_` or
    /// a space (`2024-12-24T00:28:43Z`, `2003.12.15_12:33:18.MST`); a date written day first
    /// (`12.10.1979`) or with the month in English words (`12 Oct 1979`, `October 1979`).
    /// `None` for anything else.
    #[must_use]
    pub fn parse(text: &str) -> Option<Date> {
        let text = text.trim();
        if let Some((year, month, day)) = super::ggs_date(text) {
            return Some(Date { year, month: Some(month), day: Some(day) });
        }
        // Japanese dates (`2024年5月12日`, digits in full width too) as `2024.5.12`.
        let japanese: String;
        let text = if text.contains('年') {
            japanese = text
                .chars()
                .map(super::narrow)
                .map(|c| if matches!(c, '年' | '月') { '.' } else { c })
                .collect::<String>()
                .trim_end_matches(['日', '.'])
                .to_owned();
            japanese.as_str()
        } else {
            text
        };
        let Some(year) = text.get(..4).filter(|y| y.bytes().all(|b| b.is_ascii_digit())) else {
            return Date::day_first(text).or_else(|| Date::worded(text));
        };
        let year = year.parse().ok()?;
        let mut date = Date { year, month: None, day: None };
        let mut rest = &text[4..];
        for (i, range) in [(1u8, 12u8), (1, 31)].into_iter().enumerate() {
            let Some(sep) = rest.bytes().next().filter(|b| matches!(b, b'.' | b'-' | b'/')) else { break };
            // Two digits, `??`, or one digit (`2024/5/12`).
            let width = match rest.as_bytes().get(1..3) {
                Some(b"??") => 2,
                Some([a, b]) if a.is_ascii_digit() && b.is_ascii_digit() => 2,
                _ if rest.as_bytes().get(1).is_some_and(u8::is_ascii_digit) => 1,
                _ => return None,
            };
            let part = &rest[1..1 + width];
            let value = match part {
                "??" => None,
                _ => Some(part.parse::<u8>().ok().filter(|v| (range.0..=range.1).contains(v))?),
            };
            rest = &rest[1 + width..];
            match i {
                0 => date.month = value,
                _ => date.day = value.filter(|_| date.month.is_some()),
            }
            // The same separator throughout.
            if rest.bytes().next().is_some_and(|b| matches!(b, b'.' | b'-' | b'/') && b != sep) {
                return None;
            }
        }
        (rest.is_empty() || rest.starts_with(['T', '_', ' '])).then_some(date)
    }

    /// A date written day first, as in Europe: `12.10.1979`, `??.10.1979`, `12-10-1979` (not
    /// with `/`, which the US writes month first).
    fn day_first(text: &str) -> Option<Date> {
        let sep = if text.contains('.') { '.' } else { '-' };
        let parts: Vec<&str> = text.split(sep).collect();
        let [day, month, year] = parts[..] else { return None };
        let number = |part: &str, range: (u8, u8)| match part {
            "??" => Some(None),
            _ if (1..=2).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_digit()) => {
                part.parse::<u8>().ok().filter(|v| (range.0..=range.1).contains(v)).map(Some)
            }
            _ => None,
        };
        let (day, month) = (number(day, (1, 31))?, number(month, (1, 12))?);
        let year = year.parse().ok().filter(|_| year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit()))?;
        Some(Date { year, month, day: day.filter(|_| month.is_some()) })
    }

    /// A date with the month in English words: `Oct 1979`, `12 Oct 1979`, `October 12, 1979`,
    /// `12 October 1979`.
    fn worded(text: &str) -> Option<Date> {
        const MONTHS: [(&str, &str); 12] = [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may", "may"),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ];
        let words: Vec<String> =
            text.split([' ', ',']).filter(|w| !w.is_empty()).map(|w| w.trim_end_matches('.').to_lowercase()).collect();
        let month_of = |w: &str| {
            let w = if w == "sept" { "sep" } else { w };
            MONTHS.iter().position(|&(short, full)| w == short || w == full).map(|i| i as u8 + 1)
        };
        let day_of = |w: &str| w.parse::<u8>().ok().filter(|d| (1..=31).contains(d));
        let year_of = |w: &str| w.parse::<u16>().ok().filter(|_| w.len() == 4);
        let (day, month, year) = match &words[..] {
            [m, y] => (None, month_of(m)?, year_of(y)?),
            [d, m, y] if day_of(d).is_some() => (day_of(d), month_of(m)?, year_of(y)?),
            [m, d, y] => (Some(day_of(d)?), month_of(m)?, year_of(y)?),
            _ => return None,
        };
        Some(Date { year, month: Some(month), day })
    }

    /// The time of day a date text gives, as `HH:MM:SS`: GGS's seconds since 1970 (in UTC),
    /// or a time after the date (`2003.12.15_12:33:18.MST`, `2024-12-24T00:28:43.456Z`: the
    /// hours, minutes and seconds as written, without their zone or fraction). `None` when
    /// it gives none.
    #[must_use]
    pub fn time_of_day(text: &str) -> Option<String> {
        let text = text.trim();
        if super::ggs_date(text).is_some() {
            let seconds = text.parse::<u64>().ok()? % 86_400;
            return Some(format!("{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60));
        }
        Date::parse(text)?;
        let (_, time) = text.split_once(['T', '_', ' '])?;
        let parts: Vec<&str> = time.get(..8)?.split(':').collect();
        let two_digits = |p: &&str| p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit());
        (parts.len() == 3 && parts.iter().all(two_digits)).then(|| time[..8].to_owned())
    }

    /// As PGN writes dates: `1999.10.22`, unknown parts `??` (`1988.??.??`).
    #[must_use]
    pub fn pgn(&self) -> String {
        let part = |v: Option<u8>| v.map_or("??".to_owned(), |v| format!("{v:02}"));
        format!("{:04}.{}.{}", self.year, part(self.month), part(self.day))
    }

    /// A record's date text as ISO writes it ([`Date::iso`]), or as written when it is no date
    /// kifu reads.
    #[must_use]
    pub fn iso_or_as_written(text: &str) -> String {
        Date::parse(text).map_or_else(|| text.to_owned(), |date| date.iso())
    }

    /// As ISO 8601 and SGF write dates: `1999-10-22`, shortened where a part is unknown
    /// (`1988`, `1988-10`).
    #[must_use]
    pub fn iso(&self) -> String {
        match (self.month, self.day) {
            (Some(m), Some(d)) => format!("{:04}-{m:02}-{d:02}", self.year),
            (Some(m), None) => format!("{:04}-{m:02}", self.year),
            _ => format!("{:04}", self.year),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_of_day_come_from_ggs_seconds_and_times_after_dates() {
        assert_eq!(Date::time_of_day("947375357").as_deref(), Some("23:49:17"));
        assert_eq!(Date::time_of_day("2003.12.15_12:33:18.MST").as_deref(), Some("12:33:18"));
        assert_eq!(Date::time_of_day("2024-12-24T00:28:43.456Z").as_deref(), Some("00:28:43"));
        for none in ["2004.05.01", "1988", "spring 1988 12:00:00", "2004.05.01 noon"] {
            assert_eq!(Date::time_of_day(none), None, "{none}");
        }
    }

    #[test]
    fn dates_are_read_in_every_form_and_written_in_each_formats() {
        let cases = [
            ("940607137", "1999.10.22", "1999-10-22"),
            ("2024-12-24T00:28:43.456Z", "2024.12.24", "2024-12-24"),
            ("2003.12.15_12:33:18.MST", "2003.12.15", "2003-12-15"),
            ("2004.05.01", "2004.05.01", "2004-05-01"),
            ("2004/05/01", "2004.05.01", "2004-05-01"),
            ("1988", "1988.??.??", "1988"),
            ("2024.03.??", "2024.03.??", "2024-03"),
            ("2024.??.??", "2024.??.??", "2024"),
            (" 2024-03 ", "2024.03.??", "2024-03"),
            // One digit, as Japanese clubs write them, and Japanese dates.
            ("2024.1.5", "2024.01.05", "2024-01-05"),
            ("2024/5/12", "2024.05.12", "2024-05-12"),
            ("2024年5月12日", "2024.05.12", "2024-05-12"),
            ("２０２４年１２月３日", "2024.12.03", "2024-12-03"),
            ("2024年5月", "2024.05.??", "2024-05"),
            // Day first, as Europe writes them, and the month in English words.
            ("12.10.1979", "1979.10.12", "1979-10-12"),
            ("??.10.1979", "1979.10.??", "1979-10"),
            ("1-5-1980", "1980.05.01", "1980-05-01"),
            ("Oct 1979", "1979.10.??", "1979-10"),
            ("12 Oct 1979", "1979.10.12", "1979-10-12"),
            ("October 12, 1979", "1979.10.12", "1979-10-12"),
            ("12 Sept. 1981", "1981.09.12", "1981-09-12"),
        ];
        for (text, pgn, iso) in cases {
            let date = Date::parse(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!((date.pgn().as_str(), date.iso().as_str()), (pgn, iso), "{text}");
        }
        for text in [
            "",
            "Club night",
            "20240",
            "2024.13.01",
            "2024.01.32",
            "2024.01-05",
            "2024.1.50",
            "12/05/2004",
            "2024年13月1日",
            "32.10.1979",
            "12.13.1979",
            "c. 1979",
            "197?",
            "Octo 1979",
            "12 Oct 79",
        ] {
            assert_eq!(Date::parse(text), None, "{text}");
        }
    }
}
