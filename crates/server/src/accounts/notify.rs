//! Notifications when it is your turn (issue 16), each opt-in per account: an email
//! through the server's SMTP relay, a webhook (a JSON POST that Discord and Slack
//! both read), a browser notification by Web Push ([`push`]). A notice is queued
//! after the action that caused it is in the file; a worker sends it, each message in
//! a task of its own with a timeout, so that a slow or dead listener never holds up an
//! action. Failures are logged, never fatal.

pub mod push;
mod send;
pub mod settings;

use super::sql;
use super::Accounts;
use crate::db::{self, params};
use crate::store;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::mpsc;

pub use send::Mailer;

/// Why a player is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    /// It is now their turn.
    Turn,
    /// Their time per move is running out.
    Reminder,
}

impl NoticeKind {
    fn name(self) -> &'static str {
        match self {
            NoticeKind::Turn => "turn",
            NoticeKind::Reminder => "reminder",
        }
    }
}

/// One notice for the player of `side` in `game`.
#[derive(Clone, Debug)]
pub struct Notice {
    /// The game's id.
    pub game: String,
    /// The side whose player is told.
    pub side: String,
    /// That side's name in the scenario, as the message says it (the id when empty).
    pub side_name: String,
    /// Why.
    pub kind: NoticeKind,
    /// When the move's time runs out (ms since 1970), if it has a limit.
    pub deadline_ms: Option<u64>,
}

/// The queue of notices; the worker takes the receiver when it starts.
pub struct Notifier {
    tx: mpsc::UnboundedSender<Notice>,
    rx: Mutex<Option<mpsc::UnboundedReceiver<Notice>>>,
}

impl Default for Notifier {
    fn default() -> Notifier {
        let (tx, rx) = mpsc::unbounded_channel();
        Notifier {
            tx,
            rx: Mutex::new(Some(rx)),
        }
    }
}

impl Notifier {
    /// Queues a notice; never waits.
    pub fn send(&self, notice: Notice) {
        let _ = self.tx.send(notice);
    }

    /// A sender into the queue.
    #[must_use]
    pub fn sender(&self) -> mpsc::UnboundedSender<Notice> {
        self.tx.clone()
    }
}

/// Who is told, where, and what about: read from the file for one notice.
struct Target {
    email: Option<String>,
    webhook: Option<String>,
    web_push: Option<String>,
    title: String,
    scenario: String,
    side_name: String,
}

fn target(conn: &mut db::Conn, n: &Notice) -> db::Result<Option<Target>> {
    let flag = match n.kind {
        NoticeKind::Turn => "on_turn",
        NoticeKind::Reminder => "on_reminder",
    };
    let row = conn.query_opt(
        &format!(
            "SELECT p.email, p.webhook, p.web_push, s.title, s.scenario_id
           FROM seat_owners o JOIN notifications p ON p.account = o.account
           JOIN summaries s ON s.game_id = o.game_id
          WHERE o.game_id = ?1 AND o.side = ?2 AND p.{flag} = 1"
        ),
        params![&n.game, &n.side],
    )?;
    row.map(|r| {
        Ok(Target {
            email: r.get(0)?,
            webhook: r.get(1)?,
            web_push: r.get(2)?,
            title: r.get(3)?,
            scenario: r.get(4)?,
            side_name: if n.side_name.is_empty() {
                n.side.clone()
            } else {
                n.side_name.clone()
            },
        })
    })
    .transpose()
}

/// Starts the worker that sends the queued notices (once; later calls do nothing).
pub fn start(accounts: &Arc<Accounts>) {
    let Some(mut rx) = accounts
        .notifier
        .rx
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    else {
        return;
    };
    let accounts = Arc::clone(accounts);
    tokio::spawn(async move {
        let mailer = match Mailer::new(&accounts.settings.by_web) {
            Ok(m) => m.map(Arc::new),
            Err(e) => {
                eprintln!("grognard: no email will be sent: {e}");
                None
            }
        };
        while let Some(notice) = rx.recv().await {
            let n = notice.clone();
            let found = accounts
                .db(move |conn| target(conn, &n).map_err(|e| sql(&e)))
                .await;
            let target = match found {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(e) => {
                    eprintln!(
                        "grognard: game {}: a notification was not sent: {e}",
                        notice.game
                    );
                    continue;
                }
            };
            let message = Message::new(&accounts.settings.by_web.public_url, &notice, &target);
            if let (Some(to), Some(mailer)) = (target.email.clone(), mailer.clone()) {
                let m = message.clone();
                tokio::spawn(async move {
                    if let Err(e) = mailer.send(&to, &m.subject, &m.text).await {
                        eprintln!("grognard: game {}: the email was not sent: {e}", m.game);
                    }
                });
            }
            if let Some(subscription) = target.web_push {
                let (m, a) = (message.clone(), Arc::clone(&accounts));
                tokio::spawn(async move {
                    let o = a.settings.by_web.clone();
                    let sent = match a.db(move |conn| push::private_pem(conn, &o)).await {
                        Ok(pem) => {
                            push::send(&a.settings.by_web, &pem, &subscription, &m.push()).await
                        }
                        Err(e) => Err(e.to_string()),
                    };
                    if let Err(e) = sent {
                        eprintln!("grognard: game {}: the push was not sent: {e}", m.game);
                    }
                });
            }
            if let Some(url) = target.webhook {
                let (m, options) = (message, accounts.settings.by_web.clone());
                tokio::spawn(async move {
                    if let Err(e) = send::webhook(&options, &url, &m.json()).await {
                        eprintln!("grognard: game {}: the webhook was not sent: {e}", m.game);
                    }
                });
            }
        }
    });
}

/// A notice in words, for every channel.
#[derive(Clone, Debug)]
struct Message {
    game: String,
    scenario: String,
    side: String,
    kind: NoticeKind,
    url: String,
    deadline: Option<String>,
    subject: String,
    text: String,
}

impl Message {
    fn new(public_url: &str, n: &Notice, t: &Target) -> Message {
        let url = format!("{}/play/{}", public_url.trim_end_matches('/'), n.game);
        let deadline = n.deadline_ms.map(store::rfc3339);
        let (subject, text) = match n.kind {
            NoticeKind::Turn => (
                format!("Your turn in {}", t.title),
                format!("It is your turn ({}) in {}: {url}", t.side_name, t.title),
            ),
            NoticeKind::Reminder => (
                format!("Your time is running out in {}", t.title),
                format!(
                    "Your time per move ({}) in {} runs out at {}: {url}",
                    t.side_name,
                    t.title,
                    deadline.as_deref().unwrap_or("the deadline")
                ),
            ),
        };
        Message {
            game: n.game.clone(),
            scenario: t.scenario.clone(),
            side: n.side.clone(),
            kind: n.kind,
            url,
            deadline,
            subject,
            text,
        }
    }

    /// A push message's payload, which `web/sw.js` shows.
    fn push(&self) -> Value {
        json!({"title": self.subject, "body": self.text, "url": self.url, "kind": self.kind.name(), "game": self.game})
    }

    /// The webhook's body: `content` for Discord, `text` for Slack, and the fields.
    fn json(&self) -> Value {
        json!({
            "content": self.text,
            "text": self.text,
            "kind": self.kind.name(),
            "game": self.game,
            "scenario": self.scenario,
            "side": self.side,
            "url": self.url,
            "deadline": self.deadline,
        })
    }
}
