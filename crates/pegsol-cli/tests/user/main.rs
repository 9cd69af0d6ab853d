//! The CLI as a user meets it, in one test binary (each binary of its own costs a link with
//! thin LTO in CI): forged certificates against both checkers, input the CLI must refuse,
//! its messages where a first-time user stumbles, and play from a position reached by play.

#[path = "../common/mod.rs"]
mod common;

mod forgery;
mod input;
mod messages;
mod play;
