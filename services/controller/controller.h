// Controller: runs one benchmark. Starts the proxies, spawns every service as a child
// process, walks them through register -> configure -> start, waits for the results (or a
// failure, a signal, or an inactivity deadline), writes the summary exports, prints the
// console report and returns the exit code:
//   0 success; 1 a service failed or no request succeeded, or the error rate exceeded
//   --fail-on-error-rate; 130 when interrupted twice.
#pragma once
#include "config/run_config.h"

namespace aiperf::controller {

int run_profile(const config::RunConfig& config);

}  // namespace aiperf::controller
