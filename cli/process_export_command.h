// `aiperf process-export-files DIR... [--output-dir D]` (GenAI-Perf's subcommand): merges the
// per-record profile_export.jsonl of several runs (e.g. one per host of a distributed
// benchmark) and recomputes the summary over all records, as if they came from one run.
#pragma once
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace aiperf::cli {

// Registers the subcommand on `app`; the returned function runs it (call only when the
// subcommand was selected) and returns the exit code: 0 written, 1 a file could not be read
// or written or holds a malformed line, 2 an input is missing. `version` becomes the
// summary's aiperf_version.
std::function<int()> add_process_export_command(CLI::App& app, const std::string& version);

}  // namespace aiperf::cli
