// SentencePiece `.model` files through libsentencepiece (loaded via the libaiperf_spm.so shim,
// see spm_shim.h). By default encode() follows what
// transformers does with such a model (the converted fast tokenizer): the control and unknown
// pieces (<s>, </s>, <unk>) written in the text are split out as their ids and every segment
// between them is encoded on its own, so the dummy prefix "▁" recurs after each of them.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tokenizer/added_tokens.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

struct SpmApi;  // the shim's entry points (spm_tokenizer.cpp)

class SpmTokenizer final : public Tokenizer {
 public:
  // With split_special=false encode() is plain SentencePieceProcessor::Encode (control-token
  // text stays text). Throws TokenizerError naming the file when it cannot be loaded.
  explicit SpmTokenizer(const std::string& path, bool split_special = true);
  ~SpmTokenizer() override;
  SpmTokenizer(const SpmTokenizer&) = delete;
  SpmTokenizer& operator=(const SpmTokenizer&) = delete;

  std::vector<TokenId> encode(std::string_view text) const override;
  // HF-style decode of the converted tokenizer: "▁" -> " ", <0xXX> runs -> bytes (one U+FFFD
  // per byte when invalid), one leading space stripped when the model adds a dummy prefix.
  std::string decode(std::span<const TokenId> ids, bool skip_special_tokens = true) const override;
  size_t vocab_size() const override { return pieces_.size(); }
  std::optional<TokenId> block_separator() const override { return separator_; }

 private:
  void encode_plain(std::string_view text, std::vector<TokenId>& out) const;
  bool is_special(TokenId id) const;

  const SpmApi* api_ = nullptr;
  void* sp_ = nullptr;                 // the shim's processor handle
  std::vector<std::string> pieces_;    // id -> piece text
  std::vector<uint8_t> types_;         // id -> AiperfSpmPieceType bits
  std::unique_ptr<AddedTokenMatcher> specials_;  // null when not splitting
  bool dummy_prefix_ = false;
  std::optional<TokenId> separator_;
  std::string path_;
};

}  // namespace aiperf::tok
