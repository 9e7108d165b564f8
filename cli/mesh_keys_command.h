// `aiperf mesh-keys DIR`: creates the CURVE key folder for --mesh-keys ahead of a run (what
// `aiperf profile --mesh-keys DIR` also does on first use), for deployments that distribute
// the folder before anything starts (docs/mesh.md).
#pragma once
#include <functional>

#include <CLI/CLI.hpp>

namespace aiperf::cli {

// Registers the subcommand on `app`; the returned function runs it (call only when the
// subcommand was selected) and returns the exit code.
std::function<int()> add_mesh_keys_command(CLI::App& app);

}  // namespace aiperf::cli
