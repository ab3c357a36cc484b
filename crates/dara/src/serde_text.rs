//! serde through the notation: a type that prints with `Display` and reads with `FromStr`
//! serialises as that text, so JSON, a stored record and the notation say the same thing.

/// Implements `serde::Serialize` (the `Display` text) and `serde::Deserialize` (read back with
/// `FromStr`, its error becoming serde's) for each type named, behind the `serde` feature.
macro_rules! serde_through_text {
    ($($type:ty),+ $(,)?) => {$(
        #[cfg(feature = "serde")]
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$type, D::Error> {
                // Borrowed where the format allows it, owned where it must (escaped JSON).
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    )+};
}

pub(crate) use serde_through_text;

/// Implements `serde::Serialize` as the `Display` text for each type named, behind the `serde`
/// feature, for types that have a notation but no reading of their own without a position (a
/// [`crate::Move`] is read through [`crate::MoveText`]) or whose reading lives elsewhere.
macro_rules! serialize_as_text {
    ($($type:ty),+ $(,)?) => {$(
        #[cfg(feature = "serde")]
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }
    )+};
}

pub(crate) use serialize_as_text;
