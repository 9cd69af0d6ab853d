//! The certificate file as read: every field typed, no field missing or unknown, no field
//! given twice, integers only. Whatever fails here is a malformed file (exit 2), not a
//! proof that fails (exit 1).

use std::borrow::Cow;
use std::fmt;

use anyhow::{bail, Result};
use serde::de::{Deserializer, Visitor};
use serde::Deserialize;
use serde_json::Value;

/// The format's name, version and claim, as this checker reads them: its own copy, so that
/// it shares nothing with the writer (`pegsol::answer::CertificateFile`).
const FORMAT: &str = "pegsol certificate";
const VERSION: u64 = 1;
const CLAIM: &str = "no line of play leads from the start to a finish";

/// The largest weight, in size, that a pagoda function may give a hole (the format's
/// bound, so that every sum fits in any integer of 64 bits or more).
pub(super) const MAX_WEIGHT: i64 = 1 << 48;

/// A JSON string, borrowed from the file where it has no escapes: a certificate of
/// millions of positions is read without a copy of each.
pub(super) struct Text<'a>(pub(super) Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Text<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a hexadecimal string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

/// Every field the format has; which must be there depends on `kind`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct File<'a> {
    format: String,
    version: u64,
    claim: String,
    pub(super) board: String,
    pub(super) holes: Vec<String>,
    #[serde(borrow)]
    pub(super) start: Text<'a>,
    pub(super) finishes: Value,
    pub(super) kind: String,
    #[serde(borrow, default)]
    pub(super) sets: Option<Vec<Text<'a>>>,
    #[serde(default)]
    pub(super) pagodas: Option<Vec<Vec<i64>>>,
    #[serde(default)]
    pub(super) dual: Option<bool>,
    #[serde(default)]
    pub(super) symmetries: Option<Vec<Vec<u32>>>,
    #[serde(borrow, default)]
    pub(super) positions: Option<Vec<Text<'a>>>,
}

/// The three kinds of proof.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Class,
    Pagoda,
    Search,
}

impl Kind {
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Class => "class",
            Kind::Pagoda => "pagoda",
            Kind::Search => "search",
        }
    }
}

impl<'a> File<'a> {
    /// Reads the JSON text; any fault of form is an error that names the field.
    pub(super) fn read(text: &'a str) -> Result<(File<'a>, Kind)> {
        let file: File = serde_json::from_str(text)?;
        if file.format != FORMAT {
            bail!("\"format\" is {:?}, not {FORMAT:?}", file.format);
        }
        if file.version != VERSION {
            bail!(
                "\"version\" is {}; this checker reads version {VERSION}",
                file.version
            );
        }
        if file.claim != CLAIM {
            bail!("\"claim\" is {:?}, not {CLAIM:?}", file.claim);
        }
        let kind = match file.kind.as_str() {
            "class" => Kind::Class,
            "pagoda" => Kind::Pagoda,
            "search" => Kind::Search,
            other => {
                bail!("unknown certificate kind {other:?}; the kinds are class, pagoda and search")
            }
        };
        // Each kind has its fields, and no other kind's.
        let present = [
            ("sets", file.sets.is_some()),
            ("pagodas", file.pagodas.is_some()),
            ("dual", file.dual.is_some()),
            ("symmetries", file.symmetries.is_some()),
            ("positions", file.positions.is_some()),
        ];
        let wanted: &[&str] = match kind {
            Kind::Class => &["sets"],
            Kind::Pagoda => &["pagodas"],
            Kind::Search => &["pagodas", "dual", "symmetries", "positions"],
        };
        for (name, here) in present {
            match (wanted.contains(&name), here) {
                (true, false) => bail!("a {} certificate needs a {name:?} field", kind.name()),
                (false, true) => bail!(
                    "a {} certificate has no {name:?} field (it belongs to another kind)",
                    kind.name()
                ),
                _ => {}
            }
        }
        if kind == Kind::Pagoda && file.pagodas.as_ref().is_some_and(|p| p.len() != 1) {
            bail!("a pagoda certificate has exactly one function in \"pagodas\"");
        }
        for (k, w) in file.pagodas.iter().flatten().enumerate() {
            if let Some(x) = w.iter().find(|x| x.abs() > MAX_WEIGHT) {
                bail!("pagoda function {k}: the weight {x} is past the format's bound of 2^48 in size");
            }
        }
        Ok((file, kind))
    }
}

/// `{"pegs": k}` or a list of positions, as read from `"finishes"` before the board is known.
pub(super) enum FinishField<'v> {
    Pegs(u64),
    List(Vec<&'v str>),
}

impl FinishField<'_> {
    pub(super) fn read(v: &Value) -> Result<FinishField<'_>> {
        const FORM: &str = "\"finishes\" must be a non-empty list of positions or {\"pegs\": N}";
        match v {
            Value::Array(list) if list.is_empty() => bail!("{FORM}; it is an empty list"),
            Value::Array(list) => Ok(FinishField::List(
                list.iter()
                    .map(|f| {
                        f.as_str().ok_or_else(|| {
                            anyhow::anyhow!("{FORM}; a finish is {f}, not a hexadecimal string")
                        })
                    })
                    .collect::<Result<_>>()?,
            )),
            Value::Object(map) => match (map.len(), map.get("pegs").map(Value::as_u64)) {
                (1, Some(Some(k))) => Ok(FinishField::Pegs(k)),
                _ => bail!("{FORM}; got {v}"),
            },
            other => bail!("{FORM}; got {other}"),
        }
    }
}
