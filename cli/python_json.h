// Python's json.dumps(obj) with its defaults, byte for byte: separators ", " and ": ", no
// indentation, ensure_ascii (every non-ASCII character as \uXXXX, UTF-16 surrogate pairs beyond
// the BMP), floats as repr (5.0, 1e-05, Infinity, NaN), keys in the object's own order. GenAI-Perf
// writes some files this way (json.dump without indent), e.g. process-export-files' merged
// profile_export.json.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace aiperf::cli {

std::string python_json_dumps(const nlohmann::ordered_json& value);

}  // namespace aiperf::cli
