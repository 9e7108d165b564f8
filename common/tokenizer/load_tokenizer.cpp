// load_tokenizer(): picks the implementation from what the local path holds.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/spm_tokenizer.h"
#include "tokenizer/tiktoken_tokenizer.h"
#include "tokenizer/tokenizer_cache.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

namespace fs = std::filesystem;

namespace {

// tokenizer_config.json beside tokenizer.json is optional; an unreadable one is ignored
// because it only supplies the BOS/EOS names.
nlohmann::json read_optional_config(const fs::path& dir) {
  fs::path p = dir / "tokenizer_config.json";
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return nullptr;
  std::ifstream in(p, std::ios::binary);
  auto j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? nlohmann::json() : j;
}

TokenizerPtr load_hf_json(const fs::path& file, const std::string& cache_dir) {
  return load_hf_json_cached(file, read_optional_config(file.parent_path()), cache_dir);
}

// The single *.tiktoken file of `dir`, or empty when there is none or several.
fs::path only_tiktoken_file(const fs::path& dir) {
  fs::path found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".tiktoken") continue;
    if (!found.empty()) return {};
    found = entry.path();
  }
  return found;
}

}  // namespace

TokenizerPtr load_tokenizer(const std::string& path, const std::string& cache_dir) {
  fs::path file = path;
  std::error_code ec;
  if (fs::is_directory(file, ec)) {
    // transformers prefers tokenizer.json over tokenizer.model when a repo has both.
    if (fs::is_regular_file(file / "tokenizer.json", ec)) return load_hf_json(file / "tokenizer.json", cache_dir);
    if (fs::is_regular_file(file / "tokenizer.model", ec)) {
      return std::make_unique<SpmTokenizer>((file / "tokenizer.model").string());
    }
    if (fs::path t = only_tiktoken_file(file); !t.empty()) return std::make_unique<TiktokenTokenizer>(t.string());
    throw TokenizerError("tokenizer directory " + file.string() +
                         " holds neither tokenizer.json, tokenizer.model nor one *.tiktoken file");
  }
  if (!fs::is_regular_file(file, ec)) throw TokenizerError("tokenizer file not found: " + file.string());
  if (file.extension() == ".tiktoken") return std::make_unique<TiktokenTokenizer>(file.string());
  if (file.extension() == ".model") return std::make_unique<SpmTokenizer>(file.string());
  return load_hf_json(file, cache_dir);
}

}  // namespace aiperf::tok
