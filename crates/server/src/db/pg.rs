//! PostgreSQL through the synchronous `postgres` client: placeholders turned from
//! `?1` to `$1`, statements prepared once per connection, values converted to the
//! type each parameter and column has.

use super::{DbError, Result, Row, Value};
use bytes::BytesMut;
use postgres::types::{IsNull, ToSql, Type};
use postgres::{Client, NoTls, Statement};
use std::collections::HashMap;
use std::str::FromStr;

/// A URL read as the client's configuration.
pub(super) fn config(url: &str) -> std::result::Result<postgres::Config, postgres::Error> {
    postgres::Config::from_str(url)
}

/// A PostgreSQL connection and the statements it has prepared.
pub struct Pg {
    /// Always there but while it is dropped.
    client: Option<Client>,
    prepared: HashMap<String, Statement>,
    /// Where it connects, to connect again after the database restarted.
    url: String,
    /// Inside `BEGIN` ... `COMMIT`/`ROLLBACK`: a connection lost there is never
    /// replaced, so no part of a transaction runs outside it.
    in_transaction: bool,
}

/// The client closes its connection on its own runtime: a client let go on the async
/// runtime is closed on a thread of its own.
impl Drop for Pg {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            if tokio::runtime::Handle::try_current().is_ok() {
                let _ = std::thread::Builder::new()
                    .name("grognard-db-close".into())
                    .spawn(move || drop(client));
            }
        }
    }
}

/// Runs `f` on a thread of its own when this one is inside the async runtime, where
/// the client's own runtime may not block; else here.
pub fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if tokio::runtime::Handle::try_current().is_ok() {
        std::thread::scope(|s| match s.spawn(f).join() {
            Ok(t) => t,
            Err(panic) => std::panic::resume_unwind(panic),
        })
    } else {
        f()
    }
}

impl Pg {
    /// Connects to the database of `url`, with commits durable when acknowledged.
    pub(super) fn connect(url: &str) -> Result<Pg> {
        let where_ = super::redact(url);
        let config = config(url).map_err(|e| DbError::new(format!("`{where_}`: {e}")))?;
        let client = off_runtime(|| config.connect(NoTls))
            .map_err(|e| DbError::new(format!("cannot connect to `{where_}`: {e}")))?;
        let mut pg = Pg {
            client: Some(client),
            prepared: HashMap::new(),
            url: url.to_owned(),
            in_transaction: false,
        };
        off_runtime(|| pg.batch("SET synchronous_commit = on; SET client_min_messages = warning"))?;
        Ok(pg)
    }

    /// The client, for what only PostgreSQL has (notifications).
    ///
    /// # Errors
    /// None but while the connection is being dropped.
    pub fn client(&mut self) -> Result<&mut Client> {
        self.client
            .as_mut()
            .ok_or_else(|| DbError::new("the connection is closed"))
    }

    /// The client, connected again first when the database closed the connection
    /// (it restarted, or an operator ended the session) outside a transaction: the
    /// request that met the closed connection failed, the next ones go through.
    fn ready(&mut self) -> Result<&mut Client> {
        let closed = self.client.as_ref().is_some_and(Client::is_closed);
        if closed && !self.in_transaction {
            let mut fresh = Pg::connect(&self.url)?;
            let old = std::mem::replace(&mut self.client, fresh.client.take());
            self.prepared.clear();
            off_runtime(move || drop(old));
        }
        self.client()
    }

    fn statement(&mut self, sql: &str) -> Result<Statement> {
        self.ready()?;
        if let Some(s) = self.prepared.get(sql) {
            return Ok(s.clone());
        }
        let s = self.client()?.prepare(&placeholders(sql))?;
        // Statements built from a cursor's filters are few; the map stays small.
        self.prepared.insert(sql.to_owned(), s.clone());
        Ok(s)
    }

    pub(super) fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64> {
        let stmt = self.statement(sql)?;
        let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        Ok(self.client()?.execute(&stmt, &refs)?)
    }

    pub(super) fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>> {
        let stmt = self.statement(sql)?;
        let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        let rows = self.client()?.query(&stmt, &refs)?;
        rows.iter().map(row).collect()
    }

    pub(super) fn batch(&mut self, sql: &str) -> Result<()> {
        match sql {
            "BEGIN" => {
                self.ready()?.batch_execute(sql)?;
                self.in_transaction = true;
                Ok(())
            }
            "COMMIT" | "ROLLBACK" => {
                self.in_transaction = false;
                Ok(self.client()?.batch_execute(sql)?)
            }
            _ => Ok(self.ready()?.batch_execute(sql)?),
        }
    }
}

/// `?N` outside quotes becomes `$N`.
fn placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) => {
                out.push('$');
                continue;
            }
            None => {}
        }
        out.push(c);
    }
    out
}

fn row(r: &postgres::Row) -> Result<Row> {
    let mut out = Vec::with_capacity(r.len());
    for (i, col) in r.columns().iter().enumerate() {
        let t = col.type_();
        let v = if *t == Type::INT8 {
            r.try_get::<_, Option<i64>>(i)?.map(Value::Int)
        } else if *t == Type::INT4 {
            r.try_get::<_, Option<i32>>(i)?
                .map(|v| Value::Int(v.into()))
        } else if *t == Type::INT2 {
            r.try_get::<_, Option<i16>>(i)?
                .map(|v| Value::Int(v.into()))
        } else if *t == Type::BOOL {
            r.try_get::<_, Option<bool>>(i)?.map(Value::from)
        } else if *t == Type::FLOAT8 {
            r.try_get::<_, Option<f64>>(i)?.map(Value::Real)
        } else if *t == Type::FLOAT4 {
            r.try_get::<_, Option<f32>>(i)?
                .map(|v| Value::Real(v.into()))
        } else if *t == Type::BYTEA {
            r.try_get::<_, Option<Vec<u8>>>(i)?.map(Value::Blob)
        } else if [Type::TEXT, Type::VARCHAR, Type::BPCHAR, Type::NAME].contains(t) {
            r.try_get::<_, Option<String>>(i)?.map(Value::Text)
        } else {
            return Err(DbError::new(format!(
                "column `{}` is of type {t}, which this server does not read",
                col.name()
            )));
        };
        out.push(v.unwrap_or(Value::Null));
    }
    Ok(Row(out))
}

type BoxError = Box<dyn std::error::Error + Sync + Send>;

/// A value takes the type the statement gives its parameter: an integer goes to an
/// `int8`, `int4`, `int2`, `bool` or `float8` parameter, text to a text one.
impl ToSql for Value {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> std::result::Result<IsNull, BoxError> {
        let text = [
            Type::TEXT,
            Type::VARCHAR,
            Type::BPCHAR,
            Type::NAME,
            Type::UNKNOWN,
        ];
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) if *ty == Type::INT8 => i.to_sql(ty, out),
            Value::Int(i) if *ty == Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
            Value::Int(i) if *ty == Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
            Value::Int(i) if *ty == Type::BOOL => (*i != 0).to_sql(ty, out),
            #[expect(clippy::cast_precision_loss, reason = "as SQLite stores it in a REAL")]
            Value::Int(i) if *ty == Type::FLOAT8 => (*i as f64).to_sql(ty, out),
            Value::Int(i) if text.contains(ty) => i.to_string().to_sql(ty, out),
            Value::Real(f) if *ty == Type::FLOAT8 => f.to_sql(ty, out),
            #[expect(clippy::cast_possible_truncation, reason = "a REAL column's precision")]
            Value::Real(f) if *ty == Type::FLOAT4 => (*f as f32).to_sql(ty, out),
            Value::Text(s) if text.contains(ty) => s.as_str().to_sql(ty, out),
            Value::Blob(b) if *ty == Type::BYTEA => b.as_slice().to_sql(ty, out),
            v => Err(format!("{v:?} cannot be a parameter of type {ty}").into()),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

#[cfg(test)]
mod tests {
    use super::placeholders;

    #[test]
    fn placeholders_become_dollars_outside_quotes_only() {
        assert_eq!(
            placeholders("SELECT '?1', \"a?2\" FROM t WHERE a = ?1 AND b = ?12"),
            "SELECT '?1', \"a?2\" FROM t WHERE a = $1 AND b = $12"
        );
    }
}
