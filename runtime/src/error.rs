//! Errors with a stable code and a canonical path, identical in Rust and TypeScript.

use std::fmt;

/// A stable error code. The snake_case spelling (`as_str`) is part of the wire contract:
/// TypeScript reports the same codes for the same inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Code {
    /// The input ended inside a value.
    Truncated,
    /// The byte `0xc1`, which msgpack never uses.
    ReservedMarker,
    /// A marker that cannot start the expected kind of value.
    WrongType,
    /// Bytes left after a complete message.
    TrailingBytes,
    /// A string that is not valid UTF-8 (or, in TypeScript, not well-formed UTF-16).
    InvalidUtf8,
    /// NaN or an infinity (also after narrowing f64 to f32).
    NotFinite,
    /// A float in an int field with a fractional part.
    NotIntegral,
    /// A number outside its type's or its schema's range.
    OutOfRange,
    /// A string, bin, list or map longer than its limit.
    TooLong,
    /// A string, bin, list or map shorter than its limit.
    TooShort,
    /// A fixed-size array with the wrong number of elements.
    WrongLength,
    /// A required field is absent.
    MissingField,
    /// The same key twice in one map (also an alias and its canonical name together).
    DuplicateKey,
    /// An enum number or name no variant has, in a closed enum.
    UnknownVariant,
    /// Flag bits no flag has, in a closed flag set.
    UnknownFlags,
    /// Nesting deeper than the decoder's depth cap.
    TooDeep,
    /// More elements than the decoder's element cap.
    TooManyElements,
    /// A message id or name that no message of this direction has.
    UnknownMessage,
    /// A delta that refers to state the receiver does not hold (an entity it never got, or
    /// no keyframe yet): drop the mirror and ask for a keyframe.
    NoBaseline,
    /// A delta message's payload handled as a plain message: a tracker's payload (a
    /// keyframe or a delta) decoded without a mirror, or, in TypeScript, a delta message
    /// sent without its tracker. Apply it with a `Mirror` (dispatch's `from_envelope_with`).
    DeltaPayload,
}

impl Code {
    /// Every code, in declaration order.
    pub const ALL: &'static [Code] = &[
        Code::Truncated,
        Code::ReservedMarker,
        Code::WrongType,
        Code::TrailingBytes,
        Code::InvalidUtf8,
        Code::NotFinite,
        Code::NotIntegral,
        Code::OutOfRange,
        Code::TooLong,
        Code::TooShort,
        Code::WrongLength,
        Code::MissingField,
        Code::DuplicateKey,
        Code::UnknownVariant,
        Code::UnknownFlags,
        Code::TooDeep,
        Code::TooManyElements,
        Code::UnknownMessage,
        Code::NoBaseline,
        Code::DeltaPayload,
    ];

    /// The stable snake_case spelling shared with TypeScript.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Truncated => "truncated",
            Code::ReservedMarker => "reserved_marker",
            Code::WrongType => "wrong_type",
            Code::TrailingBytes => "trailing_bytes",
            Code::InvalidUtf8 => "invalid_utf8",
            Code::NotFinite => "not_finite",
            Code::NotIntegral => "not_integral",
            Code::OutOfRange => "out_of_range",
            Code::TooLong => "too_long",
            Code::TooShort => "too_short",
            Code::WrongLength => "wrong_length",
            Code::MissingField => "missing_field",
            Code::DuplicateKey => "duplicate_key",
            Code::UnknownVariant => "unknown_variant",
            Code::UnknownFlags => "unknown_flags",
            Code::TooDeep => "too_deep",
            Code::TooManyElements => "too_many_elements",
            Code::UnknownMessage => "unknown_message",
            Code::NoBaseline => "no_baseline",
            Code::DeltaPayload => "delta_payload",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One step of a path: a canonical field name, an index, or a map key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Seg {
    /// A field by its canonical (Rust) name, never a legacy key.
    Field(&'static str),
    /// An element of a list or array, or a position in a tuple.
    Index(u32),
    /// An entry of a map, by its key as text.
    Key(String),
}

/// A path from the message root to the failing value, printed as `p[1]`, `items[3].name`,
/// `scores["ann"]`. The root is the empty path.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path(pub Vec<Seg>);

impl Path {
    /// The empty path (the message itself).
    pub const fn root() -> Path {
        Path(Vec::new())
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Field(name) if i == 0 => f.write_str(name)?,
                Seg::Field(name) => write!(f, ".{name}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
                Seg::Key(k) => write!(f, "[{k:?}]")?,
            }
        }
        Ok(())
    }
}

/// One problem with an input or a value: a stable code, where, and a readable message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// The stable code.
    pub code: Code,
    /// Where, in canonical names.
    pub path: Path,
    /// What was wrong, from the shared templates.
    pub message: String,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.0.is_empty() {
            write!(f, "{}: {}", self.code, self.message)
        } else {
            write!(f, "{} at {}: {}", self.code, self.path, self.message)
        }
    }
}

/// The error of a decode or an encode: one issue, boxed so `Result`s stay small.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(Box<Issue>);

impl Error {
    /// A new error at the root path.
    #[cold]
    pub fn new(code: Code, message: impl Into<String>) -> Error {
        Error(Box::new(Issue {
            code,
            path: Path::root(),
            message: message.into(),
        }))
    }

    /// The code.
    pub fn code(&self) -> Code {
        self.0.code
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.0.path
    }

    /// The issue.
    pub fn issue(&self) -> &Issue {
        &self.0
    }

    /// Unwraps into the issue.
    pub fn into_issue(self) -> Issue {
        *self.0
    }

    /// Prefixes the path with a field, as the error unwinds out of a record.
    #[cold]
    pub fn in_field(mut self, name: &'static str) -> Error {
        self.0.path.0.insert(0, Seg::Field(name));
        self
    }

    /// Prefixes the path with an index, as the error unwinds out of a list.
    #[cold]
    pub fn in_index(mut self, index: usize) -> Error {
        self.0.path.0.insert(0, Seg::Index(index as u32));
        self
    }

    /// Prefixes the path with a map key, as the error unwinds out of a map.
    #[cold]
    pub fn in_key(mut self, key: impl fmt::Display) -> Error {
        self.0.path.0.insert(0, Seg::Key(key.to_string()));
        self
    }
}

impl From<Issue> for Error {
    fn from(issue: Issue) -> Error {
        Error(Box::new(issue))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Error {}
