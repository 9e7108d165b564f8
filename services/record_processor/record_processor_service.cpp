#include "record_processor_service.h"

#include "bus/socket.h"
#include "log/log.h"

namespace aiperf::record_processor {

RecordProcessorService::RecordProcessorService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)),
      pull_(bus::make_socket(zmq::socket_type::pull), "record processor raw records"),
      push_(bus::make_socket(zmq::socket_type::push), "record processor metric records"),
      core_(this->identity().id, *this) {
  if (auto direct = this->endpoints().raw_direct(this->identity().index)) {
    bus::bind(pull_.socket(), *direct);
  } else {
    bus::connect(pull_.socket(), this->endpoints().raw_backend);
  }
  bus::connect(push_.socket(), this->endpoints().records);
  reactor().add_socket(pull_.socket(), [this] { on_raw_records(); });
}

void RecordProcessorService::on_configure(const config::RunConfig& config) { core_.configure(config); }

void RecordProcessorService::send(const proto::MetricRecordBatch& batch) { push_.send(batch); }

void RecordProcessorService::on_raw_records() {
  // Bounded so bus commands are not starved under a flood of records.
  for (int i = 0; i < 64; ++i) {
    const bus::Received got = pull_.receive(in_);  // a malformed batch is logged by the channel
    if (got == bus::Received::kNone) return;
    if (got == bus::Received::kMessage && !core_.process(in_)) AIPERF_LOG(kError) << "raw records before configure";
  }
}

}  // namespace aiperf::record_processor
