#include "bus/socket.h"

#include <google/protobuf/message_lite.h>

namespace aiperf::bus {

zmq::context_t& context() {
  static zmq::context_t* ctx = new zmq::context_t(1);  // leaked on purpose: no term() hang at exit
  return *ctx;
}

zmq::socket_t make_socket(zmq::socket_type type, int hwm) {
  zmq::socket_t s(context(), type);
  s.set(zmq::sockopt::linger, 0);
  s.set(zmq::sockopt::sndhwm, hwm);
  s.set(zmq::sockopt::rcvhwm, hwm);
  // A service often connects before its peer has bound (they start in parallel). ZeroMQ's
  // default first retry after 100 ms then delayed a run's start by 100 ms; retry after 5 ms,
  // backing off to 200 ms while the peer stays away.
  s.set(zmq::sockopt::reconnect_ivl, 5);
  s.set(zmq::sockopt::reconnect_ivl_max, 200);
  return s;
}

bool send_proto(zmq::socket_t& socket, const google::protobuf::MessageLite& msg,
                zmq::send_flags flags) {
  zmq::message_t frame(msg.ByteSizeLong());
  msg.SerializeWithCachedSizesToArray(static_cast<uint8_t*>(frame.data()));
  return socket.send(frame, flags).has_value();
}

bool parse_proto(const zmq::message_t& frame, google::protobuf::MessageLite& msg) {
  return msg.ParseFromArray(frame.data(), static_cast<int>(frame.size()));
}

}  // namespace aiperf::bus
