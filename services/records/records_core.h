// RecordsCore: the records service's rules, without its sockets. It takes every metric record
// of the run, writes profile_export.jsonl as they arrive, aggregates the profiling phase and,
// once every credit the timing service counted has produced its record, hands the final
// ProfileResults to its sink. Every credit yields exactly one record: when records cannot come
// (a worker or record processor died, or the drain deadline passed) the missing ones become
// error records of a named kind (WorkerLost, RecordProcessorLost, ServiceLost, RecordLost).
// Single-threaded; time and timers come from the Timers port (a fake one in unit tests).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/run_config.h"
#include "control.pb.h"
#include "metrics/aggregator.h"
#include "time/timers.h"
#include "timeslices.h"

namespace aiperf::records {

// Where the final results go (the service publishes them for the controller).
class ResultsSink {
 public:
  virtual ~ResultsSink() = default;
  virtual void results(const proto::ProfileResults& results) = 0;
  // The run must end early as a failure (--failed-request-threshold exceeded); `reason` is
  // the message. Asked at most once per run.
  virtual void cancel_run(const std::string& reason) { (void)reason; }
};

// Where profile_export.jsonl's lines go: whole lines only, a batch per call.
class LineLog {
 public:
  virtual ~LineLog() = default;
  virtual void append(std::string_view whole_lines) = 0;
};

class RecordsCore {
 public:
  // How long records still in the pipeline may take after the last credit returned.
  static constexpr Nanos kDrainNs = 30'000'000'000;
  // After a worker or record processor died, records that can still come arrive without pause
  // (the pipeline drains in order): this long without one means the rest are lost.
  static constexpr Nanos kLossQuietNs = 1'000'000'000;

  // Throws std::runtime_error for an endpoint type it cannot measure. `log` null: no
  // per-record file (export level summary).
  RecordsCore(const config::RunConfig& config, Timers& timers, ResultsSink& sink, std::unique_ptr<LineLog> log);
  ~RecordsCore();
  RecordsCore(const RecordsCore&) = delete;
  RecordsCore& operator=(const RecordsCore&) = delete;

  // One record from a record processor; records of other phases and late ones are ignored.
  void add(const proto::MetricRecord& record);
  // After a batch of add(): the lines go to the log, and the phase may be complete.
  void batch_done();
  void on_phase_event(const proto::PhaseEvent& event);
  // Only workers and record processors hold records; other services' deaths change nothing.
  void on_service_lost(const proto::ServiceLost& lost);
  // A service the run cannot go on without died: the results are what arrived.
  void finalize();
  // Writes lines not yet written (the process is about to stop).
  void flush();
  // --network-latency-automatic: where the measured mean RTT (ns) comes from, asked once when
  // the results are computed (nullopt: no successful probe). --network-latency-mean needs none.
  void set_network_rtt_source(std::function<std::optional<double>()> source) { rtt_source_ = std::move(source); }

  uint64_t received() const { return success_ + errors_; }
  uint64_t success() const { return success_; }
  uint64_t errors() const { return errors_; }
  bool finished() const { return finished_; }
  // The metrics of the records so far (live dashboards).
  proto::ProfileResults snapshot() const { return aggregator_.finalize(); }

 private:
  void append_line(const proto::MetricRecord& record);
  void maybe_finish();
  // Error records for the credits whose records will not come (completed - received).
  void add_missing_records(const std::string& type, const std::string& message);
  void finish();
  // --failed-request-threshold: after each profiling record, once max(concurrency, 10) have
  // arrived, asks the sink to cancel the run when errors / records exceeds the threshold.
  void check_failed_threshold();
  void maybe_hint_cache_reporting(const proto::MetricRecord& rec);
  // The mean RTT to subtract (0 = none), logged as the reference does.
  double network_rtt_ns() const;

  const config::RunConfig config_;
  Timers& timers_;
  ResultsSink& sink_;
  std::unique_ptr<LineLog> log_;
  metrics::MetricContext context_;
  metrics::Aggregator aggregator_;
  std::unique_ptr<Timeslices> timeslices_;  // --slice-duration only
  std::string lines_;                       // whole lines not yet given to the log
  uint64_t success_ = 0;
  uint64_t errors_ = 0;
  std::optional<proto::PhaseEvent> profiling_complete_;
  Nanos profiling_start_wall_ns_ = 0;
  Nanos last_record_ns_ = 0;              // steady time the last batch with profiling records ended
  bool fresh_ = false;                    // profiling records arrived since the last batch_done()
  std::vector<proto::ServiceLost> lost_;  // workers and record processors that died
  Nanos first_loss_wall_ns_ = 0;
  bool finished_ = false;
  Timers::TimerId deadline_timer_ = 0;
  Timers::TimerId quiet_timer_ = 0;
  bool threshold_tripped_ = false;
  bool cache_hint_logged_ = false;  // the cache-reporting hint was logged
  std::function<std::optional<double>()> rtt_source_;
};

}  // namespace aiperf::records
