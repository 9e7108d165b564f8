// ZeroMQ helpers: the process-wide context, sockets created with explicit linger and
// high-water marks, and protobuf framing.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include <zmq.hpp>

#include "bus/mesh_security.h"  // bus::bind / bus::connect: every bind and connect goes through them

namespace google::protobuf { class MessageLite; }

namespace aiperf::bus {

// One context per process (zguide rule); created on first use, never destroyed before exit.
zmq::context_t& context();

// linger 0 so shutdown never blocks; hwm 0 = unlimited: records and credits must never be
// dropped or block the sender (AIPerf PR #253), memory is bounded by the run's request count.
zmq::socket_t make_socket(zmq::socket_type type, int hwm = 0);

// Serializes `msg` into one frame. Returns false if the socket would block (dontwait).
bool send_proto(zmq::socket_t& socket, const google::protobuf::MessageLite& msg,
                zmq::send_flags flags = zmq::send_flags::none);

// Parses one frame into `msg`; false on a malformed frame.
bool parse_proto(const zmq::message_t& frame, google::protobuf::MessageLite& msg);

}  // namespace aiperf::bus
