#include "bus/channel.h"

#include <cstring>

#include <google/protobuf/message_lite.h>

#include "log/log.h"

namespace aiperf::bus::detail {

namespace {
static_assert(proto::PROTO_VERSION_CURRENT < 128, "the stamp is a one-byte varint");
constexpr uint8_t kStamp[] = {(1 << 3) | 0 /* field 1, varint */, proto::PROTO_VERSION_CURRENT};
}  // namespace

bool send_stamped(zmq::socket_t& socket, const google::protobuf::MessageLite& msg, bool stamp, zmq::send_flags flags) {
  const size_t prefix = stamp ? sizeof(kStamp) : 0;
  zmq::message_t frame(prefix + msg.ByteSizeLong());
  auto* out = static_cast<uint8_t*>(frame.data());
  if (stamp) std::memcpy(out, kStamp, prefix);
  msg.SerializeWithCachedSizesToArray(out + prefix);
  return socket.send(frame, flags).has_value();
}

Received Rejections::malformed() {
  log_first("a malformed frame");
  return Received::kRejected;
}

Received Rejections::wrong_version(int seen) {
  log_first("a message of protocol version " + std::to_string(seen) + " (this build speaks " +
            std::to_string(proto::PROTO_VERSION_CURRENT) + ")");
  return Received::kRejected;
}

void Rejections::log_first(const std::string& why) {
  if (count_++ == 0) AIPERF_LOG(kError) << name_ << ": dropping " << why << "; further drops are counted, not logged";
}

}  // namespace aiperf::bus::detail
