#include "timeslices.h"

#include <algorithm>
#include <map>

#include "export/timeslice_csv.h"
#include "export/timeslice_json.h"
#include "util/output_paths.h"

namespace aiperf::records {

SliceGrid make_slice_grid(int64_t min_start_ns, int64_t max_ns, int64_t slice_ns) {
  SliceGrid g;
  g.origin = static_cast<double>(min_start_ns);
  g.last = std::max(g.origin, static_cast<double>(max_ns));
  g.slice_ns = slice_ns > 0 ? slice_ns : 1;  // the CLI refuses non-positive durations
  g.count = static_cast<int64_t>((g.last - g.origin) / static_cast<double>(g.slice_ns)) + 1;
  return g;
}

int64_t SliceGrid::index_of(int64_t start_ns) const {
  const double x = static_cast<double>(start_ns);
  // The first guess from the division, then corrected against the double edges so the
  // comparison is the one numpy makes.
  int64_t i = static_cast<int64_t>((x - origin) / static_cast<double>(slice_ns));
  i = std::clamp<int64_t>(i, 0, count - 1);
  while (i > 0 && edge(i) > x) --i;
  while (i + 1 < count && edge(i + 1) <= x) ++i;
  return i;
}

Timeslices::Timeslices(metrics::MetricContext ctx, double slice_duration_s)
    : ctx_(std::move(ctx)), slice_ns_(static_cast<int64_t>(slice_duration_s * 1e9)) {
  if (slice_ns_ <= 0) slice_ns_ = 1;
}

void Timeslices::add(const proto::MetricRecord& rec) {
  if (rec.metadata().phase() != proto::PHASE_PROFILING) return;
  // A record that never got a start time has no place on the grid (AIPerf's NaN start).
  if (rec.metadata().request_start_ns() <= 0) return;
  records_.push_back(rec);
}

std::vector<TimesliceResult> Timeslices::finalize() const {
  std::vector<TimesliceResult> out;
  if (records_.empty()) return out;
  int64_t min_start = records_.front().metadata().request_start_ns();
  int64_t max_ns = min_start;
  for (const auto& rec : records_) {
    min_start = std::min(min_start, rec.metadata().request_start_ns());
    max_ns = std::max({max_ns, rec.metadata().request_start_ns(), rec.metadata().request_end_ns()});
  }
  const SliceGrid grid = make_slice_grid(min_start, max_ns, slice_ns_);

  // The sweep-line curves of the whole run, each slice weighing them over its own window: a
  // request that started in the previous slice counts while it is in flight in this one.
  std::vector<metrics::SweepRecord> sweep_records;
  std::vector<double> icl;
  sweep_records.reserve(records_.size());
  for (const auto& rec : records_) {
    metrics::SweepRecord r = metrics::sweep_record_of(rec);
    r.icl_offset = icl.size();
    for (const auto& m : rec.metrics()) {
      if (m.is_list() && m.tag() == "inter_chunk_latency") icl.insert(icl.end(), m.values().begin(), m.values().end());
    }
    r.icl_count = icl.size() - r.icl_offset;
    sweep_records.push_back(r);
  }
  const metrics::SweepCurves curves(sweep_records, icl);

  // Sparse: a long idle gap makes many empty grid slices, which are never exported.
  std::map<int64_t, std::vector<const proto::MetricRecord*>> bins;
  for (const auto& rec : records_) bins[grid.index_of(rec.metadata().request_start_ns())].push_back(&rec);

  for (const auto& [i, members] : bins) {
    TimesliceResult slice;
    const double start = grid.edge(i);
    const double raw_end = grid.edge(i + 1);
    slice.complete = raw_end <= grid.last;
    slice.start_ns = static_cast<int64_t>(start);
    slice.end_ns = static_cast<int64_t>(slice.complete ? raw_end : grid.last);
    metrics::Aggregator aggregator(ctx_);
    aggregator.set_per_timeslice();
    aggregator.set_network_rtt_ns(network_rtt_ns_);
    aggregator.set_observation_window_ns(static_cast<double>(slice.end_ns - slice.start_ns));
    for (const auto* rec : members) aggregator.add(*rec);
    slice.results = aggregator.finalize();
    metrics::append_sweep_results(slice.results, ctx_, curves, start, slice.complete ? raw_end : grid.last);
    out.push_back(std::move(slice));
  }
  return out;
}

void write_timeslice_files(const config::RunConfig& config, const std::vector<TimesliceResult>& slices) {
  if (slices.empty()) return;
  std::vector<exporting::TimesliceExport> rows;
  rows.reserve(slices.size());
  for (const auto& s : slices) rows.push_back({s.start_ns, s.end_ns, s.complete, &s.results});
  util::write_file_atomically(util::artifact_file(config, "profile_export_aiperf_timeslices.csv"),
                              exporting::format_timeslice_csv(rows));
  util::write_file_atomically(util::artifact_file(config, "profile_export_aiperf_timeslices.json"),
                              exporting::format_timeslice_json(rows, config::input_config_json(config)));
}

}  // namespace aiperf::records
