#include "dataset_service.h"

#include "bus/socket.h"

namespace aiperf::dataset {

DatasetService::DatasetService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)), router_(bus::make_socket(zmq::socket_type::router)) {
  bus::bind(router_, this->endpoints().dataset);
  reactor().add_socket(router_, [this] { on_requests(); });
}

void DatasetService::on_configure(const config::RunConfig& config) {
  proto::BusMessage msg;
  *msg.mutable_dataset_ready() = core_.configure(config);
  publish(bus::topic::kDataset, msg);
}

void DatasetService::on_requests() {
  zmq::message_t identity, body;
  while (router_.recv(identity, zmq::recv_flags::dontwait)) {
    if (!identity.more() || !router_.recv(body, zmq::recv_flags::dontwait)) continue;
    proto::ConversationRequest req;
    proto::ConversationResponse resp;
    if (!bus::parse_proto(body, req)) {
      DatasetCore::malformed(resp);
    } else {
      core_.respond(req, resp);
    }
    router_.send(identity, zmq::send_flags::sndmore);
    bus::send_proto(router_, resp);
  }
}

}  // namespace aiperf::dataset
