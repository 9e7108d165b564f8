// HF pre-tokenizers: cut a normalized segment into pre-tokens (the units BPE runs on).
// Immutable after construction; thread-safe.
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>

#include "tokenizer/pieces.h"

namespace aiperf::tok {

class PreTokenizer {
 public:
  virtual ~PreTokenizer() = default;
  // Replaces list.pieces with their pre-tokenized pieces (may append text to list.buf).
  virtual void pre_tokenize(PieceList& list) const = 0;
};

using PreTokenizerPtr = std::unique_ptr<PreTokenizer>;

// Builds the pre-tokenizer described by a tokenizer.json `pre_tokenizer` value; null ->
// nullptr. When `may_defer_bytes` (the model is BPE) and the chain ends with ByteLevel, that
// final byte-to-alphabet mapping is left out and `bytes_deferred` is set: the BPE model then
// maps raw bytes itself, which saves a copy of every piece. Throws TokenizerError naming the
// type for unsupported components.
PreTokenizerPtr make_pre_tokenizer(const nlohmann::json& j, bool may_defer_bytes, bool& bytes_deferred);

}  // namespace aiperf::tok
