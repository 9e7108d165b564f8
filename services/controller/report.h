// The end of a run: summary files (JSON, CSV), the console report and the exit code.
#pragma once
#include "config/run_config.h"
#include "results.pb.h"
#include "telemetry.pb.h"

namespace aiperf::controller {

// Writes profile_export_aiperf.{json,csv} (with the telemetry service's sections when it sent
// any), prints the metrics and error tables and the footer (CLI command, duration, export
// paths, log file); a summary file that cannot be written (a full disk) is reported after the
// console report. Returns the exit code: 1 when a file could not be written, when no request
// succeeded, when `services_ok` is false, or when the error rate exceeds --fail-on-error-rate;
// else 0.
int write_report(const config::RunConfig& config, const proto::ProfileResults& results,
                 const proto::TelemetryResults& telemetry, bool services_ok);

}  // namespace aiperf::controller
