#include "bus/mesh_security.h"

#include <arpa/inet.h>

#include <memory>
#include <stdexcept>

#include "bus/zap_handler.h"

namespace aiperf::bus {
namespace {

// Written once at process start, before any socket exists; read-only afterwards.
std::unique_ptr<MeshSecurity>& installed() {
  static std::unique_ptr<MeshSecurity> security;
  return security;
}

bool is_tcp(const std::string& endpoint) { return endpoint.rfind("tcp://", 0) == 0; }

}  // namespace

MeshSecurity controller_mesh(const std::string& dir, bool create) {
  MeshSecurity s;
  s.dir = dir;
  if (create) {
    s.own = prepare_controller_keys(dir);
  } else {
    auto pair = load_key_pair(dir, "controller");
    if (!pair) throw MeshKeyError("mesh key file " + dir + "/controller.secret is missing");
    s.own = *pair;
  }
  s.server_public = s.own.public_z85;
  s.server_secret = s.own.secret_z85;
  return s;
}

MeshSecurity worker_mesh(const std::string& dir) {
  const WorkerKeys keys = prepare_worker_keys(dir);
  MeshSecurity s;
  s.dir = dir;
  s.server_public = keys.controller_public;
  s.own = keys.own;
  return s;
}

void install_mesh_security(const MeshSecurity& security) {
  installed() = std::make_unique<MeshSecurity>(security);
  // The controller host's own processes authenticate with the controller's key, which needs
  // no file in authorized/.
  if (!security.server_secret.empty()) start_zap_handler(security.dir, {security.server_public});
}

const MeshSecurity* mesh_security() { return installed().get(); }

void bind(zmq::socket_t& socket, const std::string& endpoint) {
  const MeshSecurity* s = mesh_security();
  if (s && is_tcp(endpoint)) {
    if (s->server_secret.empty())
      throw std::runtime_error("cannot bind " + endpoint + ": this process has no controller key to serve CURVE");
    socket.set(zmq::sockopt::curve_server, 1);
    socket.set(zmq::sockopt::curve_secretkey, s->server_secret);
    socket.set(zmq::sockopt::zap_domain, endpoint);  // named in refusal logs
  }
  try {
    socket.bind(endpoint);
  } catch (const zmq::error_t& e) {
    throw std::runtime_error("cannot bind " + endpoint + ": " + e.what());
  }
}

void connect(zmq::socket_t& socket, const std::string& endpoint) {
  const MeshSecurity* s = mesh_security();
  if (s && is_tcp(endpoint)) {
    socket.set(zmq::sockopt::curve_serverkey, s->server_public);
    socket.set(zmq::sockopt::curve_publickey, s->own.public_z85);
    socket.set(zmq::sockopt::curve_secretkey, s->own.secret_z85);
  }
  socket.connect(endpoint);
}

bool is_loopback_host(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

}  // namespace aiperf::bus
