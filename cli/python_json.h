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

// `text` (JSON as Python's json module writes it) with its non-finite literals made strict JSON
// for nlohmann's parser (which refuses them and overflowing numbers): NaN -> null, Infinity ->
// the largest double (-Infinity its negative), outside strings only.
std::string python_json_strict(const std::string& text);

}  // namespace aiperf::cli
