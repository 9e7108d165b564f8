// The "coding" corpus of --prompt-corpus coding: text that looks like an agentic coding session
// (source code in Python, Go, Rust and TypeScript, shell output, JSON tool results, tracebacks,
// git diffs, CI logs, SQL, configs and the user's requests), so prompts exercise the token mix a
// coding assistant sees. AIPerf 0.13 builds such a pool from its own templates; these templates
// are ours (same kinds of content, in similar proportions), generated from a fixed seed so the
// corpus is the same on every machine.
#pragma once
#include <cstddef>
#include <string>

namespace aiperf::dataset {

// `blocks` blocks separated by blank lines; identical output for identical `blocks`.
std::string generate_coding_corpus(size_t blocks = 400);

}  // namespace aiperf::dataset
