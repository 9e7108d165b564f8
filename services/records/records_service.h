// Records service (AIPerf's records manager / reporter): receives every metric record, writes
// profile_export.jsonl as records arrive, aggregates the profiling phase and, once every
// credit the timing service counted has produced its record (or a deadline passed), publishes
// the final ProfileResults for the controller to export.
#pragma once
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <zmq.hpp>

#include "metrics/aggregator.h"
#include "service/service.h"
#include "live_metrics.h"
#include "timeslices.h"

namespace aiperf::records {

class RecordsService final : public service::Service {
 public:
  RecordsService(service::Identity identity, bus::Endpoints endpoints);

 private:
  void on_configure(const config::RunConfig& config) override;
  void on_bus(std::string_view topic, const proto::BusMessage& msg) override;
  void on_records();
  void maybe_finish();
  void write_jsonl();  // appends jsonl_buffer_ to the file
  void finish();

  zmq::socket_t pull_;
  std::optional<config::RunConfig> config_;
  metrics::MetricContext context_;
  std::unique_ptr<metrics::Aggregator> aggregator_;
  std::unique_ptr<Timeslices> timeslices_;  // --slice-duration only
  std::unique_ptr<LiveMetrics> live_;       // dashboard / --api-port only
  std::ofstream jsonl_;
  std::string jsonl_buffer_;  // lines not yet written to jsonl_
  std::vector<char> arena_block_ = std::vector<char>(512 * 1024);  // first block of each frame's arena
  uint64_t success_ = 0;
  uint64_t errors_ = 0;
  std::optional<proto::PhaseEvent> profiling_complete_;
  int64_t profiling_start_wall_ns_ = 0;
  bool finished_ = false;
  bus::Reactor::TimerId deadline_timer_ = 0;
};

}  // namespace aiperf::records
