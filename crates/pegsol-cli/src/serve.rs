//! `pegsol serve`: the web playground. One page (SVG, no external assets) and a JSON API that
//! mirrors the CLI's `--json` answers.
//!
//! Server: axum on tokio (maintained by the tokio project, small, and its body-size limit and
//! routing are what this needs). Solver work is CPU-bound, so it runs on the blocking pool,
//! behind a fair (FIFO) semaphore with one permit per core: requests queue rather than
//! oversubscribe the cores, and each runs under a time and memory budget, so no request can
//! hold a permit for longer than its budget. A request that waits too long for a permit gets
//! 503 rather than hanging.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use pegsol::{notation, Bits, Board, Finish, Limits, Outcome, Problem};
use serde_json::{json, Value};
use tokio::sync::Semaphore;

/// The page, with its script and style inline: nothing is fetched from elsewhere.
const INDEX: &str = include_str!("../assets/index.html");

/// Largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// Memory budget of one solver run.
const MAX_MEMORY: usize = 256 << 20;
/// How long a request may wait for a free solver.
const QUEUE_WAIT: Duration = Duration::from_secs(20);

/// Server settings.
pub struct Settings {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Most seconds of solver time per request.
    pub budget: f64,
}

struct Shared {
    budget: Duration,
    permits: Semaphore,
}

/// Runs the server until the process is stopped. Prints the address it listens on (the port
/// may have been chosen by the system) on stdout first.
pub fn serve(settings: &Settings) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(settings.addr)
            .await
            .with_context(|| format!("cannot listen on {}", settings.addr))?;
        let addr = listener.local_addr()?;
        println!("pegsol playground listening on http://{addr}/");
        use std::io::Write;
        std::io::stdout().flush()?;
        let shared = Arc::new(Shared {
            budget: Duration::from_secs_f64(settings.budget),
            permits: Semaphore::new(rayon::current_num_threads().max(1)),
        });
        axum::serve(listener, router(shared))
            .await
            .context("the server stopped")
    })
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/api/boards", get(boards))
        .route("/api/board", post(|s, b| api(s, b, Kind::Board)))
        .route("/api/solve", post(|s, b| api(s, b, Kind::Solve)))
        .route("/api/ends", post(|s, b| api(s, b, Kind::Ends)))
        .route("/api/check", post(|s, b| api(s, b, Kind::Check)))
        .route("/api/hint", post(|s, b| api(s, b, Kind::Hint)))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

async fn index() -> impl IntoResponse {
    ([(header::CACHE_CONTROL, "no-cache")], Html(INDEX))
}

/// The boards offered in the page's menu: every built-in, with sample sizes for the families.
const MENU: &[&str] = &[
    "english",
    "french",
    "wiegleb",
    "diamond",
    "english-diagonal",
    "french-diagonal",
    "triangle4",
    "triangle5",
    "triangle6",
    "triangle7",
    "rect:3x5",
    "rect:4x4",
    "rect:5x5",
];

async fn boards() -> Json<Value> {
    let list: Vec<Value> = MENU
        .iter()
        .filter_map(|&n| Some((n, Board::builtin(n).ok()?)))
        .map(|(n, b)| json!({"name": n, "holes": b.hole_count(), "lattice": b.lattice().name()}))
        .collect();
    Json(json!({ "boards": list }))
}

#[derive(Clone, Copy)]
enum Kind {
    Board,
    Solve,
    Ends,
    Check,
    Hint,
}

/// A client error: 400 with a JSON message.
fn bad(message: impl std::fmt::Display) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({ "error": message.to_string() })),
    )
        .into_response()
}

/// The request, parsed: a board by name or as ASCII art, its starting pegs and the finish.
struct Request {
    board: Board,
    start: Bits,
    finish: Finish,
    timeout: Option<f64>,
}

/// Labels from a JSON list or a comma-separated string.
fn labels(v: &Value, what: &str) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Array(items) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("\"{what}\" must list hole labels as strings, got {i}"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|l| l.join(",")),
        other => Err(format!(
            "\"{what}\" must be a list of hole labels, got {other}"
        )),
    }
}

fn parse_request(body: &[u8]) -> Result<Request, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| {
        format!("the body is not JSON ({e}); send an object like {{\"board\": \"english\"}}")
    })?;
    let obj = v
        .as_object()
        .ok_or("the body must be a JSON object like {\"board\": \"english\"}")?;
    let name = obj.get("board").and_then(Value::as_str).ok_or(
        "\"board\" is missing: give a built-in name (\"english\") or the board as ASCII art",
    )?;
    // ASCII art has several lines; a name never does. Files are never read from here.
    let board = if name.contains('\n') {
        Board::parse("custom", name).map_err(|e| format!("board: {e}"))?
    } else {
        Board::builtin(name.trim()).map_err(|e| format!("board: {e}"))?
    };
    let start = match obj.get("empty") {
        None | Some(Value::Null) => board
            .start()
            .ok_or_else(|| format!("board {} has no usual start; give \"empty\"", board.name()))?,
        Some(v) => {
            let list = labels(v, "empty")?;
            let empty = if list.trim().is_empty() {
                Bits::EMPTY
            } else {
                board.hole_set(&list).map_err(|e| format!("empty: {e}"))?
            };
            board.holes().minus(empty)
        }
    };
    // The same finishes as the CLI's --finish: labels, "any" or "any:N".
    let finish = match obj.get("finish") {
        None | Some(Value::Null) => None,
        Some(v) => Some(labels(v, "finish")?),
    };
    let finish = crate::finish_of(&board, start, finish.as_deref())
        .map_err(|e| format!("finish: {}", e.root_cause()))?;
    let timeout = match obj.get("timeout") {
        None | Some(Value::Null) => None,
        Some(t) => Some(
            t.as_f64()
                .filter(|t| t.is_finite() && *t > 0.0)
                .ok_or("\"timeout\" must be a positive number of seconds")?,
        ),
    };
    Problem::new(&board, start, finish).map_err(|e| e.to_string())?;
    Ok(Request {
        board,
        start,
        finish,
        timeout,
    })
}

async fn api(
    State(shared): State<Arc<Shared>>,
    body: Result<Bytes, BytesRejection>,
    kind: Kind,
) -> Response {
    // An oversized or unreadable body is answered in JSON like every other error.
    let body = match body {
        Ok(b) => b,
        Err(e) => {
            let status = e.status();
            let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
                format!("the request body is larger than {MAX_BODY} bytes")
            } else {
                e.body_text()
            };
            return (status, Json(json!({ "error": message }))).into_response();
        }
    };
    let request = match parse_request(&body) {
        Ok(r) => r,
        Err(e) => return bad(e),
    };
    if let Kind::Board = kind {
        return Json(geometry(&request)).into_response();
    }
    let received = Instant::now();
    let Ok(permit) = tokio::time::timeout(QUEUE_WAIT, shared.permits.acquire()).await else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"error": "the server is busy; try again shortly"})),
        )
            .into_response();
    };
    let budget = request.timeout.map_or(shared.budget, |t| {
        Duration::from_secs_f64(t).min(shared.budget)
    });
    let answer = tokio::task::spawn_blocking(move || run(kind, &request, budget)).await;
    drop(permit);
    match answer {
        Ok(Ok(mut v)) => {
            v["server_millis"] = json!(received.elapsed().as_millis() as u64);
            Json(v).into_response()
        }
        Ok(Err(e)) => bad(format!("{e:#}")),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({"error": "internal error: the solver task failed"})),
        )
            .into_response(),
    }
}

/// What the page needs to draw and play a board: holes with coordinates, and every jump.
fn geometry(r: &Request) -> Value {
    let b = &r.board;
    let (rows, cols) = b.dimensions();
    json!({
        "board": b.name(),
        "lattice": b.lattice().name(),
        "rows": rows,
        "cols": cols,
        "holes": b.holes().iter().map(|h| {
            let (row, col) = b.coords(h);
            let (x, y) = crate::svg::place(b, h);
            json!({"label": b.label(h), "row": row, "col": col, "x": x, "y": y})
        }).collect::<Vec<_>>(),
        "jumps": b.jumps().iter().map(|j| json!([b.label(j.from()), b.label(j.over()), b.label(j.to())])).collect::<Vec<_>>(),
        "empty": b.labels(b.holes().minus(r.start)),
        "finish": match r.finish {
            Finish::Holes(f) => json!(b.labels(f)),
            Finish::AnyOne => json!("any"),
            Finish::Pegs(n) => json!(format!("any:{n}")),
        },
    })
}

/// One solver request, under the budget.
fn run(kind: Kind, r: &Request, budget: Duration) -> Result<Value> {
    let problem = Problem::new(&r.board, r.start, r.finish)?;
    let limits = Limits {
        max_memory: MAX_MEMORY,
        timeout: Some(budget),
        ..Limits::default()
    };
    match kind {
        Kind::Solve | Kind::Hint => {
            let report = pegsol::solve(&problem, &limits);
            let (mut v, _) = crate::solve_value(&r.board, r.start, r.finish, &report)?;
            if let (Kind::Hint, Outcome::Solved { jumps, .. }) = (kind, &report.outcome) {
                v["hint"] = jumps
                    .first()
                    .map_or(Value::Null, |&j| json!(notation::jump_text(&r.board, j)));
            }
            Ok(v)
        }
        Kind::Ends => {
            if r.start.is_empty() {
                anyhow::bail!("the start has no pegs; leave at least one hole filled");
            }
            // The budget is for the whole request; ends solves one problem per hole.
            let per_hole =
                (budget / r.board.hole_count().max(1) as u32).max(Duration::from_millis(20));
            let limits = Limits {
                timeout: Some(per_hole),
                max_memory: MAX_MEMORY / rayon::current_num_threads().max(1),
                ..limits
            };
            let result = pegsol::ends(&r.board, r.start, &limits);
            Ok(crate::ends_value(&r.board, r.start, &result)?.0)
        }
        Kind::Check => {
            let certificate = crate::certificate_of(&problem)?;
            Ok(crate::check_value(&r.board, r.start, r.finish, certificate.as_ref()).0)
        }
        Kind::Board => Ok(geometry(r)),
    }
}
