#include "bus/endpoints.h"

#include <stdexcept>

namespace aiperf::bus {

Endpoints Endpoints::ipc(const std::string& dir) {
  auto at = [&](const char* name) { return "ipc://" + dir + "/" + name + ".ipc"; };
  return {at("bus_frontend"), at("bus_backend"), at("credit"),  at("dataset"),
          at("raw_frontend"), at("raw_backend"), at("records"), dir};
}

std::optional<std::string> Endpoints::raw_direct(uint32_t index) const {
  if (ipc_dir.empty()) return std::nullopt;
  return "ipc://" + ipc_dir + "/raw_" + std::to_string(index) + ".ipc";
}

Endpoints Endpoints::tcp(const std::string& host, uint16_t base) {
  auto at = [&](int k) { return "tcp://" + host + ":" + std::to_string(base + k); };
  return {at(0), at(1), at(2), at(3), at(4), at(5), at(6), ""};
}

Endpoints Endpoints::from_controller_address(const std::string& address) {
  if (address.rfind("ipc://", 0) == 0) return ipc(address.substr(6));
  if (address.rfind("tcp://", 0) != 0)
    throw std::invalid_argument("controller address must be tcp://HOST:PORT or ipc://DIR: " + address);
  std::string rest = address.substr(6);
  auto colon = rest.rfind(':');
  if (colon == std::string::npos || colon + 1 >= rest.size())
    throw std::invalid_argument("controller address has no port: " + address);
  int port = 0;
  try {
    port = std::stoi(rest.substr(colon + 1));
  } catch (const std::exception&) {
    throw std::invalid_argument("controller address has an invalid port: " + address);
  }
  if (port <= 0 || port + kTcpPortCount - 1 > 65535)
    throw std::invalid_argument("controller port out of range: " + address);
  return tcp(rest.substr(0, colon), static_cast<uint16_t>(port));
}

}  // namespace aiperf::bus
