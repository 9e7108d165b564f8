// Tokenizer: counts and decodes tokens exactly as HuggingFace `tokenizers` does.
// encode() == HF `encode(text, add_special_tokens=False)`: no BOS/EOS added, but added tokens
// written in the text are recognised. Implementations are immutable after loading and every
// method is safe to call from several threads at once.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/hub_env.h"

namespace aiperf::tok {

using TokenId = int32_t;

// Thrown only while loading (configuration boundary); names the file and the problem.
class TokenizerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A Hub tokenizer that is not in the HF cache when resolution was asked not to download.
class TokenizerNotCached : public TokenizerError {
 public:
  using TokenizerError::TokenizerError;
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;

  virtual std::vector<TokenId> encode(std::string_view text) const = 0;

  // Number of tokens encode(text) would return; may be faster than encode().size().
  virtual size_t count(std::string_view text) const { return encode(text).size(); }

  // HF `decode(ids, skip_special_tokens)` (no clean_up_tokenization).
  virtual std::string decode(std::span<const TokenId> ids, bool skip_special_tokens = true) const = 0;

  virtual size_t vocab_size() const = 0;

  // Token used to separate hash-id blocks: BOS if the tokenizer has one, else EOS.
  virtual std::optional<TokenId> block_separator() const = 0;
};

using TokenizerPtr = std::unique_ptr<Tokenizer>;

// Resolves --tokenizer / --tokenizer-revision to a local path, in order: an existing file or
// directory as is; a bundled tokenizer name ("gpt2"); a tiktoken encoding name ("cl100k_base",
// found in env.tiktoken_base or among the bundled files); a HuggingFace Hub repo id
// ("Qwen/Qwen3-0.6B") from env.hub_cache, downloading into it when missing unless offline (see
// hf_hub.h). The default env (none read) resolves local paths and bundled names only.
// Throws TokenizerError with a one-line message when nothing matches or a download fails;
// with download false, TokenizerNotCached for a Hub repo id that is not cached.
std::string resolve_tokenizer_path(const std::string& name_or_path, const std::string& revision = "main",
                                   bool download = true, const HubEnv& env = {});

// Loads a local tokenizer: a tokenizer.json file, a SentencePiece .model file, a tiktoken
// <encoding>.tiktoken file, or a directory holding tokenizer.json, else tokenizer.model, else
// one *.tiktoken file.
// Throws TokenizerError naming the file and the unsupported component or parse error.
// A tokenizer.json loads through the binary cache in `cache_dir` ("" = none): services pass the
// run's TokenizerConfig::cache_dir, command-line tools HubEnv::tokenizer_cache (both resolved
// once, in cli/).
TokenizerPtr load_tokenizer(const std::string& path, const std::string& cache_dir = "");

}  // namespace aiperf::tok
