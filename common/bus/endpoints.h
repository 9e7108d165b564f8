// Endpoints: the address of every ZeroMQ channel of one run. On one host they are ipc://
// files in a private directory; across hosts tcp://HOST:BASE+k with a fixed port layout, so a
// remote worker needs only the controller's host and base port.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace aiperf::bus {

struct Endpoints {
  std::string bus_frontend;   // XSUB (controller binds); services PUB connect
  std::string bus_backend;    // XPUB (controller binds); services SUB connect
  std::string credit;         // timing ROUTER binds; workers DEALER connect
  std::string dataset;        // dataset ROUTER binds; workers DEALER connect
  std::string raw_frontend;   // tcp: controller proxy PULL binds; workers PUSH connect
  std::string raw_backend;    // tcp: controller proxy PUSH binds; record processors PULL connect
  std::string records;        // records service PULL binds; record processors PUSH connect
  std::string ipc_dir;        // ipc: the run's directory; empty on tcp

  // Raw results go straight from workers to record processors on one host: record processor
  // `index` binds this and every worker connects to all of them. nullopt on tcp, where the
  // controller's fan-in (raw_frontend -> raw_backend) keeps the port layout fixed for remote
  // workers.
  std::optional<std::string> raw_direct(uint32_t index) const;

  static Endpoints ipc(const std::string& dir);
  static Endpoints tcp(const std::string& host, uint16_t base_port);
  // "tcp://HOST:PORT" (PORT = base port) or "ipc://DIR"; throws std::invalid_argument.
  static Endpoints from_controller_address(const std::string& address);
};

// Port offsets from the base port, in the order above.
inline constexpr int kTcpPortCount = 7;

}  // namespace aiperf::bus
