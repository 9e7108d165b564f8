#include "mesh_keys_command.h"

#include <iostream>
#include <memory>
#include <string>

#include "bus/mesh_keys.h"

namespace aiperf::cli {

std::function<int()> add_mesh_keys_command(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("mesh-keys", "Create the CURVE key folder for --mesh-keys (existing keys are kept)");
  cmd->add_option("DIR", *dir, "Key folder")->required();
  return [dir] {
    try {
      const bus::KeyPair controller = bus::prepare_controller_keys(*dir);
      std::cout << "Mesh keys in " << *dir << "\n"
                << "  controller public key: " << controller.public_z85 << "\n"
                << "  accepted worker keys:  " << bus::load_authorized(*dir).size() << "\n"
                << "Copy the folder to every worker host (controller.secret may be left out there);\n"
                << "pass it as --mesh-keys to `aiperf profile` and `aiperf worker`.\n";
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "Error: " << e.what() << "\n";
      return 1;
    }
  };
}

}  // namespace aiperf::cli
