//! A node's name in the cluster (`--node-id`): it names the node's leases and its inbox.

use core::fmt;
use core::str::FromStr;

/// A node's name: 1 to 32 letters, digits, `-` or `_`, so that it fits in a Redis key and a
/// log line as it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeName(String);

impl NodeName {
    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A name as an operator gives it (`--node-id`): without the `.` of an incarnation.
    ///
    /// # Errors
    /// Not 1 to 32 letters, digits, `-` or `_`.
    pub fn given(text: &str) -> Result<NodeName, BadNodeName> {
        if text.contains('.') {
            return Err(BadNodeName(text.to_owned()));
        }
        text.parse()
    }

    /// This name with a random incarnation (`n1.3fa2c9`): the name one process of the node
    /// goes by. (A name given on the command line has no `.`, so the two never meet.)
    pub fn incarnation(&self) -> NodeName {
        let tag: u32 = rand::random();
        NodeName(format!("{}.{:06x}", self.0, tag & 0xff_ffff))
    }
}

/// Why a node name is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadNodeName(String);

impl fmt::Display for BadNodeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the node name {:?} is not 1 to 32 letters, digits, '-' or '_' (say, node-1)",
            self.0
        )
    }
}

impl std::error::Error for BadNodeName {}

impl FromStr for NodeName {
    type Err = BadNodeName;

    fn from_str(text: &str) -> Result<NodeName, BadNodeName> {
        // A process's own name (see `incarnation`) also reads back, from a lease or an inbox.
        let (name, tag) = text.split_once('.').unwrap_or((text, "0"));
        let fits = (1..=32).contains(&name.len())
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            && !tag.is_empty()
            && tag.len() <= 6
            && tag.bytes().all(|b| b.is_ascii_hexdigit());
        if fits {
            Ok(NodeName(text.to_owned()))
        } else {
            Err(BadNodeName(text.to_owned()))
        }
    }
}

impl fmt::Display for NodeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_in_a_key() {
        assert_eq!("node-1".parse::<NodeName>().unwrap().as_str(), "node-1");
        assert!("a_B9".parse::<NodeName>().is_ok());
        for bad in ["", "a b", "n:1", "n/1", &"x".repeat(33), "é", "n.", "n.xyz", "n.1234567"] {
            let error = bad.parse::<NodeName>().unwrap_err();
            assert!(error.to_string().contains("not 1 to 32"), "{error}");
        }
        assert!(NodeName::given("n1.abc").is_err(), "an operator's name has no incarnation");
        let one = NodeName::given("n1").unwrap().incarnation();
        assert!(one.as_str().starts_with("n1."), "{one}");
        assert_eq!(one.as_str().parse::<NodeName>().unwrap(), one, "an incarnation reads back");
    }
}
