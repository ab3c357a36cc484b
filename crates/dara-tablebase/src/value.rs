//! What the tables say about a position: win, draw or loss, and the distance to the next capture.

use core::fmt;

/// The result for the side to move with best play and no quiet-plies limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Wdl {
    /// The word `probe` prints.
    pub const fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }

    /// The result for the other side.
    pub const fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Distance to capture: plies until the quiet-plies counter stops mattering, with best play
/// (the winner hurries, the loser holds out).
///
/// It counts the capturing ply itself; a win by leaving the loser without a step counts the
/// loser's blocked turn as one more ply, because RULES.md judges the quiet-plies draw before the
/// blocked side's loss. With that convention a win or loss of distance `d` stands under a
/// quiet-plies limit `L` exactly when `quiet + d <= L`.
///
/// Under a limit, a capture into a position that is won or lost only without the limit (a
/// cursed win or a blessed loss, see [`Value::under_limit`]) counts `L + 1` plies: such a capture
/// keeps the result only where there is no limit, so it must never rank before one that keeps it
/// within the limit. Distances above `L` therefore order positions but overstate the plies.
pub type Dtc = u16;

/// One position's entry: the result and, for a win or loss, its distance to capture.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    /// Win, draw or loss without a limit.
    pub wdl: Wdl,
    /// Distance to capture (0 for a draw).
    pub dtc: Dtc,
}

/// The result under the ruleset's quiet-plies limit, from a given counter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Won within the limit, in `dtc` plies to the next capture.
    Win(Dtc),
    /// Drawn, by the position or by the limit.
    Draw,
    /// Lost within the limit, in `dtc` plies to the next capture.
    Loss(Dtc),
}

impl Value {
    /// A draw.
    pub const DRAW: Value = Value { wdl: Wdl::Draw, dtc: 0 };

    /// The result at `quiet` quiet plies under a limit of `limit` plies (`None`: no limit).
    pub fn under_limit(self, quiet: u32, limit: Option<u32>) -> Outcome {
        let within = limit.map_or(true, |l| quiet + u32::from(self.dtc) <= l);
        match self.wdl {
            Wdl::Win if within => Outcome::Win(self.dtc),
            Wdl::Loss if within => Outcome::Loss(self.dtc),
            _ => Outcome::Draw,
        }
    }

    /// A win that only stands without the limit (`quiet` 0).
    pub fn is_cursed_win(self, limit: Option<u32>) -> bool {
        self.wdl == Wdl::Win && self.under_limit(0, limit) == Outcome::Draw
    }

    /// A loss that the limit turns into a draw (`quiet` 0).
    pub fn is_blessed_loss(self, limit: Option<u32>) -> bool {
        self.wdl == Wdl::Loss && self.under_limit(0, limit) == Outcome::Draw
    }

    /// The entry as stored in two bytes: 0 a draw, `0x4000 | dtc` a win, `0x8000 | dtc` a loss.
    pub(crate) const fn to_u16(self) -> u16 {
        match self.wdl {
            Wdl::Draw => 0,
            Wdl::Win => WIN | self.dtc,
            Wdl::Loss => LOSS | self.dtc,
        }
    }

    /// The entry of [`Value::to_u16`]; any other bits read as a draw.
    pub(crate) const fn from_u16(bits: u16) -> Value {
        let dtc = bits & DTC_MASK;
        match bits & !DTC_MASK {
            WIN => Value { wdl: Wdl::Win, dtc },
            LOSS => Value { wdl: Wdl::Loss, dtc },
            _ => Value::DRAW,
        }
    }
}

pub(crate) const WIN: u16 = 0x4000;
pub(crate) const LOSS: u16 = 0x8000;
pub(crate) const DTC_MASK: u16 = 0x3fff;

impl fmt::Display for Value {
    /// The two lines `probe` prints: `wdl <result>` and `dtc <plies>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wdl {}\ndtc {}", self.wdl, self.dtc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_turn_late_results_into_draws() {
        let win = Value { wdl: Wdl::Win, dtc: 10 };
        assert_eq!(win.under_limit(70, Some(80)), Outcome::Win(10));
        assert_eq!(win.under_limit(71, Some(80)), Outcome::Draw);
        assert_eq!(win.under_limit(1000, None), Outcome::Win(10));
        let far = Value { wdl: Wdl::Loss, dtc: 81 };
        assert!(far.is_blessed_loss(Some(80)));
        assert!(!far.is_blessed_loss(None));
        for v in [win, far, Value::DRAW] {
            assert_eq!(Value::from_u16(v.to_u16()), v);
        }
    }
}
