// Helpers shared by the fuzz targets.
#pragma once
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <sys/stat.h>

namespace aiperf::fuzz {

// A private scratch directory for loaders that take a path: $TMPDIR/aiperf_fuzz.<pid>, made on
// first use. Each target writes its input to a file in it (the name matters to some loaders).
inline const std::string& scratch_dir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string d = std::string(tmp && *tmp ? tmp : "/tmp") + "/aiperf_fuzz." + std::to_string(::getpid());
    ::mkdir(d.c_str(), 0700);
    return d;
  }();
  return dir;
}

// Writes `bytes` to scratch_dir()/name and returns the path ("" when it cannot be written).
inline std::string write_scratch(const std::string& name, std::string_view bytes) {
  const std::string path = scratch_dir() + "/" + name;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return {};
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (std::fclose(f) != 0 || !ok) return {};
  return path;
}

// The input split at its first '\n': (first line, rest).
inline std::pair<std::string_view, std::string_view> first_line(std::string_view text) {
  const size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return {text, {}};
  return {text.substr(0, nl), text.substr(nl + 1)};
}

// Template targets skip sources with more than 3 "for": nested loops multiply the output by
// design, which the fuzzer would report as a timeout although nothing is wrong.
inline bool too_many_loops(std::string_view source) {
  size_t loops = 0;
  for (size_t at = source.find("for"); at != std::string_view::npos; at = source.find("for", at + 3))
    if (++loops > 3) return true;
  return false;
}

}  // namespace aiperf::fuzz
