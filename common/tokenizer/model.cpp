#include "tokenizer/model.h"

#include <nlohmann/json.hpp>

#include "tokenizer/bpe_model.h"
#include "tokenizer/unigram_model.h"
#include "tokenizer/wordpiece_model.h"

namespace aiperf::tok {

std::string model_type(const nlohmann::json& model) {
  if (model.contains("type")) return model["type"].get<std::string>();
  if (model.contains("merges")) return "BPE";
  if (model.contains("vocab") && model["vocab"].is_array()) return "Unigram";
  if (model.contains("continuing_subword_prefix") || model.contains("max_input_chars_per_word")) return "WordPiece";
  return "";
}

ModelPtr make_model(const nlohmann::json& model, bool byte_input) {
  const std::string type = model_type(model);
  if (type == "BPE") return std::make_unique<BpeModel>(model, byte_input);
  if (byte_input) throw TokenizerError("only a BPE model can take raw bytes from ByteLevel");
  if (type == "WordPiece") return std::make_unique<WordPieceModel>(model);
  if (type == "Unigram") return std::make_unique<UnigramModel>(model);
  throw TokenizerError("unsupported model type '" + type + "'");
}

}  // namespace aiperf::tok
