//! Lenient readers for ProtoJSON scalars: what the ProtoJSON mapping lets a
//! client send beside the canonical form.
//!
//! - `int32` fields accept a JSON number or a string holding one, and an
//!   integral float (`10.0`), as ProtoJSON parsers do;
//! - `null` for a scalar or message field means "not set";
//! - a `google.protobuf.Value` field (`Part.data`) keeps an explicit `null`.

use serde::de::{self, Deserializer};
use serde::Deserialize;
use serde_json::Value;

/// An `optional int32`: absent or `null` → `None`; a number, an integral
/// float or a decimal string → `Some`; anything else is an error.
pub(crate) fn opt_i32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i32>, D::Error> {
    let v = Option::<Value>::deserialize(d)?;
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(v) => int32_of(&v).map(Some).map_err(de::Error::custom),
    }
}

/// A plain `int32`: absent or `null` → 0, otherwise as [`opt_i32`].
pub(crate) fn i32_or_zero<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    opt_i32(d).map(Option::unwrap_or_default)
}

/// The `int32` a ProtoJSON value stands for.
pub(crate) fn int32_of(v: &Value) -> Result<i32, String> {
    let n: Option<i64> = match v {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    match n {
        Some(n) => i32::try_from(n).map_err(|_| format!("{n} is out of the int32 range")),
        None => Err(format!("expected an integer, got {}", describe(v))),
    }
}

/// A `google.protobuf.Value` that was present: `null` is kept as `Value::Null`.
pub(crate) fn present_value<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A short description of a JSON value for error messages.
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() <= 40 => format!("the string \"{s}\""),
        Value::String(_) => "a string".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Serde `skip_serializing_if` helper for strings that ProtoJSON omits when empty.
pub(crate) fn is_empty(s: &str) -> bool {
    s.is_empty()
}

/// Deserializes a ProtoJSON enum: its SCREAMING_SNAKE name or its number.
/// `names[i]` is the name of number `i`.
pub(crate) fn proto_enum<'de, D: Deserializer<'de>>(
    d: D,
    type_name: &str,
    names: &[&str],
) -> Result<usize, D::Error> {
    let v = Value::deserialize(d)?;
    let found = match &v {
        Value::String(s) => names.iter().position(|n| n == s),
        Value::Number(n) => n
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|i| *i < names.len()),
        _ => None,
    };
    found.ok_or_else(|| {
        de::Error::custom(format!(
            "invalid {type_name}: got {}, expected one of {}",
            describe(&v),
            names.join(", ")
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn int32_forms() {
        assert_eq!(int32_of(&json!(7)), Ok(7));
        assert_eq!(int32_of(&json!(7.0)), Ok(7));
        assert_eq!(int32_of(&json!("7")), Ok(7));
        assert_eq!(int32_of(&json!(-3)), Ok(-3));
        assert!(int32_of(&json!(7.5)).is_err());
        assert!(int32_of(&json!("seven")).is_err());
        assert!(int32_of(&json!(true)).is_err());
        assert!(int32_of(&json!(4_294_967_296_i64))
            .unwrap_err()
            .contains("int32"));
    }
}
