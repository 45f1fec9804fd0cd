//! PlayOK (playok.com, formerly kurnik) Reversi game downloads.
//!
//! PlayOK writes a PGN-like game: `[Event "?"]`, `[Site "PlayOK"]`, `[Date "2021.03.11"]`,
//! `[Round "-"]`, the players, `[Result "47-17"]` (black's and white's discs), `[Time
//! "20:13:30"]` (when the game started), `[TimeControl "120"]` (seconds), `[BlackElo]`,
//! `[WhiteElo]` and, for XOT games, `[Variant "xot"]`; then a blank line and numbered movetext
//! (`1. f5 d6 2. c4 ...`, passes as `--`) wrapped before 80 columns and ending with the result
//! again.
//!
//! [`parse`] is [`pgn::parse`], so the tags map as the PGN module says:
//! `place` = `PlayOK`, `date`, `black`, `white`, `result` (black's margin, `+30`) and `score`
//! (`47-17`), `start_time`, `time`, `black_rating`, `white_rating`, `variant`; the placeholders
//! `Event "?"` and `Round "-"` are dropped.
//!
//! [`write()`] produces PlayOK's layout: `Event` (`?` when missing), `Site` (`?` when missing:
//! a game from elsewhere was not played on PlayOK), `Date`, `Round` (`-`), `Black`, `White`,
//! `Result`, then, when present, `Time`, `TimeControl`, `BlackElo`, `WhiteElo` and `Variant`, then anything else the record has (a
//! start board as `SetUp`/`FEN`, other tags as the PGN writer names them); a blank line; the
//! movetext as the PGN writer writes it.

use super::pgn;
use super::{Record, SyntaxError};

/// Parses one PlayOK game (any PGN-like game).
pub fn parse(text: &str) -> Result<Record, SyntaxError> {
    pgn::parse(text)
}

/// Writes a record in PlayOK's layout.
#[must_use]
pub fn write(record: &Record) -> String {
    const OPTIONAL: [(&str, &str); 5] = [
        ("start_time", "Time"),
        ("time", "TimeControl"),
        ("black_rating", "BlackElo"),
        ("white_rating", "WhiteElo"),
        ("variant", "Variant"),
    ];
    // (No place is `?`: a game from elsewhere was not played on PlayOK.)
    pgn::write_layout(record, ("?", "-"), &OPTIONAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Passes, Rules};
    use crate::notation::MoveSyntax;
    use crate::notation::pgn::tests::{board, result, tokens};
    use proptest::prelude::*;

    /// A real PlayOK game's header and its first 20 moves (the rest of the movetext left out).
    const GAME: &str = "[Event \"?\"]
[Site \"PlayOK\"]
[Date \"2021.03.11\"]
[Round \"-\"]
[Black \"alcupone\"]
[White \"lk16\"]
[Result \"47-17\"]
[Time \"20:13:30\"]
[TimeControl \"120\"]
[BlackElo \"1224\"]
[WhiteElo \"1314\"]

1. f5 d6 2. c4 d3 3. c3 f4 4. c5 b3 5. c2 e3 6. d2 c6 7. b4 b5 8. f2 e2 9. f3
c1 10. e1 d1 47-17
";

    #[test]
    fn reads_a_playok_game() {
        let r = parse(GAME).unwrap();
        let tags: Vec<(&str, &str)> = r.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            tags,
            [
                ("place", "PlayOK"),
                ("date", "2021.03.11"),
                ("black", "alcupone"),
                ("white", "lk16"),
                ("result", "+30"),
                ("score", "47-17"),
                ("start_time", "20:13:30"),
                ("time", "120"),
                ("black_rating", "1224"),
                ("white_rating", "1314"),
            ]
        );
        let moves: Vec<String> = r.moves.iter().map(|t| t.mv.to_string()).collect();
        assert_eq!(moves.join(" "), "f5 d6 c4 d3 c3 f4 c5 b3 c2 e3 d2 c6 b4 b5 f2 e2 f3 c1 e1 d1");
        assert_eq!(&GAME[r.moves[17].span.start..r.moves[17].span.end], "c1");
    }

    #[test]
    fn writes_playok_layout_exactly() {
        assert_eq!(write(&parse(GAME).unwrap()), GAME);
    }

    #[test]
    fn the_game_replays() {
        let r = parse(GAME).unwrap();
        let game = r.game(Rules::othello().shared()).unwrap();
        let replay = game.replay(Passes::Implicit);
        assert!(replay.is_ok(), "{replay:?}");
    }

    #[test]
    fn reads_passes_at_the_end() {
        let r = parse("28. a7 -- 29. a8 -- 30. h7 h8 31. b1 a1 47-17").unwrap();
        let moves: Vec<String> = r.moves.iter().map(|t| t.mv.to_string()).collect();
        assert_eq!(moves, ["a7", "pass", "a8", "pass", "h7", "h8", "b1", "a1"]);
        assert_eq!(r.moves[1].mv, MoveSyntax::Pass);
        assert_eq!(r.tag("score"), Some("47-17"));
    }

    prop_compose! {
        fn records()(
            date in prop::option::of("20[0-9]{2}\\.[01][0-9]\\.[0-3][0-9]"),
            players in prop::collection::vec(prop::option::of("[a-z][a-z0-9_]{0,12}"), 2),
            result in result(),
            start_time in prop::option::of("[0-2][0-9]:[0-5][0-9]:[0-5][0-9]"),
            known in prop::collection::vec(prop::option::of("[1-9][0-9]{0,3}"), 3),
            xot in any::<bool>(),
            start in board(),
            moves in tokens(false),
        ) -> Record {
            let mut tags = vec![("place".to_owned(), "PlayOK".to_owned())];
            tags.extend(date.map(|d| ("date".to_owned(), d)));
            for (name, v) in ["black", "white"].iter().zip(players) {
                tags.extend(v.map(|v| (name.to_string(), v)));
            }
            tags.extend(result);
            tags.extend(start_time.map(|t| ("start_time".to_owned(), t)));
            for (name, v) in ["time", "black_rating", "white_rating"].iter().zip(known) {
                tags.extend(v.map(|v| (name.to_string(), v)));
            }
            if xot {
                tags.push(("variant".into(), "xot".into()));
            }
            Record { tags, start, moves }
        }
    }

    proptest! {
        #[test]
        fn write_then_parse_gives_the_record_back(record in records()) {
            let text = write(&record);
            let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?.without_layout();
            prop_assert_eq!(&back, &record, "{}", text);
        }

        #[test]
        fn never_panics(text in "\\PC{0,200}") {
            let _ = parse(&text);
        }
    }
}
