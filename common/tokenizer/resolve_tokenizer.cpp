// resolve_tokenizer_path(): --tokenizer / --tokenizer-revision -> a local path, in order:
// an existing path; a bundled name (gpt2), `builtin` (o200k_base) or a tiktoken encoding name;
// a Hub repo id.
#include <filesystem>

#include "tokenizer/builtin_tokenizer.h"
#include "tokenizer/hf_hub.h"
#include "tokenizer/tiktoken_tokenizer.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

namespace fs = std::filesystem;

namespace {

// Bundled tokenizers live in <prefix>/share/aiperf/tokenizers, next to <prefix>/bin.
fs::path bundled_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return (exe.parent_path() / ".." / "share" / "aiperf" / "tokenizers").lexically_normal();
}

// "cl100k_base" -> <dir>/cl100k_base.tiktoken, searched where tiktoken's own
// TIKTOKEN_ENCODINGS_BASE points (a local directory), then among the bundled tokenizers.
std::optional<std::string> find_tiktoken_file(const std::string& name, const HubEnv& env) {
  if (!is_known_tiktoken_encoding(name)) return std::nullopt;
  std::error_code ec;
  if (!env.tiktoken_base.empty()) {
    fs::path p = fs::path(env.tiktoken_base) / (name + ".tiktoken");
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  fs::path p = bundled_dir() / (name + ".tiktoken");
  if (fs::is_regular_file(p, ec)) return p.string();
  return std::nullopt;
}

}  // namespace

std::string resolve_tokenizer_path(const std::string& name_or_path, const std::string& revision, bool download,
                                   const HubEnv& env) {
  std::error_code ec;
  if (fs::exists(name_or_path, ec)) return name_or_path;
  if (name_or_path == kBuiltinTokenizerName) {
    // Shipped with the product (share/aiperf/tokenizers/o200k_base.tiktoken): no network, no user files.
    if (auto tiktoken = find_tiktoken_file(std::string(kBuiltinEncoding), env)) return *tiktoken;
    throw TokenizerError("tokenizer 'builtin': the bundled " + std::string(kBuiltinEncoding) + ".tiktoken is missing from " +
                         bundled_dir().string() + " (a broken installation); set TIKTOKEN_ENCODINGS_BASE to a "
                         "directory holding it");
  }
  if (!name_or_path.empty() && name_or_path.find('/') == std::string::npos) {
    fs::path bundled = bundled_dir() / name_or_path;
    if (fs::is_regular_file(bundled / "tokenizer.json", ec)) return bundled.string();
    if (auto tiktoken = find_tiktoken_file(name_or_path, env)) return *tiktoken;
    if (is_tiktoken_encoding_name(name_or_path) && !is_known_tiktoken_encoding(name_or_path)) {
      // AIPerf routes these names to tiktoken, never the Hub; only their special tokens differ.
      throw TokenizerError("tokenizer '" + name_or_path +
                           "': this tiktoken encoding is not supported; use builtin (o200k_base), "
                           "o200k_base, cl100k_base, r50k_base or p50k_base");
    }
    if (is_known_tiktoken_encoding(name_or_path)) {
      throw TokenizerError("tokenizer '" + name_or_path + "': no " + name_or_path +
                           ".tiktoken found; set TIKTOKEN_ENCODINGS_BASE to the directory holding it "
                           "or pass --tokenizer <path>/" + name_or_path + ".tiktoken");
    }
  }
  if (looks_like_hub_repo(name_or_path)) return resolve_hub_tokenizer(name_or_path, revision, download, env);
  throw TokenizerError("tokenizer '" + name_or_path +
                       "' not found: not a local file or directory, a bundled tokenizer (gpt2) or a "
                       "HuggingFace Hub repo id");
}

}  // namespace aiperf::tok
