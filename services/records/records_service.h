// Records service (AIPerf's records manager / reporter): the process around RecordsCore
// (records_core.h, which holds the rules). It pulls metric-record batches from the record
// processors, follows phase events and lost services on the bus, publishes progress every
// second, live snapshots when something consumes them, and the final ProfileResults.
#pragma once
#include <memory>
#include <vector>

#include <zmq.hpp>

#include "bus/channel.h"
#include "live_metrics.h"
#include "metric_record.pb.h"
#include "network_probe.h"
#include "records_core.h"
#include "service/service.h"

namespace aiperf::records {

class RecordsService final : public service::Service, private ResultsSink {
 public:
  RecordsService(service::Identity identity, bus::Endpoints endpoints);
  ~RecordsService() override;

 private:
  void on_configure(const config::RunConfig& config) override;
  void on_bus(std::string_view topic, const proto::BusMessage& msg) override;
  void on_finalize() override;
  void on_terminate() override;
  void results(const proto::ProfileResults& results) override;
  void cancel_run(const std::string& reason) override;
  // --network-latency-automatic: stops the probes, writes their JSONL file, returns the mean.
  std::optional<double> measured_rtt_ns();
  void on_records();

  bus::Channel<proto::MetricRecordBatch> pull_;
  std::unique_ptr<RecordsCore> core_;
  std::unique_ptr<LiveMetrics> live_;  // dashboard / --api-port only
  std::unique_ptr<NetworkProber> prober_;  // --network-latency-automatic only
  std::string network_latency_path_;       // its JSONL file
  std::vector<char> arena_block_ = std::vector<char>(512 * 1024);  // first block of each frame's arena
};

}  // namespace aiperf::records
