// Mesh security: this process's CURVE identity, applied to every tcp:// socket through
// bus::bind / bus::connect (ipc:// sockets stay plain: the private 0700 folder guards them).
// Bound sockets become CURVE servers with the controller's key pair and consult the ZAP
// handler; connecting sockets become CURVE clients of the controller's public key.
// Installed once at process start (controller, its children, `aiperf worker`); without it
// tcp sockets are plain, as before.
#pragma once
#include <string>

#include <zmq.hpp>

#include "bus/mesh_keys.h"

namespace aiperf::bus {

struct MeshSecurity {
  std::string dir;                // the --mesh-keys folder (authorized/ is read from it)
  std::string server_public;      // the controller's public key: every client's server key
  KeyPair own;                    // this process's key pair as a client
  std::string server_secret;      // the controller's secret: only on the controller host, to bind
};

// Controller host (the controller and the services it spawns): creates missing keys
// (`create`, the controller only), serves and connects with the controller's key pair.
MeshSecurity controller_mesh(const std::string& dir, bool create);
// A worker joining from anywhere: connects with its worker key pair, never binds.
MeshSecurity worker_mesh(const std::string& dir);

// Makes `security` this process's identity; a process that may bind also starts its ZAP handler.
void install_mesh_security(const MeshSecurity& security);
// nullptr when the mesh is unauthenticated.
const MeshSecurity* mesh_security();

// socket.bind / socket.connect, with CURVE on tcp:// when a mesh identity is installed.
// bind throws std::runtime_error naming the endpoint on failure.
void bind(zmq::socket_t& socket, const std::string& endpoint);
void connect(zmq::socket_t& socket, const std::string& endpoint);

// True for 127.0.0.0/8, ::1 and "localhost": a mesh that no other host can reach.
bool is_loopback_host(const std::string& host);

}  // namespace aiperf::bus
