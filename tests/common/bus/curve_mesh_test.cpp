// CURVE on real ZeroMQ tcp sockets in one process: a socket bound through bus::bind accepts
// the controller's own key and authorised worker keys, and refuses (and logs) any other key and
// any client without CURVE. The server's socket monitor proves each refused handshake happened.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <filesystem>
#include <fstream>
#include <set>

#include <zmq.hpp>

#include "bus/mesh_keys.h"
#include "bus/mesh_security.h"
#include "bus/socket.h"
#include "bus/zap_handler.h"
#include "log/log.h"
#include "time/clock.h"
#include "test_files.h"

namespace fs = std::filesystem;
using namespace aiperf;
using namespace aiperf::bus;

using aiperf::test::slurp;
namespace {

std::string temp_dir() {
  char tmpl[] = "/tmp/aiperf-curve-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The process-wide identity can be installed once: every test shares this controller host.
struct Mesh {
  std::string dir = temp_dir();
  std::string log = dir + "/aiperf.log";
  Mesh() {
    log::init("curve_test", log, log::Level::kInfo);
    install_mesh_security(controller_mesh(dir, /*create=*/true));
  }
};
Mesh& mesh() {
  static Mesh m;
  return m;
}

zmq::socket_t curve_client(zmq::socket_type type, const KeyPair& own, const std::string& server_public) {
  zmq::socket_t s = make_socket(type);
  s.set(zmq::sockopt::curve_serverkey, server_public);
  s.set(zmq::sockopt::curve_publickey, own.public_z85);
  s.set(zmq::sockopt::curve_secretkey, own.secret_z85);
  return s;
}

// Handshake failures seen by a monitored socket, by event.
struct HandshakeFailures {
  int auth = 0;      // ZAP said no
  int protocol = 0;  // e.g. a client without CURVE (mechanism mismatch)
};

class Monitor {
 public:
  Monitor(zmq::socket_t& socket, const std::string& name) : pair_(context(), zmq::socket_type::pair) {
    const std::string addr = "inproc://monitor-" + name;
    REQUIRE(zmq_socket_monitor(socket.handle(), addr.c_str(),
                               ZMQ_EVENT_HANDSHAKE_FAILED_AUTH | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL) == 0);
    pair_.connect(addr);
  }
  // Reads events until `done` holds or the deadline passes.
  bool wait(const std::function<bool(const HandshakeFailures&)>& done, int timeout_ms) {
    const int64_t deadline = steady_now_ns() + int64_t{timeout_ms} * 1'000'000;
    while (!done(seen_)) {
      const int64_t left_ms = (deadline - steady_now_ns()) / 1'000'000;
      if (left_ms <= 0) return false;
      zmq::pollitem_t item{pair_.handle(), 0, ZMQ_POLLIN, 0};
      zmq::poll(&item, 1, std::chrono::milliseconds(left_ms));
      zmq::message_t event, address;
      if (!pair_.recv(event, zmq::recv_flags::dontwait)) continue;
      (void)pair_.recv(address);
      uint16_t id;
      std::memcpy(&id, event.data(), sizeof id);
      if (id == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH) ++seen_.auth;
      if (id == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL) ++seen_.protocol;
    }
    return true;
  }

 private:
  zmq::socket_t pair_;
  HandshakeFailures seen_;
};

std::set<std::string> drain(zmq::socket_t& pull, size_t want, int timeout_ms) {
  std::set<std::string> got;
  const int64_t deadline = steady_now_ns() + int64_t{timeout_ms} * 1'000'000;
  while (got.size() < want) {
    const int64_t left_ms = (deadline - steady_now_ns()) / 1'000'000;
    if (left_ms <= 0) break;
    zmq::pollitem_t item{pull.handle(), 0, ZMQ_POLLIN, 0};
    zmq::poll(&item, 1, std::chrono::milliseconds(left_ms));
    zmq::message_t m;
    while (pull.recv(m, zmq::recv_flags::dontwait)) got.insert(m.to_string());
  }
  return got;
}

}  // namespace

TEST_CASE("a CURVE server accepts the controller's and authorised keys and refuses the rest") {
  Mesh& m = mesh();
  zmq::socket_t server = make_socket(zmq::socket_type::pull);
  Monitor monitor(server, "refusals");
  bus::bind(server, "tcp://127.0.0.1:*");
  const std::string endpoint = server.get(zmq::sockopt::last_endpoint);

  // Refused first, so their handshakes provably ran before the good messages arrive.
  const KeyPair stranger = generate_key_pair();
  zmq::socket_t intruder = curve_client(zmq::socket_type::push, stranger, mesh_security()->server_public);
  intruder.connect(endpoint);
  zmq::socket_t plain = make_socket(zmq::socket_type::push);
  plain.connect(endpoint);
  REQUIRE(intruder.send(zmq::str_buffer("intruder"), zmq::send_flags::dontwait));
  REQUIRE(plain.send(zmq::str_buffer("plain"), zmq::send_flags::dontwait));
  REQUIRE(monitor.wait([](const HandshakeFailures& f) { return f.auth >= 1 && f.protocol >= 1; }, 20'000));

  zmq::socket_t local = make_socket(zmq::socket_type::push);  // the controller host's own key
  bus::connect(local, endpoint);
  zmq::socket_t worker = curve_client(zmq::socket_type::push, *load_key_pair(m.dir, "worker"),
                                      load_public_key(m.dir, "controller"));
  worker.connect(endpoint);
  REQUIRE(local.send(zmq::str_buffer("local")));
  REQUIRE(worker.send(zmq::str_buffer("worker")));
  CHECK(drain(server, 2, 20'000) == std::set<std::string>{"local", "worker"});
  // The refused clients keep reconnecting and keep failing; nothing of theirs ever arrives.
  CHECK(drain(server, 1, 300).empty());

  const std::string log = slurp(m.log);
  CHECK(count_of(log, "mesh: refused CURVE client key " + stranger.public_z85 + " from 127.0.0.1 on tcp://127.0.0.1:* (not in " +
                          m.dir + "/authorized/; attempt 1)") == 1);
  // Every refusal line names the stranger: the plain client never reaches ZAP, the good ones pass.
  CHECK(count_of(log, "refused CURVE client key") == count_of(log, "refused CURVE client key " + stranger.public_z85));
}

TEST_CASE("a key copied into authorized/ during a run is accepted without a restart") {
  Mesh& m = mesh();
  zmq::socket_t server = make_socket(zmq::socket_type::pull);
  bus::bind(server, "tcp://127.0.0.1:*");
  const std::string endpoint = server.get(zmq::sockopt::last_endpoint);
  const KeyPair late = generate_key_pair();
  std::ofstream(fs::path(m.dir) / "authorized" / "late.pub") << late.public_z85 << "\n";
  zmq::socket_t client = curve_client(zmq::socket_type::push, late, mesh_security()->server_public);
  client.connect(endpoint);
  REQUIRE(client.send(zmq::str_buffer("late")));
  CHECK(drain(server, 1, 20'000) == std::set<std::string>{"late"});
}

TEST_CASE("refusals of one key from one address are logged once, then at most every 10 s") {
  Mesh& m = mesh();
  ZapAuthorizer authorizer(m.dir, {});
  const std::string key = generate_key_pair().public_z85;
  const int64_t s = 1'000'000'000;
  CHECK_FALSE(authorizer.allow(key, "10.1.2.3", "tcp://x:1", 100 * s));
  CHECK_FALSE(authorizer.allow(key, "10.1.2.3", "tcp://x:1", 101 * s));
  CHECK_FALSE(authorizer.allow(key, "10.1.2.3", "tcp://x:1", 109 * s));
  CHECK_FALSE(authorizer.allow(key, "10.1.2.3", "tcp://x:1", 110 * s));  // 10 s after the first log
  CHECK_FALSE(authorizer.allow(key, "10.9.9.9", "tcp://x:1", 110 * s));  // another address: its own first
  CHECK(authorizer.refusals() == 5);
  const std::string log = slurp(m.log);
  CHECK(count_of(log, key + " from 10.1.2.3") == 2);
  CHECK(count_of(log, key + " from 10.1.2.3 on tcp://x:1 (not in " + m.dir + "/authorized/; attempt 4)") == 1);
  CHECK(count_of(log, key + " from 10.9.9.9") == 1);
  // The always-allowed key and the authorised worker key need no log line.
  ZapAuthorizer with_own(m.dir, {key});
  CHECK(with_own.allow(key, "10.1.2.3", "tcp://x:1", 0));
  CHECK(with_own.allow(load_public_key(m.dir, "worker"), "10.1.2.3", "tcp://x:1", 0));
  CHECK(with_own.refusals() == 0);
}

TEST_CASE("ipc endpoints stay plain even with a mesh identity installed") {
  mesh();
  const std::string dir = temp_dir();
  zmq::socket_t server = make_socket(zmq::socket_type::pull);
  bus::bind(server, "ipc://" + dir + "/x.ipc");
  CHECK(server.get(zmq::sockopt::mechanism) == ZMQ_NULL);
  zmq::socket_t client = make_socket(zmq::socket_type::push);  // no keys at all
  client.connect("ipc://" + dir + "/x.ipc");
  REQUIRE(client.send(zmq::str_buffer("ipc")));
  CHECK(drain(server, 1, 20'000) == std::set<std::string>{"ipc"});
}

TEST_CASE("loopback hosts") {
  CHECK(is_loopback_host("127.0.0.1"));
  CHECK(is_loopback_host("127.1.2.3"));
  CHECK(is_loopback_host("localhost"));
  CHECK(is_loopback_host("::1"));
  CHECK_FALSE(is_loopback_host("10.0.0.1"));
  CHECK_FALSE(is_loopback_host("0.0.0.0"));
  CHECK_FALSE(is_loopback_host("gpu-01"));
}
