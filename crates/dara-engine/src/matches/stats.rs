//! What a match's games add up to: each game's result from the first player's side, the tally of
//! wins, draws and losses, the Elo difference with its 95% error bar, and the sequential
//! probability ratio test.

use core::fmt;

use dara::Colour;

use super::{FinishedGame, Termination};

/// A game's result from one player's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Wdl {
    /// That player won.
    Win,
    /// Nobody won.
    Draw,
    /// That player lost.
    Loss,
}

impl Wdl {
    /// The result for the player of `colour` in a game that `winner` won (`None`: a draw).
    pub fn for_colour(winner: Option<Colour>, colour: Colour) -> Wdl {
        match winner {
            Some(w) if w == colour => Wdl::Win,
            Some(_) => Wdl::Loss,
            None => Wdl::Draw,
        }
    }
}

/// Wins, draws and losses from the first player's side, and what follows from them.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
    /// Illegal or missing moves by the first player.
    pub first_illegal: u32,
    /// Illegal or missing moves by the second player.
    pub second_illegal: u32,
}

/// An SPRT of H0: elo = elo0 against H1: elo = elo1, at 5% error each way.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// The null hypothesis.
    pub elo0: f64,
    /// The alternative.
    pub elo1: f64,
}

/// The state of an SPRT.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Verdict {
    /// H1 accepted: the first player is stronger by about elo1.
    H1,
    /// H0 accepted.
    H0,
    /// Not yet decided.
    Continue,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Continue => "continue",
        })
    }
}

fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's mean score.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games().max(1))
    }

    fn variance(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }

    /// The Elo difference and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let margin = 1.96 * (self.variance() / n).sqrt();
        let (lo, hi) = (elo_of(s - margin), elo_of(s + margin));
        (elo_of(s), (hi - lo) / 2.0)
    }

    /// The log-likelihood ratio of the test (normal approximation), with its bounds.
    pub fn llr(&self, sprt: Sprt) -> (f64, f64, f64) {
        let (s0, s1) = (expected(sprt.elo0), expected(sprt.elo1));
        let n = f64::from(self.games());
        let var = self.variance().max(1e-3);
        let llr = n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var);
        let bound = (0.95f64 / 0.05).ln();
        (llr, -bound, bound)
    }

    /// The test's verdict so far.
    pub fn verdict(&self, sprt: Sprt) -> Verdict {
        let (llr, lower, upper) = self.llr(sprt);
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    pub(super) fn add(&mut self, game: &FinishedGame) {
        match game.result {
            Wdl::Win => self.wins += 1,
            Wdl::Draw => self.draws += 1,
            Wdl::Loss => self.losses += 1,
        }
        if let Termination::Illegal { colour, .. } = game.termination {
            if (colour == Colour::White) == game.first_is_white {
                self.first_illegal += 1;
            } else {
                self.second_illegal += 1;
            }
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games {} W {} D {} L {} score {:.1}% ",
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score(),
        )?;
        let n = f64::from(self.games().max(1));
        if self.wins == self.games() || self.losses == self.games() {
            // A clean sweep has no finite estimate; the rule of three bounds it at 95%.
            let bound = elo_of((1.0 - 3.0 / n).max(0.5));
            let sign = if self.wins > 0 { '+' } else { '-' };
            write!(f, "elo {sign}inf ({sign}{bound:.0} at 95%)")
        } else {
            let (elo, margin) = self.elo();
            write!(f, "elo {elo:+.0} +/- {margin:.0}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_from_either_side() {
        assert_eq!(Wdl::for_colour(Some(Colour::White), Colour::White), Wdl::Win);
        assert_eq!(Wdl::for_colour(Some(Colour::White), Colour::Black), Wdl::Loss);
        assert_eq!(Wdl::for_colour(None, Colour::Black), Wdl::Draw);
    }

    #[test]
    fn elo_and_sprt() {
        let even = Tally { wins: 40, draws: 20, losses: 40, ..Tally::default() };
        assert!(even.elo().0.abs() < 1e-9);
        let strong = Tally { wins: 90, draws: 5, losses: 5, ..Tally::default() };
        let (elo, margin) = strong.elo();
        assert!(elo > 300.0 && margin > 0.0, "{elo} {margin}");
        assert_eq!(strong.verdict(Sprt { elo0: 0.0, elo1: 5.0 }), Verdict::H1);
        assert_eq!(even.verdict(Sprt { elo0: 0.0, elo1: 5.0 }), Verdict::Continue);
    }
}
