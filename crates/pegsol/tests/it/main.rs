//! The library's integration tests in one binary (one link, and the tests of every file share
//! the cores): the engines against brute force, published figures and golden data, the
//! board parser, boards past 64 holes, and the distributed count.

mod common;

mod bound;
#[cfg(feature = "cluster")]
mod cluster;
mod corpus;
mod counts;
mod cross_check;
mod differential;
mod fewest;
mod golden;
mod parser;
mod wide;
