// The GenAI-Perf front end: `genai-perf <cmd> ...` (our binary under that name, e.g. the
// `genai-perf` symlink installed next to `aiperf`) and `aiperf genai-perf <cmd> ...`.
// `profile` maps GenAI-Perf's command line onto `aiperf profile` (genai_perf_options.h), runs it
// as a child process of this same binary (the one engine), then turns what it wrote into
// GenAI-Perf's files and console table (genai_perf_export.h) and removes AIPerf's own exports
// (logs/aiperf.log stays).
#pragma once
#include <string>

namespace aiperf::cli::genai_perf {

// Runs the front end when argv asks for it and returns its exit code (0 done, 1 the run failed,
// 2 bad options: nothing run or written); returns -1 when argv is an ordinary `aiperf` command.
// `version` goes into profile_export.json's "version".
int maybe_run(int argc, char** argv, const std::string& version);

}  // namespace aiperf::cli::genai_perf
