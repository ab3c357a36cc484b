//! The puzzles the Arcade serves: made by `dara puzzles generate` from the engine's self-play
//! (each solution checked 4 plies deeper than it was found), kept in `data/puzzles.txt` and
//! embedded in the binary. The page gets them all at once: a few hundred short lines.

use std::sync::OnceLock;

use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Serialize;

use crate::served::Served;

/// The puzzle file, as generated.
const FILE: &str = include_str!("../data/puzzles.txt");

/// One puzzle as the page gets it.
#[derive(Debug, Clone, Serialize)]
pub struct PuzzleView {
    /// Its number in the file, from 1.
    pub id: usize,
    /// `capture-1`, `capture-2`, `capture-3`, `defence`, `save-row` or `only-step`.
    pub theme: String,
    /// 1 (easiest) to 3.
    pub difficulty: u8,
    /// The solution's lead over the second-best move at the checking depth, in centi-stones.
    pub margin: i32,
    /// The depths it was found and checked at, as `4/8`.
    pub depths: String,
    /// The ruleset in notation.
    pub rules: String,
    /// The position, the solver to move.
    pub position: String,
    /// The solution first, then the best play after it.
    pub line: Vec<String>,
}

/// Reads the puzzle file: one puzzle a line, tab-separated, `#` lines are comments.
///
/// # Panics
/// On a line with too few fields or a number that is not one: the file is generated and
/// checked by this crate's tests, so that is a bug, not an input.
pub fn parse(file: &str) -> Vec<PuzzleView> {
    file.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .enumerate()
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert!(fields.len() == 7, "puzzle {}: {} fields, not 7", i + 1, fields.len());
            PuzzleView {
                id: i + 1,
                theme: fields[0].to_owned(),
                difficulty: fields[1].parse().expect("a difficulty"),
                margin: fields[2].parse().expect("a margin"),
                depths: fields[3].to_owned(),
                rules: fields[4].to_owned(),
                position: fields[5].to_owned(),
                line: fields[6].split(' ').map(str::to_owned).collect(),
            }
        })
        .collect()
}

/// Every puzzle, read once.
pub fn all() -> &'static [PuzzleView] {
    static PUZZLES: OnceLock<Vec<PuzzleView>> = OnceLock::new();
    PUZZLES.get_or_init(|| parse(FILE))
}

/// `GET /api/puzzles`: the same list every time, serialised and compressed once (31 KB of
/// JSON, 5 KB in gzip), and answered `304` where the browser's copy is this one.
pub async fn list(request: HeaderMap) -> Response {
    static LIST: OnceLock<Served> = OnceLock::new();
    let list = LIST.get_or_init(|| {
        let json = serde_json::to_vec(all()).expect("the puzzles serialise");
        Served::made_once("puzzles.json", "application/json", json)
    });
    list.respond(StatusCode::OK, &request, "no-cache")
}

#[cfg(test)]
mod tests {
    use dara::{Position, Ruleset};
    use dara_engine::puzzles::{self, Theme};

    use super::*;

    /// Every puzzle is a position of its rules, its line is legal move by move, and its theme
    /// says what the line does: a capture on the solver's n-th move, or none for a defence.
    #[test]
    fn every_puzzle_is_sound() {
        let puzzles = all();
        assert!(!puzzles.is_empty());
        for p in puzzles {
            let rules: Ruleset = p.rules.parse().unwrap();
            let mut pos = Position::from_text(&p.position, rules).unwrap();
            let mut captures = Vec::new();
            for (i, text) in p.line.iter().enumerate() {
                let m = pos.parse_move(text).unwrap_or_else(|e| panic!("puzzle {}: {e}", p.id));
                if i % 2 == 0 {
                    captures.push(m.is_capture());
                }
                pos.play(m).unwrap();
            }
            let expected = match p.theme.as_str() {
                "defence" | "save-row" | "only-step" => vec![false],
                "capture-1" => vec![true],
                "capture-2" => vec![false, true],
                "capture-3" => vec![false, false, true],
                other => panic!("puzzle {}: theme {other}", p.id),
            };
            assert_eq!(captures, expected, "puzzle {}", p.id);
            assert!((1..=3).contains(&p.difficulty));
            // The two themes judged by the rules alone are judged again here.
            let start = Position::from_text(&p.position, rules).unwrap();
            let solution = start.parse_move(&p.line[0]).unwrap();
            match p.theme.as_str() {
                "save-row" => assert!(puzzles::saves_row(&start, solution), "puzzle {}", p.id),
                "only-step" => assert!(puzzles::only_step(&start, solution), "puzzle {}", p.id),
                _ => {}
            }
        }
    }

    /// The file holds puzzles of every theme the generator names.
    #[test]
    fn the_file_holds_every_theme() {
        let themes = [
            Theme::Capture(1),
            Theme::Capture(2),
            Theme::Capture(3),
            Theme::Defence,
            Theme::SaveRow,
            Theme::OnlyStep,
        ];
        for theme in themes {
            let name = theme.to_string();
            let count = all().iter().filter(|p| p.theme == name).count();
            assert!(count >= 5, "{count} puzzles of {name}");
            assert!(all()
                .iter()
                .filter(|p| p.theme == name)
                .all(|p| p.difficulty == theme.difficulty()));
        }
    }
}
