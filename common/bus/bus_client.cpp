#include "bus/bus_client.h"

#include <algorithm>

#include <stdexcept>

#include "bus/mesh_security.h"
#include "bus/socket.h"

namespace aiperf::bus {

namespace topic {
std::string command_for(std::string_view id) { return "cmd." + std::string(id) + "$"; }
std::string ack_for(std::string_view id) { return "ack." + std::string(id) + "$"; }
std::string probe_for(std::string_view id) { return "probe." + std::string(id) + "$"; }
}  // namespace topic

BusClient::BusClient(const Endpoints& endpoints, std::string service_id)
    : service_id_(std::move(service_id)),
      bus_frontend_(endpoints.bus_frontend),
      pub_(make_socket(zmq::socket_type::pub)),
      sub_(make_socket(zmq::socket_type::sub)) {
  connect(pub_, endpoints.bus_frontend);
  connect(sub_, endpoints.bus_backend);
}

void BusClient::subscribe(std::string_view t) { sub_.set(zmq::sockopt::subscribe, t); }

void BusClient::publish(std::string_view t, proto::BusMessage& msg) {
  msg.set_version(proto::PROTO_VERSION_CURRENT);
  pub_.send(zmq::buffer(t), zmq::send_flags::sndmore);
  send_proto(pub_, msg);
}

bool BusClient::receive(std::string& t, proto::BusMessage& msg) {
  zmq::message_t topic_frame, body;
  if (!sub_.recv(topic_frame, zmq::recv_flags::dontwait)) return false;
  t.assign(static_cast<const char*>(topic_frame.data()), topic_frame.size());
  // A multipart message arrives whole, so the body frame is already here.
  if (!topic_frame.more() || !sub_.recv(body, zmq::recv_flags::dontwait)) return false;
  if (!parse_proto(body, msg) || msg.version() != proto::PROTO_VERSION_CURRENT) {
    t.clear();  // malformed or foreign version: caller sees an empty topic and ignores it
  }
  return true;
}

void BusClient::wait_ready(Nanos timeout_ns) {
  const std::string probe_topic = topic::probe_for(service_id_);
  subscribe(probe_topic);
  const Nanos deadline = steady_now_ns() + timeout_ns;
  // The first probes are usually lost: the subscription has not reached the proxy yet. Probing
  // again after 1, 2, 4 ... 50 ms finds the bus ready within a few ms of it being so, where a
  // fixed 50 ms cost every process 50 ms of start-up.
  std::chrono::milliseconds wait{1};
  while (steady_now_ns() < deadline) {
    proto::BusMessage probe;
    probe.mutable_probe()->set_service_id(service_id_);
    publish(probe_topic, probe);
    zmq::pollitem_t item{sub_.handle(), 0, ZMQ_POLLIN, 0};
    try {
      zmq::poll(&item, 1, wait);
      wait = std::min(wait * 2, std::chrono::milliseconds(50));
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
    }
    std::string t;
    proto::BusMessage msg;
    while (receive(t, msg)) {
      if (t == probe_topic) {
        sub_.set(zmq::sockopt::unsubscribe, probe_topic);
        return;
      }
    }
  }
  // A CURVE server drops a client whose handshake fails without telling it, so this deadline
  // is how a worker with a missing or unauthorised key finds out.
  std::string hint;
  if (bus_frontend_.rfind("tcp://", 0) == 0)
    hint = mesh_security() ? "; if the controller refuses this worker's key, authorise it (docs/mesh.md)"
                           : "; if the controller uses --mesh-keys, pass --mesh-keys DIR";
  throw std::runtime_error("event bus not reachable within deadline (" + service_id_ + ")" + hint);
}

}  // namespace aiperf::bus
