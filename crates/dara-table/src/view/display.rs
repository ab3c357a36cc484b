//! Values written on the wire as their notation.

/// Writes a value through its `Display` (moves, results, rulesets: their notation).
pub fn display<T: core::fmt::Display, S: serde::Serializer>(
    value: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}
