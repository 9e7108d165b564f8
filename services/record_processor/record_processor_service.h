// Record processor: raw records in (what the worker saw on the wire), metric records out.
// The rules are RecordProcessorCore's (record_processor_core.h); this process holds the PULL
// socket raw batches arrive on and the PUSH socket metric batches leave by. Replicated: raw
// records are fair-queued across processors.
#pragma once
#include <zmq.hpp>

#include "bus/channel.h"
#include "metric_record.pb.h"
#include "raw_record.pb.h"
#include "record_processor_core.h"
#include "service/service.h"

namespace aiperf::record_processor {

class RecordProcessorService final : public service::Service, private MetricSink {
 public:
  RecordProcessorService(service::Identity identity, bus::Endpoints endpoints);

 private:
  void on_configure(const config::RunConfig& config) override;
  void on_raw_records();
  void send(const proto::MetricRecordBatch& batch) override;

  bus::Channel<proto::RawRecordBatch> pull_;
  bus::Channel<proto::MetricRecordBatch> push_;
  RecordProcessorCore core_;
  // Reused for every message: a cleared protobuf message keeps its elements and string
  // buffers, so steady state parses records without allocating.
  proto::RawRecordBatch in_;
};

}  // namespace aiperf::record_processor
