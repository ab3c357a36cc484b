//! `dara codes`: every code the crates give for what they refuse or decide, with the figures
//! each carries, as JSON. Listed from the types themselves (each serialised from one value of
//! every variant, `dara::Coded`), so it cannot drift from the wire; the pages' catalogues are
//! checked against it (browser-tests/tests/i18n.test.js).

use anyhow::{bail, Result};
use dara::{ClosedCell, Coded, Illegal, MoveError, PositionError, RulesetError, Status};
use dara_server::arena::{ArenaRefusal, Shell};
use dara_server::error::AppError;
use dara_server::protocol::Refusal;
use dara_table::wire::Phrase;
use dara_table::EndReason;
use serde_json::{Map, Value};

/// Print every code as JSON: `{"Illegal": {"occupied": ["cell"], ...}, ...}`, each type's codes
/// with the names of their figures (the quick messages' phrases too, which have none).
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> Result<()> {
    let types = [
        ("Illegal", codes::<Illegal>()?),
        ("MoveError", codes::<MoveError>()?),
        ("ClosedCell", codes::<ClosedCell>()?),
        ("Status", codes::<Status>()?),
        ("RulesetError", codes::<RulesetError>()?),
        ("PositionError", codes::<PositionError>()?),
        ("EndReason", codes::<EndReason>()?),
        ("Refusal", codes::<Refusal>()?),
        ("AppError", codes::<AppError>()?),
        ("Phrase", codes::<Phrase>()?),
        ("ArenaRefusal", codes::<ArenaRefusal>()?),
        ("ArenaShell", codes::<Shell>()?),
    ];
    let all: Map<String, Value> =
        types.into_iter().map(|(name, codes)| (name.to_owned(), codes)).collect();
    println!("{}", serde_json::to_string_pretty(&all)?);
    Ok(())
}

/// `T`'s codes, each with the names of its figures: a value that serialises as a string is a
/// code alone; an object names its code under `code`, and its other keys are the figures.
fn codes<T: Coded>() -> Result<Value> {
    let mut codes = Map::new();
    for value in T::one_of_each() {
        let (code, figures) = match serde_json::to_value(&value)? {
            Value::String(code) => (code, Vec::new()),
            Value::Object(mut object) => match object.remove("code") {
                Some(Value::String(code)) => {
                    (code, object.keys().cloned().map(Value::from).collect())
                }
                _ => bail!("{} serialised without a code: {object:?}", std::any::type_name::<T>()),
            },
            other => bail!("{} serialised as {other}", std::any::type_name::<T>()),
        };
        if codes.insert(code.clone(), Value::Array(figures)).is_some() {
            bail!("two values of {} have the code {code}", std::any::type_name::<T>());
        }
    }
    Ok(Value::Object(codes))
}
