//! `pegsol serve`: the web playground. One page (SVG, no external assets) and a JSON API that
//! mirrors the CLI's `--json` answers.
//!
//! Server: axum's router on hyper, with our own accept loop so that the connection settings
//! are ours (axum, hyper and tower-http are maintained by the tokio project; `serve` in axum
//! has no read timeouts). What keeps it fair and bounded:
//! - **Least work first.** Every solver request first runs in the *fast lane* for a short
//!   slice ([`FAST_SLICES`]); a cheap request (most of them) is answered there. One that is
//!   not decided runs again with a longer slice, and a request waiting for its first slice
//!   goes ahead of one waiting for its second. What is still undecided after that queues for
//!   the *slow lane* with the rest of its budget. Each lane is its own thread pool with one
//!   permit per core, and the slow lane's threads run at a lower OS priority, so long
//!   requests neither queue ahead of short ones nor take the cores from them. (A run that is
//!   not decided starts again from scratch in the next slice: the solver keeps no state
//!   between runs, and the slices before the slow lane are a small share of a budget.)
//! - **Budgets.** Each run is under a time budget and a memory budget; a request that waits
//!   [`QUEUE_WAIT`] for a permit gets 503. A request whose client goes away is cancelled.
//! - **Connections.** Headers must arrive within [`HEADER_WAIT`] (this also closes idle
//!   keep-alive connections) and the body within [`BODY_WAIT`]; at most [`MAX_CONNECTIONS`]
//!   are open at once.
//! - **Errors.** Every error status has a JSON body `{"error": "..."}`, a panic in a handler
//!   is answered 500 and logged in one line, and unknown fields in a request are rejected
//!   by name.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use pegsol::Limits;
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use crate::serve::answers::{answer, forced_limits, geometry, winning_set_of, Answer, MAX_MEMORY};
use crate::serve::lanes::Lane;
use crate::serve::request::{parse_request, Kind, Parsed};

mod answers;
mod lanes;
mod request;
mod views;

/// The page, with its script and style inline: nothing is fetched from elsewhere.
const INDEX: &str = include_str!("../../assets/index.html");

/// Largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// Largest request head (request line and headers) answered in JSON; hyper refuses heads
/// past its buffer (32 KiB) itself, with an empty 431.
const MAX_HEAD: usize = 16 * 1024;
/// How long a request may wait for a free solver in either lane.
const QUEUE_WAIT: Duration = Duration::from_secs(20);
/// The time slices a request gets in the fast lane, in order, before the slow lane.
pub const FAST_SLICES: [Duration; 2] = [Duration::from_millis(40), Duration::from_millis(120)];
/// How long a client may take to send a request head, or sit idle between requests.
const HEADER_WAIT: Duration = Duration::from_secs(10);
/// How long a client may take to send a request body.
const BODY_WAIT: Duration = Duration::from_secs(10);
/// Most connections open at once; more wait to be accepted.
const MAX_CONNECTIONS: usize = 1024;

/// Server settings.
pub struct Settings {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Most seconds of solver time per request.
    pub budget: f64,
    /// Whether to prepare the menu at start: the winning sets of its smaller games, and the
    /// analysis of every game's opening.
    pub winning_sets: bool,
}

struct Shared {
    budget: Duration,
    fast: Lane,
    slow: Lane,
    /// Winning sets of the menu's smaller games, filled in the background after start: live
    /// analysis of a game played from one of these starts is one lookup per jump.
    winning: std::sync::RwLock<Vec<Arc<pegsol::fewest::WinningSet>>>,
    /// The fates of positions' jumps decided so far (the menu's openings analysed at start).
    fates: crate::analyse::FateMemo,
}

/// Games whose winning set is built at start: boards of at most this many holes.
const EXACT_HOLES: usize = 33;

/// Seconds each menu opening's analysis may take at start (shared by its jumps).
const OPENING_SECS: u64 = 10;

/// Prepares the menu's games in the background, one after another at low priority: builds
/// the winning sets of those that fit, then analyses every game's opening position into the
/// fate memo, so that a menu board opens decided at once.
fn prepare(shared: &Arc<Shared>) {
    let shared = shared.clone();
    let spawned = std::thread::Builder::new()
        .name("pegsol-prepare".into())
        .spawn(move || {
            // A set that takes longer is left to the solver (the 28-hole triangle's, say).
            let limits = Limits {
                max_memory: 1 << 30,
                timeout: Some(Duration::from_secs(20)),
                cancel: None,
            };
            for game in pegsol::menu::GAMES {
                let Ok(problem) = game.problem() else {
                    continue;
                };
                let board = problem.board();
                if board.hole_count() > EXACT_HOLES || board.lattice() == pegsol::Lattice::Diagonal
                {
                    continue;
                }
                // On the slow lane's pool, whose threads run at low priority: the counter's
                // parallel passes must not take cores from requests.
                let built = shared
                    .slow
                    .pool
                    .install(|| pegsol::fewest::WinningSet::of(&problem, &limits));
                if let Ok(Some(set)) = built {
                    if let Ok(mut sets) = shared.winning.write() {
                        sets.push(Arc::new(set));
                    }
                }
            }
            // Every game's opening: from its winning set where it has one (which also builds
            // the set's random-play table, and looks for the forced positions as a request
            // would), else solved jump by jump into the fate memo.
            let sets = shared.winning.read().map(|v| v.clone()).unwrap_or_default();
            let mut open = 0;
            for game in pegsol::menu::GAMES {
                let Ok(problem) = game.problem() else {
                    continue;
                };
                let set = winning_set_of(&sets, &problem, problem.start());
                let budget = Duration::from_secs(OPENING_SECS);
                let limits = Limits {
                    max_memory: MAX_MEMORY,
                    timeout: Some(budget),
                    cancel: None,
                };
                let analysed = shared.slow.pool.install(|| {
                    crate::analyse::AnalyseAnswer::of(
                        &problem,
                        set,
                        Some(&shared.fates),
                        &limits,
                        budget,
                    )
                    .map(|(a, ran_out)| {
                        let a = a.with_odds(&problem, set).with_forced(
                            &problem,
                            set,
                            Some(&shared.fates),
                            &forced_limits(budget),
                        );
                        (a, ran_out)
                    })
                });
                open += analysed.map_or(1, |(a, _)| usize::from(a.moves.iter().any(|m| m.fate == "unknown")));
                pegsol::memory::give_back_free_memory();
            }
            eprintln!(
                "pegsol serve: menu prepared ({} winning sets; {} fates known; {open} opening(s) with a jump not decided in {OPENING_SECS} s)",
                sets.len(),
                shared.fates.len()
            );
        });
    if let Err(e) = spawned {
        eprintln!(
            "pegsol serve: the menu is not prepared (cannot start a thread: {e}); analysis uses the solver"
        );
    }
}

/// `pegsol serve`: checks the settings and serves until the process is stopped.
pub(crate) fn run(addr: SocketAddr, budget: f64, winning_sets: bool) -> Result<u8> {
    if !(budget.is_finite() && budget > 0.0 && budget <= 3600.0) {
        anyhow::bail!("--budget must be between 0 and 3600 seconds, got {budget}");
    }
    serve(&Settings {
        addr,
        budget,
        winning_sets,
    })?;
    Ok(0)
}

/// Runs the server until the process is stopped. Prints the address it listens on (the port
/// may have been chosen by the system) on stdout first.
pub fn serve(settings: &Settings) -> Result<()> {
    let cores = rayon::current_num_threads().max(1);
    let shared = Arc::new(Shared {
        budget: Duration::from_secs_f64(settings.budget),
        fast: Lane::new("fast", cores, false)?,
        slow: Lane::new("slow", cores, true)?,
        winning: std::sync::RwLock::new(Vec::new()),
        fates: crate::analyse::FateMemo::new(),
    });
    if settings.winning_sets {
        prepare(&shared);
    }
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
        accept_loop(listener, router(shared)).await
    })
}

/// Accepts connections and serves each on its own task with the read timeouts set.
async fn accept_loop(listener: tokio::net::TcpListener, app: Router) -> Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let permit = open.clone().acquire_owned().await?;
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, say: wait a little rather than spin.
                eprintln!("pegsol serve: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _open = permit;
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_WAIT)
                .max_buf_size(2 * MAX_HEAD)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/api/boards", get(boards))
        .route("/api/board", post(|s, r| api(s, r, Kind::Board)))
        .route("/api/solve", post(|s, r| api(s, r, Kind::Solve)))
        .route("/api/ends", post(|s, r| api(s, r, Kind::Ends)))
        .route("/api/check", post(|s, r| api(s, r, Kind::Check)))
        .route("/api/hint", post(|s, r| api(s, r, Kind::Hint)))
        .route("/api/analyse", post(|s, r| api(s, r, Kind::Analyse)))
        .fallback(|| async {
            error(
                StatusCode::NOT_FOUND,
                "no such page; the API is POST /api/solve, /api/hint, /api/analyse, /api/ends, /api/check, /api/board and GET /api/boards",
            )
        })
        .method_not_allowed_fallback(|| async {
            error(
                StatusCode::METHOD_NOT_ALLOWED,
                "wrong method: the API endpoints take POST with a JSON body, and / and /api/boards take GET",
            )
        })
        .layer(middleware::from_fn(limit_head))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panicked))
        .with_state(shared)
}

/// An error status with its JSON body.
fn error(status: StatusCode, message: impl std::fmt::Display) -> Response {
    (status, Json(json!({ "error": message.to_string() }))).into_response()
}

/// A client error: 400 with a JSON message.
fn bad(message: impl std::fmt::Display) -> Response {
    error(StatusCode::BAD_REQUEST, message)
}

/// A panic anywhere in a handler: logged in one line, answered 500.
fn panicked(payload: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("no message");
    internal(message)
}

fn internal(message: &str) -> Response {
    eprintln!("pegsol serve: internal error: {message}");
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal error: the server hit a bug and logged it; please report it",
    )
}

/// Refuses request heads past [`MAX_HEAD`] with a JSON 431.
async fn limit_head(request: Request, next: Next) -> Response {
    let size = request.uri().to_string().len()
        + request
            .headers()
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len() + 4)
            .sum::<usize>();
    if size > MAX_HEAD {
        return error(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("the request head is {size} bytes; at most {MAX_HEAD} are accepted"),
        );
    }
    next.run(request).await
}

async fn index() -> impl IntoResponse {
    ([(header::CACHE_CONTROL, "no-cache")], Html(INDEX))
}

/// The menu: the library's list of games, each a problem that can be won, with the classic
/// game where that one cannot be (the page says why).
async fn boards() -> Json<Value> {
    let list: Vec<Value> = pegsol::menu::GAMES
        .iter()
        .filter_map(|g| Some((g, pegsol::Shape::builtin(g.board).ok()?)))
        .map(|(g, b)| {
            json!({
                "name": g.board,
                "holes": b.cells().len(),
                "lattice": b.lattice().name(),
                "empty": split(g.empty),
                "finish": finish_json(g.finish),
                "classic": g.classic.map(|(e, f)| json!({"empty": split(e), "finish": finish_json(f)})),
            })
        })
        .collect();
    Json(json!({ "boards": list }))
}

/// Labels written with commas or spaces, as a list.
fn split(text: &str) -> Vec<&str> {
    text.split([',', ' ']).filter(|s| !s.is_empty()).collect()
}

/// A finish as the API writes it: a list of labels, or `"any"` / `"any:N"`.
fn finish_json(text: &str) -> Value {
    if text.starts_with("any") {
        json!(text)
    } else {
        json!(split(text))
    }
}

/// Reads a body within [`BODY_WAIT`] and [`MAX_BODY`].
async fn read_body(body: Body) -> Result<axum::body::Bytes, Response> {
    match tokio::time::timeout(BODY_WAIT, axum::body::to_bytes(body, MAX_BODY)).await {
        Err(_) => Err(error(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s",
                BODY_WAIT.as_secs()
            ),
        )),
        Ok(Err(e)) if is_too_large(&e) => Err(error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {MAX_BODY} bytes"),
        )),
        Ok(Err(e)) => Err(bad(format!("cannot read the request body: {e}"))),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

fn is_too_large(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if s.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = s.source();
    }
    false
}

/// Sets its flag when dropped: the handler's future is dropped when the client goes away,
/// and the solver, which checks the flag, stops.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

async fn api(State(shared): State<Arc<Shared>>, request: Request, kind: Kind) -> Response {
    let body = match read_body(request.into_body()).await {
        Ok(b) => b,
        Err(response) => return response,
    };
    let parsed = match parse_request(&body) {
        Ok(r) => r,
        Err(e) => return bad(e),
    };
    if kind == Kind::Board {
        return Json(geometry(&parsed.problem)).into_response();
    }
    let received = Instant::now();
    let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
    // Larger timeouts than the server's budget are cut to it.
    let budget = parsed.timeout.map_or(shared.budget, |t| {
        shared
            .budget
            .min(Duration::from_secs_f64(t.min(shared.budget.as_secs_f64())))
    });
    let parsed = Arc::new(parsed);
    // The fast lane's slices, while the request is undecided and has budget left; then the
    // rest of the budget in the slow lane.
    let mut spent = Duration::ZERO;
    let mut answer = Ok((Value::Null, true));
    for (rank, slice) in FAST_SLICES.iter().enumerate() {
        let slice = (*slice).min(budget - spent);
        answer = lane_run(&shared, Some(rank as u32), kind, &parsed, slice, &cancel.0).await;
        spent += slice;
        if !matches!(answer, Ok((_, true))) || spent >= budget {
            break;
        }
    }
    if matches!(answer, Ok((_, true))) && budget > spent {
        answer = lane_run(&shared, None, kind, &parsed, budget - spent, &cancel.0).await;
    }
    match answer {
        Ok((mut v, _)) => {
            v["server_millis"] = json!(received.elapsed().as_millis() as u64);
            Json(v).into_response()
        }
        Err(response) => response,
    }
}

/// Runs one solver request in the fast lane's slice of rank `rank` (or, for `None`, in the
/// slow lane), waiting for a permit first.
async fn lane_run(
    shared: &Arc<Shared>,
    rank: Option<u32>,
    kind: Kind,
    parsed: &Arc<Parsed>,
    budget: Duration,
    cancel: &Arc<AtomicBool>,
) -> Result<Answer, Response> {
    let slow = rank.is_none();
    let lane = if slow { &shared.slow } else { &shared.fast };
    let Some(permit) = lane.gate.acquire(rank.unwrap_or(0), QUEUE_WAIT).await else {
        return Err(error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server is busy (its {} lane had no free solver for {} s); try again shortly",
                lane.name,
                QUEUE_WAIT.as_secs()
            ),
        ));
    };
    let (shared, parsed, cancel) = (shared.clone(), parsed.clone(), cancel.clone());
    let answer = tokio::task::spawn_blocking(move || {
        let lane = if slow { &shared.slow } else { &shared.fast };
        let sets = shared.winning.read().map(|v| v.clone()).unwrap_or_default();
        let answer = lane
            .pool
            .install(|| answer(kind, &parsed, budget, cancel, &sets, &shared.fates));
        if slow {
            // A slow-lane run may have held hundreds of megabytes: give the free part back.
            pegsol::memory::give_back_free_memory();
        }
        answer
    })
    .await;
    drop(permit);
    match answer {
        Ok(Ok(answer)) => Ok(answer),
        // A failed self-check is the server's fault, not the request's.
        Ok(Err(e)) if matches!(e.downcast_ref(), Some(pegsol::Error::Internal(_))) => {
            Err(internal(&format!("{e:#}")))
        }
        Ok(Err(e)) => Err(bad(format!("{e:#}"))),
        Err(e) if e.is_panic() => {
            let payload = e.into_panic();
            Err(panicked(payload))
        }
        Err(e) => Err(internal(&format!("the solver task failed: {e}"))),
    }
}
