#include "tokenizer/tokenizer_cache.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "tokenizer/binary_io.h"
#include "tokenizer/bpe_model.h"
#include "tokenizer/hf_tokenizer.h"

namespace aiperf::tok {

namespace fs = std::filesystem;

namespace {

// Bumped whenever the binary form or what the JSON constructor builds changes.
constexpr std::string_view kMagic = "aiperf-tokenizer-cache 1\n";

// The whole file; nullopt when it cannot be opened.
std::optional<std::string> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// What identifies one version of one tokenizer.json, as text; empty when it cannot be read.
std::string identity_of(const fs::path& file) {
  std::error_code ec;
  const fs::path abs = fs::absolute(file, ec);
  const auto size = fs::file_size(file, ec);
  if (ec) return {};
  const auto mtime = fs::last_write_time(file, ec);
  if (ec) return {};
  return abs.string() + '\n' + std::to_string(size) + '\n' +
         std::to_string(mtime.time_since_epoch().count()) + '\n';
}

std::string cache_name(const std::string& identity) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a: a file name, not security
  for (unsigned char c : identity) h = (h ^ c) * 1099511628211ull;
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.bin", static_cast<unsigned long long>(h));
  return name;
}

// The cache file: magic, identity, the tokenizer.json without its vocab and merges, the model.
TokenizerPtr read_cache(const fs::path& path, const std::string& identity, const nlohmann::json& config) {
  const std::optional<std::string> data = slurp(path);
  std::string_view rest = data ? std::string_view(*data) : std::string_view();
  if (!rest.starts_with(kMagic)) return nullptr;
  rest.remove_prefix(kMagic.size());
  if (!rest.starts_with(identity)) return nullptr;  // another file with the same hash
  binary::Reader r(rest.substr(identity.size()));
  std::string_view text;
  if (!r.get_string(text)) return nullptr;
  const auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return nullptr;
  std::unique_ptr<BpeModel> model = BpeModel::load(r.rest());
  if (!model) return nullptr;
  try {
    return std::make_unique<HfTokenizer>(json, config, std::move(model));
  } catch (const std::exception&) {
    return nullptr;
  }
}

// Keeps the kMaxFiles most recently used cache files (a hit refreshes a file's time), so that
// tokenizers loaded from ever new places (test copies in temporary directories) do not pile up.
constexpr size_t kMaxFiles = 32;

void prune(const fs::path& dir, const fs::path& keep) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".bin" || entry.path() == keep) continue;
    files.emplace_back(entry.last_write_time(ec), entry.path());
  }
  if (files.size() < kMaxFiles) return;
  std::sort(files.begin(), files.end());  // oldest first
  for (size_t i = 0; i + kMaxFiles - 1 < files.size(); ++i) fs::remove(files[i].second, ec);
}

// Best effort: a read-only or full disk only costs the next process the JSON parse again.
void write_cache(const fs::path& path, const std::string& identity, nlohmann::json json, const BpeModel& model) {
  auto& m = json["model"];
  m["vocab"] = nlohmann::json::object();  // kept (empty), so the model type reads the same
  m["merges"] = nlohmann::json::array();
  std::string out(kMagic);
  out += identity;
  binary::put_string(out, json.dump());
  model.save(out);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  // A unique temporary name, renamed into place: readers see a whole file or none.
  const fs::path tmp = path.string() + "." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f || !f.write(out.data(), static_cast<std::streamsize>(out.size()))) {
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
  prune(path.parent_path(), path);
}

}  // namespace

TokenizerPtr load_hf_json_cached(const fs::path& file, const nlohmann::json& config, const std::string& cache_dir) {
  const std::string identity = cache_dir.empty() ? std::string() : identity_of(file);
  const fs::path path = identity.empty() ? fs::path() : fs::path(cache_dir) / cache_name(identity);
  if (!identity.empty()) {
    if (TokenizerPtr cached = read_cache(path, identity, config)) {
      std::error_code ec;
      fs::last_write_time(path, fs::file_time_type::clock::now(), ec);  // recently used: kept by prune()
      return cached;
    }
  }
  const std::optional<std::string> text = slurp(file);
  if (!text) throw TokenizerError("cannot read tokenizer file " + file.string());
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::exception& e) {
    throw TokenizerError(file.string() + ": invalid JSON: " + e.what());
  }
  std::unique_ptr<HfTokenizer> tokenizer;
  try {
    tokenizer = std::make_unique<HfTokenizer>(json, config);
  } catch (const TokenizerError& e) {
    throw TokenizerError(file.string() + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw TokenizerError(file.string() + ": malformed tokenizer.json: " + e.what());
  }
  if (!identity.empty()) {
    if (const auto* bpe = dynamic_cast<const BpeModel*>(&tokenizer->model())) write_cache(path, identity, std::move(json), *bpe);
  }
  return tokenizer;
}

}  // namespace aiperf::tok
