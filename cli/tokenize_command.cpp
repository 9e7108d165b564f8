#include "tokenize_command.h"

#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "tokenizer/tokenizer.h"

namespace aiperf::cli {

std::function<int()> add_tokenize_command(CLI::App& app) {
  struct Args {
    std::string tokenizer = "gpt2";
    bool decode = false;
    bool skip_special = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("tokenize", "Encode {\"text\"} / decode {\"ids\"} JSON lines from stdin");
  cmd->add_option("--tokenizer", args->tokenizer, "Tokenizer: local dir/file or bundled name");
  cmd->add_flag("--decode", args->decode, "Decode {\"ids\": [...]} lines instead of encoding");
  cmd->add_flag("--skip-special-tokens", args->skip_special, "With --decode: drop special tokens");
  return [args]() -> int {
    tok::TokenizerPtr tokenizer;
    try {
      tokenizer = tok::load_tokenizer(tok::resolve_tokenizer_path(args->tokenizer));
    } catch (const tok::TokenizerError& e) {
      std::cerr << "Error: --tokenizer: " << e.what() << "\n";
      return 2;
    }
    std::string line;
    for (size_t n = 1; std::getline(std::cin, line); ++n) {
      const auto j = nlohmann::json::parse(line, nullptr, false);
      try {
        if (j.is_discarded()) throw std::runtime_error("not JSON");
        if (args->decode) {
          std::vector<tok::TokenId> ids = j.at("ids").get<std::vector<tok::TokenId>>();
          std::cout << nlohmann::json{{"text", tokenizer->decode(ids, args->skip_special)}}.dump() << "\n";
        } else {
          std::cout << nlohmann::json{{"ids", tokenizer->encode(j.at("text").get<std::string>())}}.dump() << "\n";
        }
      } catch (const std::exception& e) {
        std::cerr << "Error: stdin line " << n << ": " << e.what() << "\n";
        return 2;
      }
    }
    return 0;
  };
}

}  // namespace aiperf::cli
