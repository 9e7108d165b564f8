#include "mesh_setup.h"

#include "bus/mesh_security.h"
#include "log/log.h"

namespace aiperf::controller {

bool setup_mesh(const config::ServiceConfig& service) {
  if (service.zmq_host.empty()) {
    // ipc:// files live in a private folder: nothing to authenticate, nothing to warn about.
    if (!service.mesh_keys.empty()) AIPERF_LOG(kInfo) << "--mesh-keys ignored: the mesh uses ipc:// (no --zmq-host)";
    return false;
  }
  if (service.mesh_keys.empty()) {
    if (!bus::is_loopback_host(service.zmq_host))
      AIPERF_LOG(kWarning) << "the tcp mesh on " << service.zmq_host
                           << " is unauthenticated: any host that reaches its ports can join or forge commands; "
                              "use --mesh-keys DIR (docs/mesh.md)";
    return false;
  }
  bus::install_mesh_security(bus::controller_mesh(service.mesh_keys, /*create=*/true));
  AIPERF_LOG(kInfo) << "mesh authenticated with CURVE keys from " << service.mesh_keys;
  return true;
}

}  // namespace aiperf::controller
