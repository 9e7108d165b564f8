// Helpers for reading container command lines out of parsed YAML (Compose and Kubernetes).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace aiperf::test {

// A YAML sequence of scalars as strings; a missing node gives an empty list.
std::vector<std::string> scalars(const YAML::Node& seq);

// The value following `flag` in `args` (e.g. "--workers-remote" -> "4"), nullopt if absent
// or last.
std::optional<std::string> flag_value(const std::vector<std::string>& args, const std::string& flag);

}  // namespace aiperf::test
