// `aiperf validate <target> --input FILE`: checks a benchmark artifact without running
// anything. Target `mooncake-trace` (the reference's only one): every JSONL row must be a valid
// mooncake trace row. Exit 0 "Validation passed: N rows are Mooncake-compatible.", exit 1 with
// up to 10 "Line N: ..." errors, exit 2 for a bad command line.
#pragma once
#include <functional>

#include <CLI/CLI.hpp>

namespace aiperf::cli {

// Registers the subcommand on `app`; the returned function runs it (call only when the
// subcommand was selected) and returns the exit code.
std::function<int()> add_validate_command(CLI::App& app);

}  // namespace aiperf::cli
