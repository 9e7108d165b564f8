// The controller's ZeroMQ proxies, each on its own thread: the event bus (XSUB|XPUB) and, on
// tcp, the raw-results fan-in (PULL|PUSH, fair-queued to record processors; on ipc workers
// reach the record processors directly). Bound before any child starts, so children only
// ever connect.
#pragma once
#include <thread>

#include "bus/endpoints.h"

namespace aiperf::controller {

class Proxies {
 public:
  // Binds all proxy sockets (throws zmq::error_t naming the endpoint on failure) and starts
  // the threads. The threads run until the process exits.
  explicit Proxies(const bus::Endpoints& endpoints);
};

}  // namespace aiperf::controller
