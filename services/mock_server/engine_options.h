// The --engine-* options of aiperf-mock-server (engine_model.h) and their checks against the
// rest of the command line.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "mock_config.h"

namespace aiperf::mock {

void add_engine_options(CLI::App& app, EngineSpec& spec);

// "" when the engine options fit the rest of `config`, else the message (naming the options).
std::string check_engine_options(const MockConfig& config);

}  // namespace aiperf::mock
