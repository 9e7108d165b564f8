// --processes N: N forked server processes listening on one port (SO_REUSEPORT), so that the mock
// holds more connections than one process may open. The parent only supervises: it prints the
// listening line once every child serves, and stops them all on SIGINT/SIGTERM or when one dies.
#pragma once
#include <csignal>

#include "mock_config.h"
#include "text_pool.h"

namespace aiperf::mock {

// Runs until `signals` (blocked by the caller) arrive; returns the exit code. Throws when the
// port cannot be reserved.
int serve_in_processes(MockConfig config, const TextPool& pool, const sigset_t& signals);

}  // namespace aiperf::mock
