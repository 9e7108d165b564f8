// OpenAI tiktoken encodings (cl100k_base, o200k_base, r50k_base, p50k_base) read from their
// `.tiktoken` rank files. encode() is tiktoken's `encode(text, allowed_special="all")`, as AIPerf
// calls it: special-token text ("<|endoftext|>") becomes the special id; encode_ordinary() keeps
// it plain text.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>

#include "tokenizer/bpe_model.h"
#include "tokenizer/pcre_regex.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

class TiktokenTokenizer final : public Tokenizer {
 public:
  // `path` is a <encoding>.tiktoken file; the file name selects the split regex and the
  // special tokens. Throws TokenizerError naming the file (and line) on any problem.
  explicit TiktokenTokenizer(const std::string& path);

  std::vector<TokenId> encode(std::string_view text) const override;
  std::vector<TokenId> encode_ordinary(std::string_view text) const;
  std::string decode(std::span<const TokenId> ids, bool skip_special_tokens = true) const override;
  size_t vocab_size() const override { return vocab_size_; }
  // tiktoken encodings have no BOS; <|endoftext|> separates documents.
  std::optional<TokenId> block_separator() const override { return end_of_text_; }

 private:
  std::unique_ptr<PcreRegex> regex_;
  std::unique_ptr<BpeModel> model_;
  void encode_ordinary_into(std::string_view text, std::vector<TokenId>& out) const;

  std::unordered_map<TokenId, std::string> specials_;
  size_t vocab_size_ = 0;
  std::optional<TokenId> end_of_text_;
};

// True when `name` is an encoding this implementation knows ("cl100k_base", ...).
bool is_known_tiktoken_encoding(const std::string& name);

}  // namespace aiperf::tok
