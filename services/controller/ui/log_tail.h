// The last lines of a log file, for the dashboard's log panel.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace aiperf::controller::ui {

// Up to `max_lines` last complete lines of `path` (reading at most the final `max_bytes`),
// oldest first; control characters become spaces so a line cannot move the cursor. Empty
// when the file cannot be read.
std::vector<std::string> tail_lines(const std::string& path, std::size_t max_lines, std::size_t max_bytes = 16384);

}  // namespace aiperf::controller::ui
