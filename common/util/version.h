// The version this build reports (`aiperf --version`, "aiperf_version" in the exports, the live
// API). Equal to project(VERSION) in the top-level CMakeLists.txt; tests/deploy checks that the
// packaged binary prints that version.
#pragma once

namespace aiperf::util {

inline constexpr const char* kVersion = "0.1.0";

}  // namespace aiperf::util
