// load_tokenizer() and resolve_tokenizer_path(): the file-system boundary of the tokenizer.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw TokenizerError("cannot read tokenizer file " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

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

}  // namespace

TokenizerPtr load_tokenizer(const std::string& path) {
  fs::path file = path;
  std::error_code ec;
  if (fs::is_directory(file, ec)) file /= "tokenizer.json";
  if (!fs::is_regular_file(file, ec)) throw TokenizerError("tokenizer file not found: " + file.string());

  nlohmann::json json;
  try {
    json = nlohmann::json::parse(read_file(file));
  } catch (const nlohmann::json::exception& e) {
    throw TokenizerError(file.string() + ": invalid JSON: " + e.what());
  }
  try {
    return std::make_unique<HfTokenizer>(json, read_optional_config(file.parent_path()));
  } catch (const TokenizerError& e) {
    throw TokenizerError(file.string() + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw TokenizerError(file.string() + ": malformed tokenizer.json: " + e.what());
  }
}

std::string resolve_tokenizer_path(const std::string& name_or_path) {
  std::error_code ec;
  if (fs::exists(name_or_path, ec)) return name_or_path;
  // Bundled tokenizers live in <prefix>/share/aiperf/tokenizers, next to <prefix>/bin.
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && !name_or_path.empty() && name_or_path.find('/') == std::string::npos) {
    fs::path bundled = exe.parent_path() / ".." / "share" / "aiperf" / "tokenizers" / name_or_path;
    if (fs::is_regular_file(bundled / "tokenizer.json", ec)) return bundled.lexically_normal().string();
  }
  throw TokenizerError("tokenizer '" + name_or_path +
                       "' not found: not a local file or directory and not a bundled tokenizer "
                       "(bundled: gpt2); pass --tokenizer <dir with tokenizer.json>");
}

}  // namespace aiperf::tok
