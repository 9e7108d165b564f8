#include "proxies.h"

#include <stdexcept>

#include <zmq.hpp>

#include "bus/mesh_security.h"
#include "bus/socket.h"

namespace aiperf::controller {
namespace {

void start_proxy(zmq::socket_type front_type, zmq::socket_type back_type, const std::string& front,
                 const std::string& back) {
  auto frontend = std::make_shared<zmq::socket_t>(bus::make_socket(front_type));
  auto backend = std::make_shared<zmq::socket_t>(bus::make_socket(back_type));
  if (back_type == zmq::socket_type::xpub) backend->set(zmq::sockopt::xpub_verbose, 1);
  // CURVE servers on tcp:// when the mesh has keys (bus/mesh_security.h).
  bus::bind(*frontend, front);
  bus::bind(*backend, back);
  // Detached: the proxy lives as long as the process; the context is never terminated.
  std::thread([frontend, backend] {
    try {
      zmq::proxy(*frontend, *backend);
    } catch (const zmq::error_t&) {
    }
  }).detach();
}

}  // namespace

Proxies::Proxies(const bus::Endpoints& e) {
  start_proxy(zmq::socket_type::xsub, zmq::socket_type::xpub, e.bus_frontend, e.bus_backend);
  // On one host workers send raw results to the record processors directly (raw_direct).
  if (!e.raw_direct(0)) start_proxy(zmq::socket_type::pull, zmq::socket_type::push, e.raw_frontend, e.raw_backend);
}

}  // namespace aiperf::controller
