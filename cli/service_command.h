// `aiperf service --type T ...` (spawned by the controller) and `aiperf worker --controller
// tcp://HOST:PORT` (a worker started by hand, possibly on another host).
#pragma once
#include <string>

namespace aiperf::cli {

struct ServiceArgs {
  std::string type;
  std::string service_id;
  uint32_t index = 0;      // replica number (record processors: which raw endpoint to bind)
  std::string controller;  // ipc://DIR or tcp://HOST:PORT
  std::string log_file;
  std::string log_level = "INFO";
  std::string mesh_keys;   // CURVE key folder (docs/mesh.md); used on tcp:// only
  bool joined = false;     // `aiperf worker`: authenticates with the worker key, not the controller's
};

// Runs the service in this process; returns its exit code (2 for bad arguments).
int run_service(const ServiceArgs& args);

}  // namespace aiperf::cli
