// --variant / --sweep-variant (AIPerf 0.13's scenario sweep): each variant is one sweep point,
// named by its label ("small", or v<index> when unnamed), whose command line is the profile's
// with the variant's options set. The sweep files name a point by "benchmark": the JSON of what
// its configuration changes against the base (AIPerf's benchmark diff, keys sorted).
#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "options.h"

namespace aiperf::cli::variants {

// `base_args` (argv of `aiperf profile ...`) with each of the variant's keys (an option's long
// name without "--", kebab or snake case) set to its value: earlier occurrences of that option
// are removed, then `--name value` appended (a flag: `--name` for true, its `--no-` spelling
// or nothing for false). Throws OptionError naming the unknown keys, as the reference.
std::vector<std::string> variant_args(const std::vector<std::string>& base_args, const Variant& v,
                                      const std::string& raw, const CLI::App& profile_cmd);

// What `over` changes against `base`: changed keys of objects (recursively), and of a list of
// named objects the changed items by name (with their "name"); anything else as in `over`.
nlohmann::json benchmark_diff(const nlohmann::json& base, const nlohmann::json& over);

// AIPerf sets a variant's value on its config as typed (`isl=32` stays the integer 32 in the diff,
// where the config itself holds 32.0): a float leaf of `diff` equal to an integer the variant
// typed becomes that integer.
void integers_as_typed(nlohmann::json& diff, const Variant& v);

}  // namespace aiperf::cli::variants
