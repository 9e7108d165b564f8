// The post-run analysis commands: `aiperf analyze-trace` (ISL/OSL and prefix-cache statistics
// of a mooncake trace) and `aiperf analyze swim-lane|turn-messages` (views of a finished run
// directory). Each prints what it saved; bad options exit 2 before anything is written.
#pragma once
#include <functional>

#include <CLI/CLI.hpp>

namespace aiperf::cli {

// Registers `analyze-trace` and `analyze` on `app`. The returned function runs whichever of
// them was selected and returns its exit code; it returns -1 when neither was.
std::function<int()> add_analyze_commands(CLI::App& app);

}  // namespace aiperf::cli
