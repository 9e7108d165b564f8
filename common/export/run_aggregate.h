// Repeated runs (`--num-profile-runs`): each trial's summary is read back from its
// profile_export_aiperf.json, every metric statistic is aggregated across the successful
// trials with a Student's t confidence interval (AIPerf 0.13's "confidence" aggregation, file
// profile_export_aiperf_aggregate.json / .csv), and the convergence criteria decide whether
// more trials are needed.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::exporting {

struct TrialResult {
  std::string label;  // run_0001, ...
  std::string dir;    // its artifact directory
  bool success = false;
  std::string error;  // why it is not a success
  bool was_cancelled = false;
  nlohmann::ordered_json metrics;  // tag -> {unit, avg, min, ...}: the summary's metric objects
};

// Reads a trial's summary file. AIPerf's rule: a trial succeeded when its summary has metrics
// and a request_count above zero ("No requests completed" / "All N requests failed" otherwise).
TrialResult read_trial(const std::string& label, const std::string& dir, const std::string& summary_file);

// The aggregate document: schema_version, aiperf_version, metadata (aggregation_type
// "confidence", num_profile_runs, num_successful_runs, failed_runs [{label, error}],
// confidence_level, run_labels, cooldown_seconds) and metrics "<tag>_<stat>" -> {mean, std
// (sample, ddof 1), min, max, cv (std/mean; null when the mean is 0), se, ci_low, ci_high,
// t_critical, unit}. Non-finite trial values are skipped. With one successful trial the CI
// collapses to the value and t_critical is null. Throws std::runtime_error if none succeeded.
nlohmann::ordered_json aggregate_confidence(const std::vector<TrialResult>& trials, double confidence_level,
                                            double cooldown_seconds, const std::string& version);

// The same as CSV: metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit (2 decimals, 4
// for cv/se/t_critical, "inf" for a null cv), a blank line, then the metadata as key,value rows.
std::string aggregate_csv(const nlohmann::ordered_json& aggregate);

// The console summary: mean, std, min, max, CV and CI of the key metrics.
std::string aggregate_console(const nlohmann::ordered_json& aggregate);

struct Convergence {
  std::string metric;          // e.g. time_to_first_token
  std::string stat = "avg";    // avg, p50, ... (ci_width and cv)
  std::string mode = "ci_width";  // ci_width, cv, distribution
  std::optional<double> threshold;  // default per mode: 0.10, 0.05, 0.05 (KS p-value)
  size_t min_runs = 2;
};

// Whether the successful trials so far agree enough to stop (AIPerf 0.13's criteria):
//  - ci_width: the t confidence interval's width relative to |mean| is below the threshold;
//  - cv: std / |mean| is below the threshold;
//  - distribution: the per-request values of the last trial and of all earlier ones pass a
//    two-sample KS test (p-value above the threshold), read from each trial's `records_file`.
bool converged(const std::vector<TrialResult>& trials, const Convergence& c, double confidence_level,
               const std::string& records_file);

}  // namespace aiperf::exporting
