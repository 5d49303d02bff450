//! The `kbook` binary.

fn main() -> std::process::ExitCode {
    kbook::cli::run()
}
