// AIPerf key:value list options (--extra-inputs, --header): each item is a JSON object
// (starts with '{', values keep their JSON types) or comma-separated key:value pairs split on
// the first ':', trimmed, values coerced like AIPerf's coerce_value.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::cli {

// true/false -> bool, none/null -> null, integers without leading zeros -> int, one-dot
// decimals -> float, anything else stays a string. Throws OptionError on a malformed item.
nlohmann::json coerce_value(const std::string& v);
nlohmann::json parse_extra_inputs(const std::vector<std::string>& items);
std::vector<std::pair<std::string, std::string>> parse_headers(const std::vector<std::string>& items);

}  // namespace aiperf::cli
