#include "tokenize_command.h"

#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "environment.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::cli {

namespace {

// One input line -> one output line; throws std::invalid_argument saying what was expected.
std::string process_line(const tok::Tokenizer& tokenizer, const std::string& line, bool decode, bool skip_special) {
  const auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw std::invalid_argument("not valid JSON");
  if (decode) {
    if (!j.is_object() || !j.contains("ids") || !j["ids"].is_array()) {
      throw std::invalid_argument("expected {\"ids\": [integers]}");
    }
    std::vector<tok::TokenId> ids;
    ids.reserve(j["ids"].size());
    for (const auto& v : j["ids"]) {
      if (!v.is_number_integer()) throw std::invalid_argument("\"ids\" must hold only integers");
      ids.push_back(v.get<tok::TokenId>());
    }
    return nlohmann::json{{"text", tokenizer.decode(ids, skip_special)}}.dump();
  }
  if (!j.is_object() || !j.contains("text") || !j["text"].is_string()) {
    throw std::invalid_argument("expected {\"text\": string}");
  }
  return nlohmann::json{{"ids", tokenizer.encode(j["text"].get_ref<const std::string&>())}}.dump();
}

}  // namespace

std::function<int()> add_tokenize_command(CLI::App& app) {
  struct Args {
    std::string tokenizer = "gpt2";
    std::string revision = "main";
    bool decode = false;
    bool skip_special = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("tokenize", "Encode {\"text\"} / decode {\"ids\"} JSON lines from stdin");
  cmd->add_option("--tokenizer", args->tokenizer,
                  "Tokenizer: local dir/file (tokenizer.json, .model, .tiktoken), bundled name, "
                  "tiktoken encoding name or HuggingFace Hub repo id");
  cmd->add_option("--tokenizer-revision", args->revision, "Hub revision (branch, tag or commit) of --tokenizer");
  cmd->add_flag("--decode", args->decode, "Decode {\"ids\": [...]} lines instead of encoding");
  cmd->add_flag("--skip-special-tokens", args->skip_special, "With --decode: drop special tokens");
  return [args]() -> int {
    tok::TokenizerPtr tokenizer;
    try {
      const tok::HubEnv env = hub_env();
      tokenizer = tok::load_tokenizer(tok::resolve_tokenizer_path(args->tokenizer, args->revision, true, env),
                                      env.tokenizer_cache);
    } catch (const tok::TokenizerError& e) {
      std::cerr << "Error: --tokenizer: " << e.what() << "\n";
      return 2;
    }
    std::string line;
    for (size_t n = 1; std::getline(std::cin, line); ++n) {
      try {
        std::cout << process_line(*tokenizer, line, args->decode, args->skip_special) << "\n";
      } catch (const std::exception& e) {
        std::cout.flush();
        std::cerr << "Error: stdin line " << n << ": " << e.what() << "\n";
        return 2;
      }
    }
    std::cout.flush();
    return std::cout ? 0 : 1;
  };
}

}  // namespace aiperf::cli
