//! Times as the file keeps them (milliseconds since 1970, UTC) and as the API writes
//! them (RFC 3339 with milliseconds).

/// Now, in milliseconds since 1970 (UTC).
#[must_use]
pub fn now_ms() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(now.as_millis()).unwrap_or(u64::MAX)
}

/// A time in milliseconds since 1970 as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, RFC 3339;
/// sorts as text).
#[must_use]
pub fn rfc3339(ms: u64) -> String {
    let (secs, millis) = (ms / 1000, ms % 1000);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Days to civil date (Howard Hinnant's algorithm), for days since 1970-01-01.
    let z = i64::try_from(days).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Reads back what [`rfc3339`] writes, `YYYY-MM-DDTHH:MM:SS.mmmZ`, as milliseconds
/// since 1970 (UTC); `None` for any other text or a time before 1970.
#[must_use]
pub fn parse_rfc3339(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    if b.len() != 24 || [b[4], b[7], b[10], b[13], b[16], b[19], b[23]] != *b"--T::.Z" {
        return None;
    }
    let num = |from: usize, to: usize| -> Option<i64> {
        let part = text.get(from..to)?;
        if part.bytes().all(|c| c.is_ascii_digit()) {
            part.parse().ok()
        } else {
            None
        }
    };
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hour, minute, second, millis) = (num(11, 13)?, num(14, 16)?, num(17, 19)?, num(20, 23)?);
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    // Civil date to days since 1970-01-01 (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let ms = ((days * 86_400 + hour * 3600 + minute * 60 + second) * 1000) + millis;
    let ms = u64::try_from(ms).ok()?;
    // A day past the month's end (`02-30`) would read as another date: refused.
    (rfc3339(ms) == text).then_some(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_look_like_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
        let t = rfc3339(now_ms());
        assert_eq!(t.len(), 24, "{t}");
        assert!(t.starts_with("20") && t.ends_with('Z'), "{t}");
    }

    #[test]
    fn a_timestamp_reads_back_as_its_milliseconds_and_junk_does_not() {
        for ms in [
            0,
            1,
            999,
            86_399_999,
            951_782_400_000,
            1_700_000_000_123,
            now_ms(),
        ] {
            assert_eq!(parse_rfc3339(&rfc3339(ms)), Some(ms), "{ms}");
        }
        for junk in [
            "",
            "2023-11-14T22:13:20Z",
            "2023-11-14 22:13:20.123Z",
            "2023-02-30T00:00:00.000Z",
            "2023-13-01T00:00:00.000Z",
            "+023-11-14T22:13:20.123Z",
            "2023-11-14T22:13:20.12aZ",
        ] {
            assert_eq!(parse_rfc3339(junk), None, "{junk}");
        }
    }
}
