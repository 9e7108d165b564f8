// `aiperf config init | validate | expand`: AIPerf 0.13's config scaffolding commands for the
// YAML configs `aiperf profile --config` reads (cli/config_file.h).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace aiperf::cli {

// Checks the words after `profile` as `aiperf profile ... --dry-run` would (sweep points
// included); throws std::exception with the message on an invalid option.
using ProfileArgsCheck = std::function<void(const std::vector<std::string>& args)>;

// Registers `config` and its subcommands on `app`; the returned function runs the one given
// and returns the exit code (validate/expand: 0 valid, 1 invalid, as the reference).
std::function<int()> add_config_command(CLI::App& app, ProfileArgsCheck check);

}  // namespace aiperf::cli
