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
use pegsol::{notation, Bits, Board, Budget, Limits, Outcome, Problem};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use crate::answer::FinishView;

/// The page, with its script and style inline: nothing is fetched from elsewhere.
const INDEX: &str = include_str!("../assets/index.html");

/// Largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// Largest request head (request line and headers) answered in JSON; hyper refuses heads
/// past its buffer (32 KiB) itself, with an empty 431.
const MAX_HEAD: usize = 16 * 1024;
/// Memory budget of one solver run.
const MAX_MEMORY: usize = 256 << 20;
/// How long a request may wait for a free solver in either lane.
const QUEUE_WAIT: Duration = Duration::from_secs(20);
/// The time slices a request gets in the fast lane, in order, before the slow lane.
pub const FAST_SLICES: [Duration; 2] = [Duration::from_millis(40), Duration::from_millis(120)];
/// The slow lane's threads' nice value (0 is the default, 19 the lowest priority).
const SLOW_NICE: i32 = 15;
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
    /// Whether to build the winning sets of the menu's smaller games at start.
    pub winning_sets: bool,
}

/// A pool of solver threads and the permits to use it.
struct Lane {
    name: &'static str,
    gate: Gate,
    pool: rayon::ThreadPool,
}

/// A semaphore whose waiters are served by rank (lower first), then in arrival order.
struct Gate {
    state: std::sync::Mutex<GateState>,
}

struct GateState {
    free: usize,
    waiting: std::collections::BinaryHeap<Waiter>,
    arrivals: u64,
}

/// A waiter, ordered so that the heap's top is the lowest rank, then the earliest arrival.
struct Waiter {
    rank: u32,
    arrival: u64,
    wake: tokio::sync::oneshot::Sender<()>,
}

impl PartialEq for Waiter {
    fn eq(&self, other: &Waiter) -> bool {
        (self.rank, self.arrival) == (other.rank, other.arrival)
    }
}

impl Eq for Waiter {}

impl PartialOrd for Waiter {
    fn partial_cmp(&self, other: &Waiter) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Waiter {
    fn cmp(&self, other: &Waiter) -> std::cmp::Ordering {
        (other.rank, other.arrival).cmp(&(self.rank, self.arrival))
    }
}

/// A permit of a [`Gate`], handed to the next waiter (or returned) when dropped.
struct Permit<'g>(&'g Gate);

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// A permit sent to a waiter that stopped waiting (timed out, or its client left) must not
/// be lost: whoever drops the receiver passes a delivered permit on.
struct Delivery<'g> {
    gate: &'g Gate,
    wake: Option<tokio::sync::oneshot::Receiver<()>>,
}

impl Drop for Delivery<'_> {
    fn drop(&mut self) {
        if let Some(mut wake) = self.wake.take() {
            wake.close();
            if wake.try_recv().is_ok() {
                self.gate.release();
            }
        }
    }
}

impl Gate {
    fn new(permits: usize) -> Gate {
        Gate {
            state: std::sync::Mutex::new(GateState {
                free: permits,
                waiting: std::collections::BinaryHeap::new(),
                arrivals: 0,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, GateState> {
        // A panic while holding this lock leaves the counts as they were: carry on.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A permit, waiting at most `wait` behind the waiters of lower rank or earlier arrival.
    async fn acquire(&self, rank: u32, wait: Duration) -> Option<Permit<'_>> {
        let wake = {
            let mut state = self.lock();
            if state.free > 0 && state.waiting.is_empty() {
                state.free -= 1;
                return Some(Permit(self));
            }
            let (tx, rx) = tokio::sync::oneshot::channel();
            state.arrivals += 1;
            let arrival = state.arrivals;
            state.waiting.push(Waiter {
                rank,
                arrival,
                wake: tx,
            });
            rx
        };
        let mut delivery = Delivery {
            gate: self,
            wake: Some(wake),
        };
        let woken = match delivery.wake.as_mut() {
            Some(rx) => tokio::time::timeout(wait, rx).await,
            None => return None,
        };
        match woken {
            Ok(Ok(())) => {
                delivery.wake = None;
                Some(Permit(self))
            }
            // Timed out: dropping `delivery` passes on a permit that arrived meanwhile.
            _ => None,
        }
    }

    fn release(&self) {
        let mut state = self.lock();
        while let Some(w) = state.waiting.pop() {
            if w.wake.send(()).is_ok() {
                return;
            }
        }
        state.free += 1;
    }
}

struct Shared {
    budget: Duration,
    fast: Lane,
    slow: Lane,
    /// Winning sets of the menu's smaller games, filled in the background after start: live
    /// analysis of a game played from one of these starts is one lookup per jump.
    winning: std::sync::RwLock<Vec<Arc<pegsol::fewest::WinningSet>>>,
}

/// Games whose winning set is built at start: boards of at most this many holes.
const EXACT_HOLES: usize = 33;

/// Builds the winning sets of the menu's games that fit, one after another at low priority.
fn build_winning_sets(shared: &Arc<Shared>) {
    let shared = shared.clone();
    let spawned = std::thread::Builder::new()
        .name("pegsol-winning-sets".into())
        .spawn(move || {
            let limits = Limits {
                max_memory: 1 << 30,
                timeout: Some(Duration::from_secs(60)),
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
        });
    if let Err(e) = spawned {
        eprintln!(
            "pegsol serve: no winning sets (cannot start a thread: {e}); analysis uses the solver"
        );
    }
}

impl Lane {
    fn new(name: &'static str, threads: usize, background: bool) -> Result<Lane> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |i| format!("pegsol-{name}-{i}"))
            .start_handler(move |_| {
                if background {
                    lower_priority();
                }
            })
            .build()
            .context("cannot start the solver threads")?;
        Ok(Lane {
            name,
            gate: Gate::new(threads),
            pool,
        })
    }
}

/// Lowers the calling thread's scheduling priority (Linux: per thread), so that the slow
/// lane yields the cores to the fast one.
fn lower_priority() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: setpriority with PRIO_PROCESS and a thread id only changes that thread's nice
    // value; it takes no pointers.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, SLOW_NICE);
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
    });
    if settings.winning_sets {
        build_winning_sets(&shared);
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
        .filter_map(|g| Some((g, Board::builtin(g.board).ok()?)))
        .map(|(g, b)| {
            json!({
                "name": g.board,
                "holes": b.hole_count(),
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Analyse,
    Board,
    Solve,
    Ends,
    Check,
    Hint,
}

/// The request, parsed: a board by name or as ASCII art, its starting pegs and the finish.
struct Parsed {
    problem: Problem,
    timeout: Option<f64>,
    /// The start the game was played from, when the position is given as a start and the
    /// jumps played from it (`"jumps"`); the position itself otherwise.
    origin: Bits,
}

/// A request body as sent. Unknown fields are refused, by name: a misspelt `"emtpy"` must
/// not be ignored silently.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RequestBody {
    board: String,
    #[serde(default)]
    empty: Option<Value>,
    #[serde(default)]
    finish: Option<Value>,
    #[serde(default)]
    timeout: Option<f64>,
    #[serde(default)]
    jumps: Option<Value>,
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

/// Reads and checks a request body. Never panics, whatever the bytes (a fuzz test says so).
fn parse_request(body: &[u8]) -> Result<Parsed, String> {
    const EXAMPLE: &str = r#"{"board": "english", "empty": ["d4"], "finish": "d4"}"#;
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| format!("the body is not JSON ({e}); send an object like {EXAMPLE}"))?;
    let Some(object) = value.as_object() else {
        return Err(format!("the body must be a JSON object like {EXAMPLE}"));
    };
    let missing_board = !object.contains_key("board");
    let body = RequestBody::deserialize(value).map_err(|e| {
        if missing_board && e.to_string().starts_with("missing field") {
            "\"board\" is missing: give a built-in name (\"english\") or the board as ASCII art"
                .to_string()
        } else {
            format!("{e}; send an object like {EXAMPLE}")
        }
    })?;
    let name = body.board.as_str();
    // ASCII art has several lines; a name never does. Files are never read from here.
    let board = if name.contains('\n') {
        Board::parse("custom", name).map_err(|e| format!("board: {e}"))?
    } else {
        Board::builtin(name.trim()).map_err(|e| format!("board: {e}"))?
    };
    let start = match &body.empty {
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
    let finish = match &body.finish {
        None | Some(Value::Null) => None,
        Some(v) => Some(labels(v, "finish")?),
    };
    let finish = crate::common::finish_of(&board, start, finish.as_deref())
        .map_err(|e| format!("finish: {}", e.root_cause()))?;
    if let Some(t) = body.timeout {
        if !(t.is_finite() && t > 0.0) {
            return Err(format!(
                "\"timeout\" must be a positive number of seconds, got {t}"
            ));
        }
    }
    // Jumps played from the start, each checked by the independent replay.
    let origin = start;
    let start = match &body.jumps {
        None | Some(Value::Null) => start,
        Some(v) => {
            let text = labels(v, "jumps")?.replace(',', " ");
            let jumps = notation::parse_jumps(&board, &text).map_err(|e| format!("jumps: {e}"))?;
            pegsol::replay(&board, start, &jumps).map_err(|e| format!("jumps: {e}"))?
        }
    };
    let problem = Problem::new(board, start, finish).map_err(|e| e.to_string())?;
    Ok(Parsed {
        problem,
        timeout: body.timeout,
        origin,
    })
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

/// A solver answer, and whether its time ran out (so that more time may decide it).
type Answer = (Value, bool);

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
        lane.pool
            .install(|| answer(kind, &parsed, budget, cancel, &sets))
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

/// A hole, as the page draws it.
#[derive(Serialize)]
struct HoleView {
    label: String,
    row: usize,
    col: usize,
    x: f64,
    y: f64,
}

/// What the page needs to draw and play a board: holes with coordinates, and every jump.
#[derive(Serialize)]
struct BoardAnswer {
    board: String,
    lattice: &'static str,
    rows: usize,
    cols: usize,
    holes: Vec<HoleView>,
    /// Each jump as the labels of its three holes: from, over, to.
    jumps: Vec<[String; 3]>,
    empty: Vec<String>,
    finish: FinishView,
}

fn geometry(p: &Problem) -> BoardAnswer {
    let b = p.board();
    let (rows, cols) = b.dimensions();
    BoardAnswer {
        board: b.name().to_string(),
        lattice: b.lattice().name(),
        rows,
        cols,
        holes: b
            .holes()
            .iter()
            .map(|h| {
                let (row, col) = b.coords(h);
                let (x, y) = crate::svg::place(b, h);
                HoleView {
                    label: b.label(h),
                    row,
                    col,
                    x,
                    y,
                }
            })
            .collect(),
        jumps: b
            .jumps()
            .iter()
            .map(|j| [b.label(j.from()), b.label(j.over()), b.label(j.to())])
            .collect(),
        empty: b.labels(b.holes().minus(p.start())),
        finish: FinishView::of(b, p.finish()),
    }
}

/// An answer as JSON for the response.
fn to_value(answer: &impl Serialize) -> Result<Value> {
    Ok(serde_json::to_value(answer)?)
}

/// One solver request, under the budget; the answer, and whether its time ran out. The
/// answers are the CLI's own types, so an endpoint's JSON is its command's.
fn answer(
    kind: Kind,
    r: &Parsed,
    budget: Duration,
    cancel: Arc<AtomicBool>,
    sets: &[Arc<pegsol::fewest::WinningSet>],
) -> Result<Answer> {
    let problem = &r.problem;
    let limits = Limits {
        max_memory: MAX_MEMORY,
        timeout: Some(budget),
        cancel: Some(cancel),
    };
    match kind {
        Kind::Solve | Kind::Hint => {
            let report = pegsol::solve(problem, &limits)?;
            let (mut a, _) = crate::solve::SolveAnswer::of(problem, &report)?;
            if kind == Kind::Hint {
                a.hint = a.line.jumps.first().cloned();
            }
            Ok((
                to_value(&a)?,
                report.outcome == Outcome::Undecided(Budget::Time),
            ))
        }
        Kind::Ends => {
            if problem.start().is_empty() {
                anyhow::bail!("the start has no pegs; leave at least one hole filled");
            }
            // The budget is for the whole request; ends solves one problem per hole.
            let holes = problem.board().hole_count().max(1) as u32;
            let limits = Limits {
                timeout: Some((budget / holes).max(Duration::from_millis(5))),
                max_memory: MAX_MEMORY / rayon::current_num_threads().max(1),
                ..limits
            };
            let result = pegsol::ends(problem, &limits)?;
            let ran_out = result
                .holes
                .iter()
                .any(|e| e.outcome == Outcome::Undecided(Budget::Time));
            Ok((
                to_value(&crate::ends::EndsAnswer::of(problem, &result)?.0)?,
                ran_out,
            ))
        }
        Kind::Check => {
            let proof = crate::check::proof_of(problem, &limits)?;
            let ran_out = proof == Err(pegsol::check::Unproved::Budget(Budget::Time));
            Ok((
                to_value(&crate::check::CheckAnswer::of(problem, &proof, None).0)?,
                ran_out,
            ))
        }
        Kind::Analyse => {
            let exact = sets.iter().find(|set| {
                let game = set.problem();
                game.board().name() == problem.board().name()
                    && game.board().holes() == problem.board().holes()
                    && game.start() == r.origin
                    && game.finish() == problem.finish()
            });
            let (a, ran_out) =
                crate::analyse::AnalyseAnswer::of(problem, exact.map(|s| &**s), &limits, budget)?;
            Ok((to_value(&a)?, ran_out))
        }
        Kind::Board => Ok((to_value(&geometry(problem))?, false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_errors_name_what_is_wrong() {
        let err = |body: &str| parse_request(body.as_bytes()).err().unwrap_or_default();
        assert!(err(r#"{"board":"english","emtpy":["d4"]}"#).contains("unknown field `emtpy`"));
        assert!(err(r#"{"emtpy":1}"#).contains("emtpy"));
        assert!(err(r#"{"empty":[]}"#).contains("\"board\" is missing"));
        assert!(err("[1, 2]").contains("JSON object"));
        assert!(err(r#"{"board":"english","timeout":-1}"#).contains("positive"));
        assert!(err(r#"{"board":"english","timeout":"x"}"#).contains("invalid type"));
        assert!(err("not json").contains("not JSON"));
        assert!(err(r#"{"board":"english","empty":"d4,d4"}"#).contains("named twice"));
        let big = parse_request(br#"{"board":"english","timeout":1e300}"#).unwrap();
        assert_eq!(big.timeout, Some(1e300));
    }

    /// Mutation fuzzing of the request parser for a fixed time (`PEGSOL_FUZZ_SECONDS`,
    /// default 5): valid bodies mutated byte by byte and field by field, and random bytes.
    /// Every body gets a request or a message, never a panic, and every request it accepts
    /// is a problem the library accepts.
    #[test]
    fn request_parser_for_a_fixed_time() {
        let seconds = std::env::var("PEGSOL_FUZZ_SECONDS")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .unwrap_or(5.0);
        let seeds = [
            r#"{"board": "english"}"#,
            r#"{"board": "english", "empty": ["d2", "d3"], "finish": ["d4"], "timeout": 2}"#,
            r#"{"board": "french", "empty": "d4", "finish": "any"}"#,
            r#"{"board": "triangle5", "finish": "any:2", "timeout": 0.5}"#,
            r#"{"board": "ooo.\no o\n", "finish": null, "empty": null}"#,
            r#"{"board": "lattice: triangular\no\noo\n.oo\n", "empty": []}"#,
            r#"{"board": "rect:3x3", "empty": ["a1"], "finish": ["b2", "c3"]}"#,
        ];
        let alphabet: &[u8] =
            b"{}[]\":,. 0123456789eE+-nulltrueboardemptyfinishtimeoutanyod\\\n\xff";
        let mut state = 0x0DDB_1A5E_5BAD_5EEDu64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let began = Instant::now();
        let (mut bodies, mut accepted) = (0u64, 0u64);
        while began.elapsed().as_secs_f64() < seconds || bodies < 2000 {
            let mut bytes = seeds[(next() % seeds.len() as u64) as usize]
                .as_bytes()
                .to_vec();
            for _ in 0..next() % 6 {
                let at = (next() % (bytes.len() as u64 + 1)) as usize;
                let byte = alphabet[(next() % alphabet.len() as u64) as usize];
                match next() % 4 {
                    0 if at < bytes.len() => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    2 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {
                        let field: &[u8] = match next() % 5 {
                            0 => br#""timeout": 1e400,"#,
                            1 => br#""timeout": -0.0,"#,
                            2 => br#""empty": [1, {"x": []}],"#,
                            3 => br#""finish": "any:99999999999999999999","#,
                            _ => br#""emtpy": ["d4"],"#,
                        };
                        bytes.splice(
                            1.min(bytes.len())..1.min(bytes.len()),
                            field.iter().copied(),
                        );
                    }
                }
            }
            if next() % 16 == 0 {
                bytes = (0..next() % 200).map(|_| next() as u8).collect();
            }
            bodies += 1;
            match parse_request(&bytes) {
                Ok(r) => {
                    accepted += 1;
                    assert!(r.problem.from_start(r.problem.start()).is_ok());
                    assert!(r.timeout.is_none_or(|t| t.is_finite() && t > 0.0));
                }
                Err(e) => assert!(!e.is_empty()),
            }
        }
        println!("{bodies} bodies, {accepted} accepted");
        assert!(accepted > bodies / 10, "{accepted} of {bodies}");
    }

    #[test]
    fn a_panic_is_answered_500_in_json() {
        let response = panicked(Box::new("boom".to_string()));
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let json = response.headers()[header::CONTENT_TYPE].to_str().unwrap();
        assert_eq!(json, "application/json");
    }
}
