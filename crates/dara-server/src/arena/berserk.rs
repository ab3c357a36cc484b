//! Berserk as the arena's shell carries it out: the arena's `Effect::HalveClock` sent to the
//! game's live table, whose answer decides whether the arena keeps the berserk at all. The
//! arena hears of a first move only once the game has told it, so a player who moved a moment
//! ago may still pass the arena's checks: the table, which knows, has the last word, and the
//! arena keeps a berserk only once the table halved the clock (see `Owner::berserk`).

use std::sync::Weak;

use dara::Colour;
use dara_arena::Refusal;
use dara_table::BerserkRefusal;

use super::refused::{ArenaError, Shell};
use crate::game::host::Host;
use crate::game::mailbox::Unhalved;
use crate::seat::GameId;

/// Halves `side`'s clock at `table`, the live game on this server (kept and told to everyone
/// before this returns).
///
/// # Errors
/// The arena's refusal the table's answer amounts to (the game is then as it was), or the
/// shell's, when the halving could not be kept just now.
pub(super) async fn halve_clock<H: Host>(
    host: &Weak<H>,
    table: Option<&GameId>,
    side: Colour,
) -> Result<(), ArenaError> {
    let game = table.zip(host.upgrade()).and_then(|(id, host)| host.live_game(id));
    // A game gone from here has ended (or was taken up elsewhere): nothing to halve.
    let Some(game) = game else { return Err(Refusal::NotInGame.into()) };
    match game.berserk(side).await {
        Some(Ok(())) => Ok(()),
        Some(Err(Unhalved::Refused(why))) => Err(refusal(why).into()),
        Some(Err(Unhalved::Unkept)) => Err(Shell::GameUnkept.into()),
        None => Err(Refusal::NotInGame.into()),
    }
}

/// The arena's word for why the table did not halve a clock.
fn refusal(why: BerserkRefusal) -> Refusal {
    match why {
        BerserkRefusal::AlreadyMoved => Refusal::BerserkTooLate,
        BerserkRefusal::AlreadyBerserk => Refusal::AlreadyBerserk,
        // An arena's games always have a clock; one without is no game to go berserk in.
        BerserkRefusal::GameOver | BerserkRefusal::NoClock => Refusal::NotInGame,
    }
}
