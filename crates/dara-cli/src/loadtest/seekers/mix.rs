//! What the seekers ask for: rules and a clock, drawn from a weighted mix (`--mix
//! WEIGHT:RULES@CLOCK`), by default a small site's, where most people play the Arcade's own
//! rules on one of the home page's five clocks.

use core::fmt;
use core::str::FromStr;

use dara::Ruleset;
use dara_table::clock::TimeControl;
use rand::Rng;

/// One choice a seeker may make: the rules and the clock it asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    pub rules: Ruleset,
    /// `None`: no clock.
    pub clock: Option<TimeControl>,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.clock {
            Some(clock) => write!(f, "{}@{}", self.rules, clock.label()),
            None => write!(f, "{}@none", self.rules),
        }
    }
}

/// A choice and how often it is made, relative to the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weighted {
    pub weight: u32,
    pub choice: Choice,
}

/// A clock as the home page offers it, `M+S` (minutes, seconds added a move), or `none`.
pub fn clock(text: &str) -> Result<Option<TimeControl>, String> {
    if text == "none" {
        return Ok(None);
    }
    let bad = || format!("a clock is MINUTES+SECONDS (5+3) or none, not {text:?}");
    let (minutes, increment) = text.split_once('+').ok_or_else(bad)?;
    let minutes: u32 = minutes.parse().map_err(|_| bad())?;
    let increment: u32 = increment.parse().map_err(|_| bad())?;
    let control = TimeControl { initial: minutes.saturating_mul(60), increment };
    // The server refuses any other: a seeker asking for it would only count as a failure.
    if !control.is_reasonable() {
        return Err(format!("{text}: the Arcade offers 1 to 60 minutes and up to 60 s a move"));
    }
    Ok(Some(control))
}

impl FromStr for Weighted {
    type Err = String;

    /// `WEIGHT:RULES@CLOCK`, as in `30:arcade@5+3` or `4:jaques,diagonal=yes@none`.
    fn from_str(text: &str) -> Result<Weighted, String> {
        let form = || format!("expected WEIGHT:RULES@CLOCK (30:arcade@5+3), not {text:?}");
        let (weight, rest) = text.split_once(':').ok_or_else(form)?;
        let (rules, clock_text) = rest.rsplit_once('@').ok_or_else(form)?;
        let weight: u32 = weight.parse().map_err(|_| form())?;
        let rules: Ruleset = rules.parse().map_err(|e| format!("{rules:?}: {e}"))?;
        Ok(Weighted { weight, choice: Choice { rules, clock: clock(clock_text)? } })
    }
}

/// The choices seekers draw from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mix {
    entries: Vec<Weighted>,
    total: u64,
}

/// A small site's mix, in percent: four in five play the Arcade's own rules on the home page's
/// five clocks (5+3, its default, most); the rest a larger board or another preset, each on a
/// clock of its own, so that they seldom meet anyone.
pub const DEFAULT_MIX: [&str; 9] = [
    "14:arcade@3+2",
    "30:arcade@5+3",
    "16:arcade@10+5",
    "8:arcade@15+10",
    "12:arcade@none",
    "6:arcade,rows=6,stones=15@5+3",
    "6:ninja@5+3",
    "4:jaques@10+5",
    "4:wikipedia@none",
];

impl Mix {
    /// A mix of `entries`.
    ///
    /// # Errors
    /// When there is nothing to draw (no entry, or every weight 0).
    pub fn new(entries: Vec<Weighted>) -> Result<Mix, String> {
        let total = entries.iter().map(|e| u64::from(e.weight)).sum();
        if total == 0 {
            return Err("the mix has nothing to draw: give at least one weight above 0".into());
        }
        Ok(Mix { entries, total })
    }

    /// [`DEFAULT_MIX`].
    pub fn small_site() -> Mix {
        let entries = DEFAULT_MIX.iter().map(|e| e.parse().expect("the default mix reads"));
        Mix::new(entries.collect()).expect("the default mix has weights")
    }

    /// One choice, each with the chance of its weight.
    pub fn draw(&self, rng: &mut impl Rng) -> Choice {
        let mut at = rng.gen_range(0..self.total);
        for entry in &self.entries {
            let weight = u64::from(entry.weight);
            if at < weight {
                return entry.choice;
            }
            at -= weight;
        }
        unreachable!("a draw below the total falls in an entry")
    }

    /// Each choice with its share of the draws, for the report.
    pub fn shares(&self) -> impl Iterator<Item = (Choice, f64)> + '_ {
        self.entries.iter().map(|e| (e.choice, f64::from(e.weight) / self.total as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara::Preset;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn choices_are_read_and_written_alike() {
        let w: Weighted = "30:arcade@5+3".parse().unwrap();
        assert_eq!(w.weight, 30);
        assert_eq!(w.choice.clock, Some(TimeControl { initial: 300, increment: 3 }));
        assert_eq!(w.choice.to_string(), "arcade@5+3");
        let w: Weighted = "4:jaques,diagonal=yes@none".parse().unwrap();
        assert_eq!(
            (w.choice.rules.to_string().as_str(), w.choice.clock),
            ("jaques,diagonal=yes", None)
        );
        for bad in [
            "arcade@5+3",
            "x:arcade@5+3",
            "3:arcade",
            "3:nonsense@5+3",
            "3:arcade@5",
            "3:arcade@90+0",
        ] {
            assert!(bad.parse::<Weighted>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_default_mix_is_mostly_the_arcade_on_five_clocks() {
        let mix = Mix::small_site();
        let arcade: f64 =
            mix.shares().filter(|(c, _)| c.rules == Preset::Arcade.ruleset()).map(|(_, s)| s).sum();
        assert!((arcade - 0.80).abs() < 1e-9, "{arcade}");
        let clocks: std::collections::BTreeSet<String> = mix
            .shares()
            .filter(|(c, _)| c.rules == Preset::Arcade.ruleset())
            .map(|(c, _)| c.to_string())
            .collect();
        assert_eq!(clocks.len(), 5, "{clocks:?}");
    }

    #[test]
    fn draws_follow_the_weights() {
        let mix = Mix::new(vec!["3:arcade@5+3".parse().unwrap(), "1:ninja@none".parse().unwrap()])
            .unwrap();
        let mut rng = SmallRng::seed_from_u64(7);
        let n = 20_000;
        let arcade =
            (0..n).filter(|_| mix.draw(&mut rng).rules == Preset::Arcade.ruleset()).count();
        let share = arcade as f64 / n as f64;
        assert!((share - 0.75).abs() < 0.02, "{share}");
        assert!(Mix::new(vec!["0:arcade@none".parse().unwrap()]).is_err());
        assert!(Mix::new(Vec::new()).is_err());
    }
}
