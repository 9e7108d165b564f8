// Command-line options of aiperf-mock-server (AIPerf's mock server names, spec §8.1). Every option
// can also come from the environment as MOCK_SERVER_<NAME> (e.g. MOCK_SERVER_TTFT=50).
#pragma once
#include <CLI/CLI.hpp>

#include "mock_config.h"

namespace aiperf::mock {

// Registers the options on `app`; app.parse() then writes them into `config`.
void add_mock_options(CLI::App& app, MockConfig& config);

}  // namespace aiperf::mock
