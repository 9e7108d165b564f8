#include "record_processor_service.h"

#include "bus/socket.h"
#include "log/log.h"

namespace aiperf::record_processor {

RecordProcessorService::RecordProcessorService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)),
      pull_(bus::make_socket(zmq::socket_type::pull)),
      push_(bus::make_socket(zmq::socket_type::push)),
      core_(this->identity().id, *this) {
  if (auto direct = this->endpoints().raw_direct(this->identity().index)) {
    bus::bind(pull_, *direct);
  } else {
    bus::connect(pull_, this->endpoints().raw_backend);
  }
  bus::connect(push_, this->endpoints().records);
  reactor().add_socket(pull_, [this] { on_raw_records(); });
}

void RecordProcessorService::on_configure(const config::RunConfig& config) { core_.configure(config); }

void RecordProcessorService::send(const proto::MetricRecordBatch& batch) { bus::send_proto(push_, batch); }

void RecordProcessorService::on_raw_records() {
  zmq::message_t frame;
  // Bounded so bus commands are not starved under a flood of records.
  for (int i = 0; i < 64 && pull_.recv(frame, zmq::recv_flags::dontwait); ++i) {
    proto::RawRecordBatch& batch = in_;
    if (!bus::parse_proto(frame, batch) || batch.version() != proto::PROTO_VERSION_CURRENT) {
      AIPERF_LOG(kError) << "dropping a malformed raw record batch";
      continue;
    }
    if (!core_.process(batch)) AIPERF_LOG(kError) << "raw records before configure";
  }
}

}  // namespace aiperf::record_processor
