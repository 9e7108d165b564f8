// Controller: runs one benchmark. Starts the proxies, spawns every service as a child
// process, walks them through register -> configure -> start, waits for the results (or a
// failure, a signal, or an inactivity deadline), writes the summary exports, prints the
// console report and returns the exit code:
//   0 success; 1 a service failed or died (the summary is still written from what was
//   measured), no request succeeded, or the error rate exceeded --fail-on-error-rate;
//   130 / 143 interrupted by SIGINT / SIGTERM (the first one cancels what is in flight and
//   writes the partial results; a second one exits at once).
#pragma once
#include "config/run_config.h"

namespace aiperf::controller {

int run_profile(const config::RunConfig& config);

}  // namespace aiperf::controller
