// The controller's mesh identity, decided before anything binds: with --mesh-keys on tcp every
// socket of the run is CURVE-authenticated (bus/mesh_security.h, docs/mesh.md); a tcp mesh
// reachable from other hosts without keys gets a warning, since anyone who can reach the ports
// can join it, read the prompts and forge commands.
#pragma once
#include "config/service_config.h"

namespace aiperf::controller {

// Installs the CURVE identity (creating missing keys) when the config asks for it; throws
// bus::MeshKeyError on bad key material. Returns true if the mesh is authenticated.
bool setup_mesh(const config::ServiceConfig& service);

}  // namespace aiperf::controller
