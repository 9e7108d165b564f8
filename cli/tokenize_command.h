// `aiperf tokenize`: JSON lines on stdin -> token ids (or, with --decode, ids -> text) on
// stdout, one output line per input line, in order. For checking counts by hand.
#pragma once
#include <functional>

#include <CLI/CLI.hpp>

namespace aiperf::cli {

// Registers the subcommand on `app`; the returned function runs it (call only when the
// subcommand was selected) and returns the exit code.
std::function<int()> add_tokenize_command(CLI::App& app);

}  // namespace aiperf::cli
