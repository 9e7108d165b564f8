// HF decoders: turn the token strings of decode() back into text. Each decoder rewrites the
// list of token strings (HF decode_chain); the final text is their concatenation.
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace aiperf::tok {

class Decoder {
 public:
  virtual ~Decoder() = default;
  virtual void decode_chain(std::vector<std::string>& tokens) const = 0;
};

using DecoderPtr = std::unique_ptr<Decoder>;

// Builds the decoder described by a tokenizer.json `decoder` value; null -> nullptr.
// Throws TokenizerError naming the type for unsupported components.
DecoderPtr make_decoder(const nlohmann::json& j);

}  // namespace aiperf::tok
