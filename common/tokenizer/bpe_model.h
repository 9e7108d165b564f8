// HF BPE model: vocab + ranked merges, with byte_fallback, unk/fuse_unk and ignore_merges.
// Immutable after construction; tokenize() is thread-safe (the cache is internally locked).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/bpe_cache.h"
#include "tokenizer/merge_table.h"
#include "tokenizer/model.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

class BpeModel final : public Model {
 public:
  // `model` is tokenizer.json's `model` object. With `byte_input`, tokenize() receives raw
  // bytes and maps each byte to its GPT-2 alphabet character itself (the deferred final step
  // of a ByteLevel pre-tokenizer). Throws TokenizerError on malformed or unsupported models.
  BpeModel(const nlohmann::json& model, bool byte_input);

  // A tiktoken encoding: ranks[i] holds the raw bytes of token i (empty for an unused rank).
  // The merge of two adjacent tokens ranks as the token they form, and whole pre-tokens found
  // in the ranks are emitted directly, which is exactly tiktoken's byte-pair encoding.
  static std::unique_ptr<BpeModel> from_byte_ranks(const std::vector<std::string>& ranks);

  // Appends the ids of one pre-token to `out`.
  void tokenize(std::string_view piece, std::vector<TokenId>& out) const override;

  // The model in the tokenizer cache's binary form, and back (nullptr when `data` is not
  // one): exactly the state the JSON constructor built, without re-parsing or re-merging.
  void save(std::string& out) const;
  static std::unique_ptr<BpeModel> load(std::string_view data);
  bool byte_input() const { return byte_input_; }

  std::optional<TokenId> token_to_id(std::string_view token) const override;
  const std::string* id_to_token(TokenId id) const override;
  size_t vocab_size() const override { return vocab_.size(); }

 private:
  BpeModel() = default;
  void add_vocab_entry(const std::string& token, TokenId id);
  // Fills byte_ids_ and fallback_ids_ once the vocab is complete.
  void build_byte_tables();
  // Appends the ids of `piece` after running all merges (HF BPE::merge_word + merge_all).
  void merge_word(std::string_view piece, std::vector<TokenId>& out) const;
  // Id of the whole piece when it is a vocab entry (ignore_merges shortcut).
  std::optional<TokenId> whole_piece_id(std::string_view piece) const;
  // Cached merge_word of one word.
  void tokenize_word(std::string_view word, std::vector<TokenId>& out) const;

  std::unordered_map<std::string, TokenId> vocab_;
  std::vector<std::string> id_to_token_;
  std::vector<bool> has_id_;
  MergeTable merges_;
  std::unordered_map<char32_t, TokenId> char_ids_;  // single-character vocab entries
  std::array<TokenId, 256> byte_ids_{};             // byte -> id of its alphabet char, or -1
  std::array<TokenId, 256> fallback_ids_{};         // byte -> id of "<0xXX>", or -1
  bool byte_input_ = false;
  bool byte_fallback_ = false;
  bool fuse_unk_ = false;
  bool ignore_merges_ = false;
  // SentencePiece-style vocabularies (Llama 2, Mistral) have no pre-tokenizer, so a whole text
  // reaches the model as one word. When no merge can cross the boundary in front of a "▁" that
  // follows another character, BPE on the parts between such boundaries gives exactly the ids
  // of BPE on the whole word (merges are local and each part's merge order is unchanged), and
  // the short parts hit the cache. Set only when the merges guarantee this.
  bool split_at_metaspace_ = false;
  std::optional<TokenId> unk_id_;
  BpeCache cache_;
};

}  // namespace aiperf::tok
