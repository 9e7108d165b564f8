// Typed channels (issue 19): one wrapper over a ZeroMQ socket that stamps the protocol version on
// every message it sends and checks it on every message it receives, so no sender sets it and no
// receiver forgets to check it. ROUTER sockets get send_to/receive with the peer's identity frame.
// Batching stays with the cores; a channel carries whatever message it is handed, one frame each.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include <zmq.hpp>

#include "bus/socket.h"
#include "common.pb.h"

namespace aiperf::bus {

enum class Received {
  kMessage,   // `msg` holds a message of the current version
  kNone,      // nothing waiting
  kRejected,  // a frame was read and dropped: malformed, or another version (counted, logged once)
};

namespace detail {

// Serializes `msg` into one frame. When `stamp`, the frame starts with the version field
// (field 1 = PROTO_VERSION_CURRENT): protobuf parses fields in any order, so the receiver sees the
// current version although the (const) message does not carry it, without a copy of the message.
bool send_stamped(zmq::socket_t& socket, const google::protobuf::MessageLite& msg, bool stamp, zmq::send_flags flags);

// Counts a channel's rejected frames; logs the first one (a peer of another version sends many).
class Rejections {
 public:
  explicit Rejections(std::string name) : name_(std::move(name)) {}
  Received malformed();
  Received wrong_version(int seen);
  uint64_t count() const { return count_; }

 private:
  void log_first(const std::string& why);
  std::string name_;
  uint64_t count_ = 0;
};

}  // namespace detail

// Sends `Out` and receives `In` messages (the same type unless the two directions differ, as for
// a conversation request and its response) on a socket it owns. Single-threaded like the socket.
template <class Out, class In = Out>
class Channel {
  static_assert(Out::kVersionFieldNumber == 1 && In::kVersionFieldNumber == 1,
                "the stamp written by detail::send_stamped is field 1");

 public:
  // `name` appears in the log line of the first rejected frame.
  Channel(zmq::socket_t socket, std::string name) : socket_(std::move(socket)), rejections_(std::move(name)) {}

  // For bind/connect, socket options and readiness watches.
  zmq::socket_t& socket() { return socket_; }

  // Sends `msg` with the current version (a version the caller set is sent as set). False when
  // the socket would block (with dontwait); a socket error throws zmq::error_t.
  bool send(const Out& msg, zmq::send_flags flags = zmq::send_flags::none) {
    return detail::send_stamped(socket_, msg, msg.version() == proto::PROTO_VERSION_UNSPECIFIED, flags);
  }

  // ROUTER: sends `msg` to the peer `identity`. Throws zmq::error_t when the peer is gone (with
  // router_mandatory).
  bool send_to(std::string_view identity, const Out& msg, zmq::send_flags flags = zmq::send_flags::none) {
    if (!socket_.send(zmq::buffer(identity.data(), identity.size()), flags | zmq::send_flags::sndmore)) return false;
    return send(msg, flags);
  }

  // Reads at most one message, never blocking.
  Received receive(In& msg) {
    if (!socket_.recv(frame_, zmq::recv_flags::dontwait)) return Received::kNone;
    return accept(msg);
  }

  // ROUTER: reads at most one message and the identity of its sender, never blocking. On
  // kRejected, `identity` names the sender when the message had an identity frame (else empty),
  // so the sender can be told.
  Received receive(zmq::message_t& identity, In& msg) {
    if (!socket_.recv(identity, zmq::recv_flags::dontwait)) return Received::kNone;
    if (!identity.more() || !socket_.recv(frame_, zmq::recv_flags::dontwait)) {
      identity.rebuild();
      return rejections_.malformed();
    }
    return accept(msg);
  }

  // Frames rejected so far.
  uint64_t rejected() const { return rejections_.count(); }

 private:
  Received accept(In& msg) {
    if (!parse_proto(frame_, msg)) return rejections_.malformed();
    if (msg.version() != proto::PROTO_VERSION_CURRENT) return rejections_.wrong_version(msg.version());
    return Received::kMessage;
  }

  zmq::socket_t socket_;
  zmq::message_t frame_;  // reused: no allocation per message beyond ZeroMQ's own
  detail::Rejections rejections_;
};

}  // namespace aiperf::bus
