//! Values and rows as both stores give and take them, owned.

use super::DbError;
use rusqlite::types::{ToSqlOutput, ValueRef};

/// A value of a column or a parameter. Integers are 64 bits on both stores (every
/// integer column of the PostgreSQL schema is `BIGINT`); a boolean is stored as 0 or 1.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// An integer (a boolean read from PostgreSQL is 0 or 1).
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(String),
    /// Bytes.
    Blob(Vec<u8>),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<&i64> for Value {
    fn from(v: &i64) -> Value {
        Value::Int(*v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<&bool> for Value {
    fn from(v: &bool) -> Value {
        Value::Int(i64::from(*v))
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<&f64> for Value {
    fn from(v: &f64) -> Value {
        Value::Real(*v)
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}

impl From<&&str> for Value {
    fn from(v: &&str) -> Value {
        Value::Text((*v).to_owned())
    }
}

impl From<Vec<u8>> for Value {
    fn from(v: Vec<u8>) -> Value {
        Value::Blob(v)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

impl<T: Clone + Into<Value>> From<&Option<T>> for Value {
    fn from(v: &Option<T>) -> Value {
        v.clone().map_or(Value::Null, Into::into)
    }
}

impl From<ValueRef<'_>> for Value {
    fn from(v: ValueRef<'_>) -> Value {
        match v {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Int(i),
            ValueRef::Real(f) => Value::Real(f),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        }
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(*i)),
            Value::Real(f) => ToSqlOutput::Borrowed(ValueRef::Real(*f)),
            Value::Text(t) => ToSqlOutput::Borrowed(ValueRef::Text(t.as_bytes())),
            Value::Blob(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
        })
    }
}

/// A row of a query, owned.
#[derive(Clone, Debug, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    /// Column `i` as a `T`.
    ///
    /// # Errors
    /// No such column, or it holds a value that is not a `T`.
    pub fn get<T: FromValue>(&self, i: usize) -> Result<T, DbError> {
        let v = self
            .0
            .get(i)
            .ok_or_else(|| DbError::new(format!("no column {i} in a row of {}", self.0.len())))?;
        T::from_value(v).map_err(|e| DbError::new(format!("column {i}: {e}")))
    }
}

/// A Rust value a [`Value`] reads as.
pub trait FromValue: Sized {
    /// Reads `v`.
    ///
    /// # Errors
    /// `v` is not of this type.
    fn from_value(v: &Value) -> Result<Self, String>;
}

fn wrong(want: &str, v: &Value) -> String {
    format!("expected {want}, found {v:?}")
}

impl FromValue for i64 {
    fn from_value(v: &Value) -> Result<i64, String> {
        match v {
            Value::Int(i) => Ok(*i),
            _ => Err(wrong("an integer", v)),
        }
    }
}

impl FromValue for bool {
    fn from_value(v: &Value) -> Result<bool, String> {
        match v {
            Value::Int(i) => Ok(*i != 0),
            _ => Err(wrong("a boolean", v)),
        }
    }
}

impl FromValue for f64 {
    fn from_value(v: &Value) -> Result<f64, String> {
        match v {
            Value::Real(f) => Ok(*f),
            #[expect(
                clippy::cast_precision_loss,
                reason = "as SQLite reads an integer as REAL"
            )]
            Value::Int(i) => Ok(*i as f64),
            _ => Err(wrong("a number", v)),
        }
    }
}

impl FromValue for String {
    fn from_value(v: &Value) -> Result<String, String> {
        match v {
            Value::Text(t) => Ok(t.clone()),
            _ => Err(wrong("text", v)),
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(v: &Value) -> Result<Vec<u8>, String> {
        match v {
            Value::Blob(b) => Ok(b.clone()),
            _ => Err(wrong("bytes", v)),
        }
    }
}

impl FromValue for Value {
    fn from_value(v: &Value) -> Result<Value, String> {
        Ok(v.clone())
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: &Value) -> Result<Option<T>, String> {
        match v {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}
