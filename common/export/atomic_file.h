// Whole-file writes that never leave a half-written file behind: readers see the old file or
// the complete new one.
#pragma once
#include <string>
#include <string_view>

namespace aiperf::exporting {

// Writes content to path + ".tmp", flushes, then renames it over path.
// Throws std::runtime_error (with the path and errno text) on any failure.
void write_file_atomic(const std::string& path, std::string_view content);

}  // namespace aiperf::exporting
