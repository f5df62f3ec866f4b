//! The words events carry ([`Text`]): rule IDs, side names, reasons and the purposes of
//! die rolls, which events name over and over and which a playout would otherwise copy
//! for every event.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};

/// A rule ID, a side's id, a reason or a roll's purpose in an event: a string written in
/// the rules, one shared with the rules bound to a scenario (a side's id) or between the
/// dice of one pool, or one written for the event alone ([`Text::owned`]) or read back
/// from a log. It reads, compares, hashes, prints and serializes as its string, so an
/// event holding one is the event holding that string.
///
/// ```
/// use grognard_engine::Text;
/// let written = Text::from("BC-CARD-1");
/// assert_eq!(written, Text::from(String::from("BC-CARD-1")));
/// assert_eq!(written, Text::owned(String::from("BC-CARD-1")));
/// assert_eq!(format!("{written:?}"), format!("{:?}", "BC-CARD-1"));
/// ```
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Static(&'static str),
    Shared(Arc<str>),
    /// Written for one event: moved in without a copy, copied if the event is.
    Owned(String),
}

impl Text {
    /// The text, as a string slice.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Static(s) => s,
            Repr::Shared(s) => s,
            Repr::Owned(s) => s,
        }
    }

    /// A text written for one event, kept as it is (no copy): what a formatted roll's
    /// purpose becomes. A clone copies it; [`Text::from`] a `String` shares it instead.
    #[must_use]
    pub fn owned(s: String) -> Text {
        Text(Repr::Owned(s))
    }

    /// A name events repeat for as long as the process runs, such as a side's id: kept
    /// once for the whole process, so that an event naming it copies no string and
    /// counts no reference (an atomic count costs as much as a short copy). The names
    /// kept are few and short ([`LASTING_NAMES`] of at most [`LASTING_LEN`] bytes); past
    /// them, or for a longer one, the text is shared as [`Text::from`] shares a
    /// `String`.
    ///
    /// ```
    /// use grognard_engine::Text;
    /// assert_eq!(Text::lasting("grey"), "grey");
    /// assert_eq!(Text::lasting("grey"), Text::from("grey"));
    /// ```
    #[must_use]
    pub fn lasting(s: &str) -> Text {
        let mut kept = LASTING.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&k) = kept.iter().find(|&&k| k == s) {
            return Text(Repr::Static(k));
        }
        if kept.len() >= LASTING_NAMES || s.len() > LASTING_LEN {
            return Text::from(s.to_owned());
        }
        // Kept until the process ends, by design: at most LASTING_NAMES * LASTING_LEN
        // bytes.
        let k: &'static str = Box::leak(Box::<str>::from(s));
        kept.push(k);
        Text(Repr::Static(k))
    }
}

/// How many names [`Text::lasting`] keeps for the process.
pub const LASTING_NAMES: usize = 256;

/// The longest name, in bytes, that [`Text::lasting`] keeps.
pub const LASTING_LEN: usize = 64;

/// The names [`Text::lasting`] kept.
static LASTING: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&'static str> for Text {
    fn from(s: &'static str) -> Text {
        Text(Repr::Static(s))
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Repr::Shared(s.into()))
    }
}

impl From<Arc<str>> for Text {
    fn from(s: Arc<str>) -> Text {
        Text(Repr::Shared(s))
    }
}

impl From<Text> for String {
    fn from(t: Text) -> String {
        match t.0 {
            Repr::Owned(s) => s,
            _ => t.as_str().to_owned(),
        }
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        String::deserialize(d).map(Text::owned)
    }
}
