// HF normalizers: rewrite the text of one segment (between added tokens) before
// pre-tokenization. Immutable after construction; thread-safe.
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace aiperf::tok {

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  // Rewrites s (valid UTF-8) in place.
  virtual void normalize(std::string& s) const = 0;
};

using NormalizerPtr = std::unique_ptr<Normalizer>;

// Builds the normalizer described by a tokenizer.json `normalizer` value; null -> nullptr.
// Throws TokenizerError naming the type for unsupported components.
NormalizerPtr make_normalizer(const nlohmann::json& j);

}  // namespace aiperf::tok
