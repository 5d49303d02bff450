//! The `kbook` binary: the command line (`cmd/`) over the kbook library.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod cmd;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cmd::run()
}
