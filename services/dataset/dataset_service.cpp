#include "dataset_service.h"

#include "bus/socket.h"

namespace aiperf::dataset {

DatasetService::DatasetService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)),
      router_(bus::make_socket(zmq::socket_type::router), "dataset requests") {
  bus::bind(router_.socket(), this->endpoints().dataset);
  reactor().add_socket(router_.socket(), [this] { on_requests(); });
}

void DatasetService::on_configure(const config::RunConfig& config) {
  proto::BusMessage msg;
  *msg.mutable_dataset_ready() = core_.configure(config);
  publish(bus::topic::kDataset, msg);
}

// A malformed request, or one of another version, is answered with a ProtocolError so the worker
// fails its credits now instead of at the conversation's deadline; without an identity frame
// there is no one to answer.
void DatasetService::on_requests() {
  zmq::message_t identity;
  for (;;) {
    proto::ConversationRequest req;
    proto::ConversationResponse resp;
    const bus::Received got = router_.receive(identity, req);
    if (got == bus::Received::kNone) return;
    if (got == bus::Received::kMessage) {
      core_.respond(req, resp);
    } else if (identity.size() == 0) {
      continue;
    } else {
      DatasetCore::malformed(resp);
    }
    router_.send_to(identity.to_string_view(), resp);
  }
}

}  // namespace aiperf::dataset
