#include "timeslices.h"

#include "export/timeslice_csv.h"
#include "export/timeslice_json.h"
#include "util/output_paths.h"

namespace aiperf::records {

Timeslices::Timeslices(metrics::MetricContext ctx, double slice_duration_s)
    : ctx_(std::move(ctx)), slice_ns_(static_cast<int64_t>(slice_duration_s * 1e9)) {
  if (slice_ns_ <= 0) slice_ns_ = 1;  // the CLI refuses non-positive durations
}

int64_t Timeslices::slice_index(int64_t request_start_ns, int64_t slice_ns) {
  const int64_t whole = request_start_ns / slice_ns;
  const int64_t rest = request_start_ns % slice_ns;
  // whole is exact as a double (below 2^53); adding the fraction rounds once, like Python.
  return static_cast<int64_t>(static_cast<double>(whole) +
                              static_cast<double>(rest) / static_cast<double>(slice_ns));
}

void Timeslices::add(const proto::MetricRecord& rec) {
  if (rec.metadata().phase() != proto::PHASE_PROFILING) return;
  const int64_t index = slice_index(rec.metadata().request_start_ns(), slice_ns_);
  slices_.try_emplace(index, ctx_).first->second.add(rec);
}

void Timeslices::set_network_rtt_ns(double rtt_ns) {
  for (auto& [index, aggregator] : slices_) aggregator.set_network_rtt_ns(rtt_ns);
}

std::vector<proto::ProfileResults> Timeslices::finalize() const {
  std::vector<proto::ProfileResults> out;
  out.reserve(slices_.size());
  for (const auto& [index, aggregator] : slices_) out.push_back(aggregator.finalize());
  return out;
}

void write_timeslice_files(const config::RunConfig& config, const std::vector<proto::ProfileResults>& slices) {
  if (slices.empty()) return;
  util::write_file_atomically(util::artifact_file(config, "profile_export_aiperf_timeslices.csv"),
                              exporting::format_timeslice_csv(slices));
  util::write_file_atomically(util::artifact_file(config, "profile_export_aiperf_timeslices.json"),
                              exporting::format_timeslice_json(slices, config::input_config_json(config)));
}

}  // namespace aiperf::records
