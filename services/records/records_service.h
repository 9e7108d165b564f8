// Records service (AIPerf's records manager / reporter): receives every metric record, writes
// profile_export.jsonl as records arrive (whole lines, one write per batch, so the file
// survives any crash), aggregates the profiling phase and, once every credit the timing
// service counted has produced its record, publishes the final ProfileResults for the
// controller to export. Every credit yields exactly one record: when records cannot come (a
// worker or record processor died, or the drain deadline passed) the missing ones become
// error records of a named kind (WorkerLost, RecordProcessorLost, RecordLost).
#pragma once
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
  ~RecordsService() override;

 private:
  void on_configure(const config::RunConfig& config) override;
  void on_bus(std::string_view topic, const proto::BusMessage& msg) override;
  void on_finalize() override;
  void on_terminate() override { write_jsonl(); }
  void on_records();
  void maybe_finish();
  void write_jsonl();  // appends jsonl_buffer_ to the file
  // Error records for the credits whose records will not come (completed - received).
  void add_missing_records(const std::string& type, const std::string& message);
  void finish();

  zmq::socket_t pull_;
  std::optional<config::RunConfig> config_;
  metrics::MetricContext context_;
  std::unique_ptr<metrics::Aggregator> aggregator_;
  std::unique_ptr<Timeslices> timeslices_;  // --slice-duration only
  std::unique_ptr<LiveMetrics> live_;       // dashboard / --api-port only
  int jsonl_fd_ = -1;          // profile_export.jsonl; -1 = not written (summary export level)
  std::string jsonl_buffer_;  // whole lines not yet written
  uint64_t jsonl_bytes_ = 0;  // written so far, all whole lines
  std::vector<char> arena_block_ = std::vector<char>(512 * 1024);  // first block of each frame's arena
  uint64_t success_ = 0;
  uint64_t errors_ = 0;
  std::optional<proto::PhaseEvent> profiling_complete_;
  int64_t profiling_start_wall_ns_ = 0;
  int64_t last_record_ns_ = 0;           // steady time the last profiling record arrived
  std::vector<proto::ServiceLost> lost_;  // services that died while the run went on
  int64_t first_loss_wall_ns_ = 0;
  bool finished_ = false;
  bus::Reactor::TimerId deadline_timer_ = 0;
  bus::Reactor::TimerId quiet_timer_ = 0;
};

}  // namespace aiperf::records
