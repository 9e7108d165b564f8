// Typed channels over real ZeroMQ inproc sockets: the version is stamped on send and checked on
// receive, rejections are counted, and ROUTER identities make the round trip.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include <zmq.hpp>

#include "bus/channel.h"
#include "bus/socket.h"
#include "credit.pb.h"
#include "dataset.pb.h"
#include "raw_record.pb.h"

using namespace aiperf;
using aiperf::bus::Channel;
using aiperf::bus::Received;

namespace {

// A fresh inproc address per call: the process's context may still hold a closed socket's
// binding when a section re-runs its test case.
std::string address(const char* name) {
  static int calls = 0;
  return std::string("inproc://channel_test_") + name + std::to_string(++calls);
}

// ZeroMQ delivers inproc messages asynchronously: waits until `socket` has one to read.
void wait_readable(zmq::socket_t& socket) {
  zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
  REQUIRE(zmq::poll(&item, 1, std::chrono::milliseconds(5000)) == 1);
}

}  // namespace

TEST_CASE("channel: a message makes the round trip stamped with the current version") {
  Channel<proto::RawRecordBatch> push(bus::make_socket(zmq::socket_type::push), "raw out");
  Channel<proto::RawRecordBatch> pull(bus::make_socket(zmq::socket_type::pull), "raw in");
  const std::string at = address("round_trip");
  pull.socket().bind(at);
  push.socket().connect(at);

  proto::RawRecordBatch sent;  // no version set: the channel stamps it
  sent.add_records()->set_worker_id("worker_7");
  REQUIRE(push.send(sent));
  CHECK(sent.version() == proto::PROTO_VERSION_UNSPECIFIED);  // the message itself is untouched

  proto::RawRecordBatch got;
  wait_readable(pull.socket());
  REQUIRE(pull.receive(got) == Received::kMessage);
  CHECK(got.version() == proto::PROTO_VERSION_CURRENT);
  REQUIRE(got.records_size() == 1);
  CHECK(got.records(0).worker_id() == "worker_7");
  CHECK(pull.receive(got) == Received::kNone);
  CHECK(pull.rejected() == 0);
}

TEST_CASE("channel: a message of another version is rejected and counted") {
  Channel<proto::CreditMessage> in(bus::make_socket(zmq::socket_type::pull), "credits in");
  zmq::socket_t out = bus::make_socket(zmq::socket_type::push);
  const std::string at = address("wrong_version");
  in.socket().bind(at);
  out.connect(at);

  proto::CreditMessage old;
  old.set_version(static_cast<proto::ProtoVersion>(2));
  old.mutable_ready()->set_worker_id("w");
  REQUIRE(bus::send_proto(out, old));
  REQUIRE(bus::send_proto(out, old));
  proto::CreditMessage good;
  good.mutable_ready()->set_worker_id("w2");
  Channel<proto::CreditMessage> stamped(std::move(out), "credits out");
  REQUIRE(stamped.send(good));

  proto::CreditMessage got;
  wait_readable(in.socket());
  CHECK(in.receive(got) == Received::kRejected);
  wait_readable(in.socket());
  CHECK(in.receive(got) == Received::kRejected);
  CHECK(in.rejected() == 2);
  wait_readable(in.socket());
  REQUIRE(in.receive(got) == Received::kMessage);
  CHECK(got.ready().worker_id() == "w2");
  CHECK(in.rejected() == 2);
}

TEST_CASE("channel: a malformed frame is rejected") {
  Channel<proto::RawRecordBatch> in(bus::make_socket(zmq::socket_type::pull), "raw in");
  zmq::socket_t out = bus::make_socket(zmq::socket_type::push);
  const std::string at = address("malformed");
  in.socket().bind(at);
  out.connect(at);

  // Field 2 as a length-delimited field claiming 100 bytes, with 1 present.
  const char garbage[] = {0x12, 100, 'x'};
  REQUIRE(out.send(zmq::buffer(garbage, sizeof(garbage))));
  proto::RawRecordBatch got;
  wait_readable(in.socket());
  CHECK(in.receive(got) == Received::kRejected);
  CHECK(in.rejected() == 1);
  CHECK(in.receive(got) == Received::kNone);
}

TEST_CASE("channel: ROUTER identity round trip, and the dataset's two receivers check the version") {
  // The dataset service's ROUTER and a worker's DEALER, as the services build them.
  Channel<proto::ConversationResponse, proto::ConversationRequest> router(bus::make_socket(zmq::socket_type::router),
                                                                          "dataset requests");
  Channel<proto::ConversationRequest, proto::ConversationResponse> dealer(bus::make_socket(zmq::socket_type::dealer),
                                                                          "dataset replies");
  dealer.socket().set(zmq::sockopt::routing_id, "worker_3");
  const std::string at = address("router");
  router.socket().bind(at);
  dealer.socket().connect(at);

  proto::ConversationRequest req;
  req.set_conversation_id("conv_9");
  REQUIRE(dealer.send(req));
  zmq::message_t identity;
  proto::ConversationRequest got_req;
  wait_readable(router.socket());
  REQUIRE(router.receive(identity, got_req) == Received::kMessage);
  CHECK(identity.to_string() == "worker_3");
  CHECK(got_req.conversation_id() == "conv_9");
  CHECK(got_req.version() == proto::PROTO_VERSION_CURRENT);

  proto::ConversationResponse resp;
  resp.mutable_conversation()->set_session_id("conv_9");
  REQUIRE(router.send_to(identity.to_string_view(), resp));
  proto::ConversationResponse got_resp;
  wait_readable(dealer.socket());
  REQUIRE(dealer.receive(got_resp) == Received::kMessage);
  CHECK(got_resp.conversation().session_id() == "conv_9");

  SECTION("the dataset service rejects a request of another version, and still knows whom to tell") {
    proto::ConversationRequest old;
    old.set_version(static_cast<proto::ProtoVersion>(2));
    old.set_conversation_id("conv_1");
    REQUIRE(dealer.send(old));  // a version set by the caller is sent as set
    wait_readable(router.socket());
    CHECK(router.receive(identity, got_req) == Received::kRejected);
    CHECK(identity.to_string() == "worker_3");
    CHECK(router.rejected() == 1);
  }
  SECTION("the worker rejects a response of another version") {
    proto::ConversationResponse old;
    old.set_version(static_cast<proto::ProtoVersion>(2));
    old.mutable_conversation()->set_session_id("conv_1");
    REQUIRE(router.send_to("worker_3", old));
    wait_readable(dealer.socket());
    CHECK(dealer.receive(got_resp) == Received::kRejected);
    CHECK(dealer.rejected() == 1);
  }
}
