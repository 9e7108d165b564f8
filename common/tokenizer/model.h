// The model stage of a tokenizer.json pipeline (BPE, WordPiece, Unigram): turns one
// pre-token into ids. Implementations are immutable after construction and thread-safe.
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

class Model {
 public:
  virtual ~Model() = default;

  // Appends the ids of one pre-token (valid UTF-8, or raw bytes for a byte-input BPE) to `out`.
  virtual void tokenize(std::string_view piece, std::vector<TokenId>& out) const = 0;

  virtual std::optional<TokenId> token_to_id(std::string_view token) const = 0;
  // The vocab string of `id`, or nullptr when the model has no such id.
  virtual const std::string* id_to_token(TokenId id) const = 0;
  virtual size_t vocab_size() const = 0;
};

using ModelPtr = std::unique_ptr<Model>;

// The model's type ("BPE", "WordPiece", "Unigram", ...), inferred from its fields when the
// object has no "type", as HF does; "" when unrecognisable.
std::string model_type(const nlohmann::json& model);

// Builds the model of a tokenizer.json `model` object. `byte_input` (a ByteLevel pre-tokenizer
// left its byte mapping to the model) is only valid for BPE. Throws TokenizerError naming the
// model type when it is unsupported or malformed.
ModelPtr make_model(const nlohmann::json& model, bool byte_input);

}  // namespace aiperf::tok
