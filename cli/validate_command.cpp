#include "validate_command.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "validate_mooncake.h"

namespace aiperf::cli {

std::function<int()> add_validate_command(CLI::App& app) {
  struct Args {
    std::string target;
    std::string input;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("validate", "Validate a benchmark artifact (aiperf validate mooncake-trace --input FILE)");
  cmd->add_option("target,--target", args->target, "Artifact format to validate")
      ->required()
      ->check(CLI::IsMember({"mooncake-trace"}));
  cmd->add_option("--input", args->input, "Path to the artifact file")->required();
  return [args]() -> int {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(args->input, ec)) {
      std::cout << "Validation failed: " << args->input << " is not a file.\n";
      return 1;
    }
    try {
      const validate::Result r = validate::validate_mooncake_file(args->input);
      if (!r.errors.empty()) {
        std::cout << "Validation failed with " << r.errors.size() << " error(s):\n";
        for (const std::string& e : r.errors) std::cout << "  " << e << "\n";
        return 1;
      }
      std::cout << "Validation passed: " << r.rows << " rows are Mooncake-compatible.\n";
      return 0;
    } catch (const std::exception& e) {
      std::cout << "Validation failed: " << e.what() << "\n";
      return 1;
    }
  };
}

}  // namespace aiperf::cli
