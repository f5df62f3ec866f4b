//! The options of the clock and the notifications of play by web (issue 16), a group
//! of `grognard serve`'s.

use std::path::PathBuf;

/// A secret given on the command line: never written by `Debug`, so never logged.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Secret, Self::Err> {
        Ok(Secret(s.to_owned()))
    }
}

/// How the server speaks to its SMTP relay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SmtpTls {
    /// Plain SMTP (a relay on the same machine or network).
    None,
    /// STARTTLS, required: the mail is not sent if the relay does not offer it.
    Starttls,
}

/// The clock and the notifications of play by web.
#[derive(Clone, Debug, clap::Args)]
pub struct ByWeb {
    /// How often the server looks for games whose player to act ran out of time or
    /// is due a reminder, in seconds (fractions accepted).
    #[arg(long, value_name = "SECS", default_value_t = 30.0, value_parser = positive)]
    pub clock_sweep_secs: f64,
    /// The player to act is reminded once a move when this share of the time per move
    /// is left (0.25: a quarter); 0 sends no reminder.
    #[arg(long, value_name = "SHARE", default_value_t = 0.25, value_parser = share)]
    pub remind_at: f64,
    /// The address the server is reached at, for the links of notifications.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080")]
    pub public_url: String,
    /// The SMTP relay that sends the notifications by email; without it no email is
    /// sent.
    #[arg(long, value_name = "HOST")]
    pub smtp_host: Option<String>,
    /// The relay's port.
    #[arg(long, value_name = "PORT", default_value_t = 587)]
    pub smtp_port: u16,
    /// The sender of the notifications (`grognard <games@example.org>`).
    #[arg(
        long,
        value_name = "ADDRESS",
        default_value = "grognard <grognard@localhost>"
    )]
    pub smtp_from: String,
    /// The account on the relay, if it asks for one.
    #[arg(long, value_name = "NAME")]
    pub smtp_user: Option<String>,
    /// The account's password (shown in the list of processes: prefer
    /// `--smtp-password-file`).
    #[arg(long, value_name = "PASSWORD")]
    pub smtp_password: Option<Secret>,
    /// A file whose first line is the account's password.
    #[arg(long, value_name = "FILE")]
    pub smtp_password_file: Option<PathBuf>,
    /// Plain SMTP or STARTTLS.
    #[arg(long, value_name = "TLS", value_enum, default_value_t = SmtpTls::Starttls)]
    pub smtp_tls: SmtpTls,
    /// How long one email or webhook may take, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub notify_timeout_secs: u64,
    /// The server's VAPID private key for Web Push (a P-256 key, PEM); without it one is
    /// made once and kept in the database.
    #[arg(long, value_name = "FILE")]
    pub vapid_private_key: Option<PathBuf>,
    /// Let webhooks reach loopback and private addresses (127.0.0.1, 10.0.0.0/8, ...):
    /// for a server whose players' listeners are on its own network. Without it such a
    /// target is refused, so that a webhook cannot probe the server's network.
    #[arg(long)]
    pub webhook_private_targets: bool,
}

fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err("a number of seconds over 0 and at most 86400".into()),
    }
}

fn share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..1.0).contains(&v) => Ok(v),
        _ => Err("a share of the time per move, from 0 up to (not including) 1".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_never_written_by_debug() {
        let o = ByWeb {
            smtp_password: Some(Secret("hunter2-very-secret".into())),
            ..crate::Options::default().by_web
        };
        assert!(!format!("{o:?}").contains("hunter2"));
    }
}
