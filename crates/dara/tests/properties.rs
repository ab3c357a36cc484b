//! Property tests: random games of every preset and of the variants the sources name, checked at
//! every ply (notation round trips, distinct moves, hashes, perft and move counts, stone
//! accounting), whole records round-tripped afterwards; and the parsers fed arbitrary text, which
//! must answer `Ok` or `Err` and never panic.
//!
//! A game is picked by a proptest-chosen `u64` seed: a SplitMix64 generator inside the test picks
//! each move uniformly among the legal ones.

use std::collections::HashSet;
use std::str::FromStr;

use dara::record::Record;
use dara::{Cell, Colour, Move, MoveText, Phase, Position, Ruleset, Setup, SplitMix64, Status};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Random games per ruleset. The Done-when asks for a few hundred per preset in CI.
const GAMES: u32 = 300;

/// Plies after which a game is cut short (it is then unfinished, `*`). Rulesets with a `quiet`
/// limit end by themselves well before this in random play; `quiet=none` ones may not.
const MAX_PLIES: usize = 300;

/// A uniform index below `n` (n > 0), by rejection so that no index is favoured.
fn below(rng: &mut SplitMix64, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// What every position of a game must satisfy.
fn check_position(pos: &Position, rules: Ruleset, where_: &str) -> Result<(), TestCaseError> {
    // The ruleset round-trips through text.
    let rules_text = rules.to_string();
    prop_assert_eq!(Ruleset::from_str(&rules_text), Ok(rules), "{}", where_);
    prop_assert_eq!(pos.rules(), &rules);

    // Printing then parsing gives the same position.
    let text = pos.to_string();
    let back = Position::from_text(&text, rules);
    prop_assert_eq!(back.as_ref(), Ok(pos), "{}: {} does not read back", where_, text);
    // Stones left in hand when placement ends are out of the game: movement hands are empty.
    if pos.phase() == Phase::Movement {
        prop_assert_eq!((pos.hand(Colour::White), pos.hand(Colour::Black)), (0, 0));
    }
    // The setup alone reads back too, and prints the same text.
    let setup = Setup::from_str(&text);
    prop_assert!(setup.is_ok(), "{}: setup of {}: {:?}", where_, text, setup);
    prop_assert_eq!(setup.unwrap().to_string(), text.clone());

    prop_assert_eq!(pos.hash(), pos.compute_hash(), "{}: hash of {}", where_, text);

    let legal = pos.legal_moves();
    let n = legal.len();
    prop_assert_eq!(pos.count_moves(), n, "{}: count_moves at {}", where_, text);
    prop_assert_eq!(dara::perft::perft(pos, 1), n as u64, "{}: perft 1 at {}", where_, text);

    let distinct: HashSet<Move> = legal.iter().copied().collect();
    prop_assert_eq!(distinct.len(), n, "{}: repeated moves at {}", where_, text);
    let distinct_text: HashSet<String> = legal.iter().map(Move::to_string).collect();
    prop_assert_eq!(distinct_text.len(), n, "{}: moves print alike at {}", where_, text);
    // Every index below the count picks a different legal move: a uniform index is a uniform move.
    let picked: HashSet<Move> = (0..n).filter_map(|i| pos.pick_move(|_| i)).collect();
    prop_assert_eq!(picked, distinct.clone(), "{}: pick_move at {}", where_, text);
    prop_assert_eq!(
        pos.pick_move(|count| count),
        None,
        "{}: index past the count at {}",
        where_,
        text
    );
    // Two-stage picking: each step index, then each capture index of that step, picks a
    // different legal move of the same step, and together they pick every legal move.
    let mut two_stage = HashSet::new();
    let mut steps = 0;
    let _ = pos.pick_move_by_step(|count| {
        steps = count;
        count
    });
    for step in 0..steps {
        let (mut choices, mut asked) = (1, 0);
        let first = pos.pick_move_by_step(|count| {
            asked += 1;
            if asked > 1 {
                choices = count;
            }
            if asked == 1 {
                step
            } else {
                0
            }
        });
        for capture in 0..choices {
            let mut asked = 0;
            let m = pos.pick_move_by_step(|_| {
                asked += 1;
                if asked == 1 {
                    step
                } else {
                    capture
                }
            });
            prop_assert!(m.is_some_and(|m| two_stage.insert(m)), "{}: {:?} at {}", where_, m, text);
            prop_assert_eq!(m.map(Move::without_captures), first.map(Move::without_captures));
        }
    }
    prop_assert_eq!(two_stage, distinct, "{}: pick_move_by_step at {}", where_, text);

    // A cell is open exactly when placing on it is a legal move, and a closed cell's reason is
    // what refusing the placement says.
    for index in 0..64 {
        let Some(cell) = Cell::from_index(index) else { continue };
        let reason = pos.closed_reason(cell);
        let put = Move::Put(cell);
        prop_assert_eq!(reason.is_none(), legal.contains(&put), "{}: {} at {}", where_, cell, text);
        let listed = pos.closed_cells().find(|&(c, _)| c == cell).map(|(_, why)| why);
        let empty_while_placing = pos.phase() == Phase::Placement && pos.empty().contains(cell);
        prop_assert_eq!(listed, reason.filter(|_| empty_while_placing), "{}: {}", where_, cell);
        if let (Some(reason), Ok(text_of_cell)) = (reason, MoveText::from_str(&cell.to_string())) {
            if pos.status() == Status::Ongoing && pos.board().contains(cell) {
                let refusal = text_of_cell.to_move(pos).unwrap_err().to_string();
                let said = match reason {
                    dara::ClosedCell::Occupied => format!("{cell} is not empty"),
                    dara::ClosedCell::PlacementOver => "no longer placed".to_string(),
                    reason => reason.to_string(),
                };
                prop_assert!(refusal.contains(&said), "{}: {} vs {}", where_, refusal, said);
            }
        }
    }

    for &m in &legal {
        let written = m.to_string();
        let parsed = pos.parse_move(&written);
        prop_assert_eq!(parsed, Ok(m), "{}: {} at {}", where_, written, text);
        let syntax = MoveText::from_str(&written);
        prop_assert!(syntax.is_ok(), "{}: {} is not notation", where_, written);
        prop_assert_eq!(syntax.unwrap().to_string(), written.clone());
        match (pos.phase(), m) {
            (Phase::Placement, Move::Put(_) | Move::Pass) => {}
            (Phase::Movement, Move::Step { captures, .. }) => {
                prop_assert!((captures & !pos.stones(!pos.side())).is_empty());
                let most = match rules.captures() {
                    dara::Captures::One => 1,
                    dara::Captures::PerRow => 2,
                };
                prop_assert!(captures.count() <= most, "{}: {} at {}", where_, written, text);
            }
            _ => prop_assert!(false, "{}: {} in the {} phase at {}", where_, m, pos.phase(), text),
        }
    }

    // The game is over exactly when there is no move; nothing is over while placing, and the
    // quiet counter is 0 then.
    prop_assert_eq!(legal.is_empty(), pos.status() != Status::Ongoing, "{}: {}", where_, text);
    if pos.phase() == Phase::Placement {
        prop_assert_eq!(pos.status(), Status::Ongoing);
        prop_assert_eq!(pos.quiet(), 0);
    }
    if let Some(limit) = rules.quiet() {
        prop_assert!(pos.quiet() <= limit);
    }
    Ok(())
}

/// Plays one random game of `rules_text` from the seed, checking every ply, then the record.
fn random_game(rules_text: &str, seed: u64) -> Result<(), TestCaseError> {
    let rules: Ruleset = rules_text.parse().unwrap();
    let start = Position::start(rules);
    let mut pos = start.clone();
    let mut record = Record::new(start.clone());
    let mut rng = SplitMix64::new(seed);
    // Stones taken, and (under blocked=pass) stones still in hand when placement ended.
    let mut captured = [0u32; 2];
    let mut out_of_game = [0u32; 2];
    for ply in 0..MAX_PLIES {
        let where_ = format!("{rules_text} seed {seed:#x} ply {ply}");
        check_position(&pos, rules, &where_)?;
        // Every stone is on the board, in hand, captured, or out of the game.
        for (i, colour) in Colour::ALL.into_iter().enumerate() {
            prop_assert_eq!(
                pos.stones(colour).count()
                    + u32::from(pos.hand(colour))
                    + captured[i]
                    + out_of_game[i],
                u32::from(rules.stones()),
                "{}: stones of {} at {}",
                where_,
                colour,
                pos
            );
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[below(&mut rng, legal.len())];

        let mut played = pos.clone();
        prop_assert!(played.play(m).is_ok());
        let after = pos.after(m);
        prop_assert_eq!(&played, &after);
        let mut unchecked = pos.clone();
        unchecked.play_unchecked(m);
        prop_assert_eq!(&unchecked, &after);

        // Who moves next: the other player, except that White starts the movement phase.
        if pos.phase() == Phase::Placement && after.phase() == Phase::Movement {
            prop_assert_eq!(after.side(), Colour::White, "{}: {} after {}", where_, after, m);
            prop_assert_eq!(after.quiet(), 0);
            for (i, colour) in Colour::ALL.into_iter().enumerate() {
                let placed = u32::from(matches!(m, Move::Put(_)) && pos.side() == colour);
                out_of_game[i] = u32::from(pos.hand(colour)) - placed;
            }
        } else {
            prop_assert_eq!(after.side(), !pos.side(), "{}: {} after {}", where_, after, m);
        }
        prop_assert!(!(pos.phase() == Phase::Movement && after.phase() == Phase::Placement));
        if let Move::Step { captures, .. } = m {
            if captures.any() {
                prop_assert_eq!(after.quiet(), 0);
            } else {
                prop_assert_eq!(after.quiet(), pos.quiet() + 1);
            }
            captured[(!pos.side()).index()] += captures.count();
        } else {
            prop_assert_eq!(after.quiet(), 0);
        }

        record.push(m).map_err(|e| TestCaseError::fail(format!("{where_}: push {m}: {e}")))?;
        pos = after;
    }
    check_position(&pos, rules, &format!("{rules_text} seed {seed:#x} end"))?;

    prop_assert_eq!(record.final_position(), &pos);
    prop_assert_eq!(record.start(), &start);
    let text = record.to_string();
    let back = text.parse::<Record>();
    prop_assert!(
        back.is_ok(),
        "{} seed {:#x}: record does not read back: {:?}\n{}",
        rules_text,
        seed,
        back,
        text
    );
    let back = back.unwrap();
    prop_assert_eq!(&back, &record, "{} seed {:#x}:\n{}", rules_text, seed, text);
    prop_assert_eq!(back.final_position(), &pos);
    prop_assert_eq!(back.moves(), record.moves());
    prop_assert_eq!(back.to_string(), text);
    Ok(())
}

macro_rules! random_games {
    ($($name:ident => $rules:expr,)*) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: GAMES, ..ProptestConfig::default() })]
            $(
                #[test]
                fn $name(seed in any::<u64>()) {
                    random_game($rules, seed)?;
                }
            )*
        }
    };
}

random_games! {
    random_games_arcade => "arcade",
    random_games_ninja => "ninja",
    random_games_jaques => "jaques",
    random_games_wikipedia => "wikipedia",
    random_games_jaques_diagonal => "jaques,diagonal=yes",
    random_games_arcade_per_row => "arcade,captures=per-row",
    random_games_jaques_6x6 => "jaques,rows=6,stones=15",
    random_games_arcade_centre => "arcade,opening=centre",
    random_games_jaques_corner => "jaques,opening=corner",
    random_games_jaques_lose_at_3 => "jaques,lose-at=3",
    random_games_wikipedia_place_3 => "wikipedia,place=3",
    random_games_ninja_7x7_per_row => "ninja,rows=7,cols=7,stones=20,captures=per-row",
    random_games_wikipedia_3x4 => "wikipedia,rows=3,cols=4,stones=6",
    random_games_jaques_small_per_row_protect => "jaques,rows=4,cols=4,stones=8,captures=per-row,protect=yes",
}

// ---------------------------------------------------------------------------------------------
// Parsers never panic
// ---------------------------------------------------------------------------------------------

const PRESETS: [&str; 4] = ["arcade", "ninja", "jaques", "wikipedia"];

/// Positions to parse moves against: the start, a placement position and movement positions.
fn sample_positions() -> Vec<Position> {
    let arcade = Ruleset::default();
    let per_row: Ruleset = "ninja,captures=per-row,diagonal=yes".parse().unwrap();
    vec![
        Position::start(arcade),
        Position::from_text("6/6/2W3/6/6 b 11 12 0", arcade).unwrap(),
        Position::from_text("4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1", arcade).unwrap(),
        Position::from_text("BBB3/6/2W2B/2W2B/WW1W1B w 0 0 0", per_row).unwrap(),
    ]
}

/// Feeds `text` to every parser: each must return, whatever it returns.
fn parse_everything(text: &str, positions: &[Position]) {
    let _ = Ruleset::from_str(text);
    let _ = Setup::from_str(text);
    let _ = MoveText::from_str(text);
    let _ = Record::from_str(text);
    for preset in PRESETS {
        let rules: Ruleset = preset.parse().unwrap();
        if let Ok(pos) = Position::from_text(text, rules) {
            // An accepted position can be used: printed, read back, its moves generated.
            let _ = pos.to_string();
            let _ = pos.status();
            let _ = pos.legal_moves();
        }
    }
    for pos in positions {
        let _ = pos.parse_move(text);
        if let Ok(mt) = MoveText::from_str(text) {
            let _ = mt.to_move(pos);
        }
    }
}

/// Whatever `MoveText` accepts prints as text it accepts again, as the same move text.
fn move_text_round_trips(text: &str) -> Result<(), TestCaseError> {
    if let Ok(mt) = MoveText::from_str(text) {
        let printed = mt.to_string();
        prop_assert_eq!(MoveText::from_str(&printed), Ok(mt.clone()), "{:?}", text);
    }
    Ok(())
}

/// A position accepted by `from_text` behaves: its text is canonical (reads back equal), its
/// hash is right, and its move lists and counts agree.
fn accepted_position_behaves(text: &str, rules_text: &str) -> Result<(), TestCaseError> {
    let rules: Ruleset = rules_text.parse().unwrap();
    let Ok(pos) = Position::from_text(text, rules) else {
        return Ok(());
    };
    let printed = pos.to_string();
    prop_assert_eq!(Position::from_text(&printed, rules), Ok(pos.clone()), "{}", text);
    prop_assert_eq!(pos.hash(), pos.compute_hash());
    let legal = pos.legal_moves();
    prop_assert_eq!(pos.count_moves(), legal.len(), "{} under {}", text, rules_text);
    prop_assert_eq!(
        legal.is_empty(),
        pos.status() != Status::Ongoing,
        "{} under {}",
        text,
        rules_text
    );
    let distinct: HashSet<Move> = legal.iter().copied().collect();
    prop_assert_eq!(distinct.len(), legal.len());
    for &m in &legal {
        prop_assert_eq!(pos.parse_move(&m.to_string()), Ok(m), "{} at {}", m, text);
        let next = pos.after(m);
        prop_assert_eq!(next.hash(), next.compute_hash(), "{} at {}", m, text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_on_any_string(text in any::<String>()) {
        parse_everything(&text, &sample_positions());
        move_text_round_trips(&text)?;
    }

    #[test]
    fn parsers_never_panic_on_notation_alphabet(text in "[a-gWBwb0-9/ x\\-.,=]{0,40}") {
        parse_everything(&text, &sample_positions());
        move_text_round_trips(&text)?;
    }

    #[test]
    fn parsers_never_panic_on_move_like_text(
        text in "(pass|[a-i][0-9]{1,3}(-[a-i][0-9]{1,2}(x[a-i][0-9]{1,2}){0,3})?|[a-h]-?x?[0-9]?)"
    ) {
        parse_everything(&text, &sample_positions());
        move_text_round_trips(&text)?;
    }

    #[test]
    fn parsers_never_panic_on_ruleset_like_text(
        text in "(arcade|ninja|jaques|wikipedia|[a-z]{0,6})(,(rows|cols|stones|place|blocked|diagonal|long|captures|protect|lose-at|quiet|opening|[a-z]{1,4})=?([0-9]{0,6}|yes|no|free|any|pass|allowed|illegal|one|per-row|none|corner|centre|[a-z\\-+]{0,5})){0,5}"
    ) {
        parse_everything(&text, &sample_positions());
        if let Ok(rules) = Ruleset::from_str(&text) {
            // An accepted ruleset prints canonically and gives a usable start position.
            prop_assert_eq!(Ruleset::from_str(&rules.to_string()), Ok(rules));
            let start = Position::start(rules);
            prop_assert_eq!(start.count_moves(), start.legal_moves().len());
        }
    }

    #[test]
    fn parsers_never_panic_on_position_like_text(
        text in "[1-8WBx]{0,8}(/[1-8WB]{0,8}){0,7} ?[wbx]? ?[0-9+\\-]{0,3} ?[0-9]{0,3} ?[0-9]{0,6}",
        preset in 0usize..4,
    ) {
        parse_everything(&text, &sample_positions());
        accepted_position_behaves(&text, PRESETS[preset])?;
    }

    #[test]
    fn accepted_positions_behave(
        board in "[WB1-6]{1,6}(/[WB1-6]{1,6}){4}",
        side in "[wb]",
        hands in (0u8..13, 0u8..13),
        quiet in prop_oneof![Just(0u32), 0u32..90],
        rules_text in prop_oneof![
            Just("arcade"), Just("ninja"), Just("jaques"), Just("wikipedia"),
            Just("arcade,captures=per-row,diagonal=yes"), Just("ninja,captures=per-row"),
            Just("jaques,lose-at=3,long=illegal"),
        ],
    ) {
        let text = format!("{board} {side} {} {} {quiet}", hands.0, hands.1);
        parse_everything(&text, &[]);
        accepted_position_behaves(&text, rules_text)?;
    }

    #[test]
    fn record_parser_never_panics_on_tagged_text(
        rules in "(arcade|ninja|jaques|wikipedia)(,[a-z\\-]{2,9}=[a-z0-9\\-]{1,7}){0,2}|[ -~]{0,12}",
        position in "[1-7WB/]{0,30} [wb] [0-9]{1,2} [0-9]{1,2} [0-9]{1,2}|[ -~]{0,20}",
        with_position in any::<bool>(),
        result in "(1-0|0-1|1/2-1/2|\\*|[ -~]{0,4})",
        movetext in "(([0-9]{1,2}\\.{1,3} )?([a-g][0-9](-[a-g][0-9](x[a-g][0-9]){0,2})?|pass) ){0,10}(1-0|0-1|1/2-1/2|\\*)?",
        junk in "[\\[\\]\" \n\\\\a-zA-Z0-9.]{0,20}",
    ) {
        let mut text = format!("[Event \"x\"]\n[Rules \"{rules}\"]\n");
        if with_position {
            text.push_str(&format!("[Position \"{position}\"]\n"));
        }
        text.push_str(&format!("[Result \"{result}\"]\n\n{movetext}\n"));
        if let Ok(record) = Record::from_str(&text) {
            // What it accepts, it prints as a record it accepts again, equal.
            let printed = record.to_string();
            prop_assert_eq!(Record::from_str(&printed), Ok(record.clone()), "{}", text);
        }
        let _ = Record::from_str(&format!("{junk}{text}"));
        let _ = Record::from_str(&format!("{text}{junk}"));
        let _ = Record::from_str(&format!("[{junk}]\n\n{movetext}"));
    }

    #[test]
    fn records_of_real_openings_parse(seed in any::<u64>(), preset in 0usize..4) {
        // A legal game prefix written by hand-style text (numbers, wrapping) reads back.
        let rules: Ruleset = PRESETS[preset].parse().unwrap();
        let mut pos = Position::start(rules);
        let mut rng = SplitMix64::new(seed);
        let mut tokens = Vec::new();
        for ply in 0..20 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[below(&mut rng, legal.len())];
            if ply % 2 == 0 {
                tokens.push(format!("{}.", ply / 2 + 1));
            }
            tokens.push(m.to_string());
            pos.play(m).unwrap();
        }
        let text = format!("[Rules \"{}\"]\n\n{} *\n", PRESETS[preset], tokens.join(" "));
        let record = Record::from_str(&text);
        prop_assert!(record.is_ok(), "{:?}\n{}", record, text);
        let record = record.unwrap();
        prop_assert_eq!(record.final_position(), &pos);
    }

    #[test]
    fn unchecked_play_of_any_move_never_panics(
        seed in any::<u64>(),
        preset in 0usize..4,
        moves in proptest::collection::vec((0u8..4, 0u8..49, 0u8..49, any::<u64>()), 1..60),
    ) {
        // `play_unchecked` promises no panic even for moves that are not legal: whatever the
        // position becomes, asking about it must answer.
        let rules: Ruleset = PRESETS[preset].parse().unwrap();
        let mut pos = Position::start(rules);
        let mut rng = SplitMix64::new(seed);
        let cell = |i: u8| dara::Cell::new(i % 7, i / 7).unwrap();
        for (kind, a, b, captures) in moves {
            let m = match kind {
                0 => Move::Put(cell(a)),
                1 => Move::Pass,
                2 => Move::Step {
                    from: cell(a),
                    to: cell(b),
                    captures: dara::Bitboard(captures & dara::Bitboard::board(7, 7).0),
                },
                // Now and then a legal move, so the game goes on into the movement phase.
                _ => match pos.legal_moves().as_slice() {
                    [] => Move::Pass,
                    legal => legal[below(&mut rng, legal.len())],
                },
            };
            pos.play_unchecked(m);
            let _ = (pos.status(), pos.count_moves(), pos.legal_moves(), pos.to_string());
            let _ = pos.pick_move(|n| below(&mut rng, n));
        }
    }
}
