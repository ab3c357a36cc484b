//! Whether a game is one anyone may watch (`crate::watch`): one at an open table or in an arena,
//! both seats taken and not ended. A friend's game stays private to its link, and a game against
//! the computer is nobody's show. An arena's games are seated as a friend's are (each player by
//! their link), but an arena is played in the open: its page lists them for anyone to watch, and
//! so does `/watch`.

use dara_table::{Opponent, Table};

use super::host::Host;
use crate::seat::{GameId, SeatHash};
use crate::watch::{Kind, Shown};

/// Tells the watch list whether game `id` at `table`, with `watchers` watching, is one to watch,
/// and how it stands; `in_arena`: an arena paired it (it tells the arena its news). Told after
/// every change: the list ignores what did not change.
pub(super) fn tell(
    host: &dyn Host,
    id: &GameId,
    table: &Table<SeatHash>,
    watchers: u32,
    in_arena: bool,
) {
    match shown(table, watchers, in_arena) {
        Some(shown) => host.watch_list().show(id, shown),
        None => host.watch_list().hide(id),
    }
}

fn shown(table: &Table<SeatHash>, watchers: u32, in_arena: bool) -> Option<Shown> {
    let settings = table.settings();
    let kind = match settings.opponent {
        Opponent::Open => Kind::Table,
        Opponent::Friend if in_arena => Kind::Arena,
        Opponent::Friend | Opponent::Computer(_) => return None,
    };
    if !table.both_seated() || table.ending().is_some() {
        return None;
    }
    let turns = u32::try_from(table.played().moves().len()).unwrap_or(u32::MAX);
    Some(Shown { kind, rules: settings.rules, clock: settings.clock, turns, watchers })
}
