// `genai-perf profile --measurement-interval MS`: runs our engine as one continuous load while a
// WindowWatcher (genai_perf_windows.h) follows the records it writes, and stops the engine (the
// way Ctrl-C does: in-flight requests cancelled, everything measured written) once perf_analyzer
// would have reached its verdict.
#pragma once
#include <string>
#include <vector>

#include "genai_perf_windows.h"

namespace aiperf::cli::genai_perf {

struct WindowedRun {
  int engine_rc = 0;             // the engine's exit status; 0 when the front end stopped it
  bool interrupted = false;      // the user stopped the run (Ctrl-C / TERM) before a verdict
};

// Runs `self profile <args>`, feeding `watcher` every line of `records_path` (our
// profile_export.jsonl, written as records arrive) and the wall clock. The engine's stdout is
// dropped unless `verbose`; its stderr is passed on, but for the cancel notice our own stop
// causes. perf_analyzer's lines (watcher) go to stdout (pass lines, verbose) and stderr.
WindowedRun run_windowed(const std::vector<std::string>& args, const std::string& records_path,
                         WindowWatcher& watcher, bool verbose);

}  // namespace aiperf::cli::genai_perf
