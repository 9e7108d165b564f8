#include "tokenizer/wordpiece_model.h"

#include <algorithm>
#include <nlohmann/json.hpp>


namespace aiperf::tok {

WordPieceModel::WordPieceModel(const nlohmann::json& model) {
  prefix_ = model.value("continuing_subword_prefix", std::string("##"));
  max_chars_ = model.value("max_input_chars_per_word", size_t{100});
  const auto& vocab = model.at("vocab");
  if (!vocab.is_object()) throw TokenizerError("WordPiece vocab must be an object of token -> id");
  vocab_.reserve(vocab.size());
  for (const auto& [token, id] : vocab.items()) {
    // An integer id below 2^24 (the largest vocabularies have ~2^18): a float is UB to convert
    // and a huge id would size the id table.
    if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= (int64_t{1} << 24))
      throw TokenizerError("invalid id for token '" + token + "'");
    auto tid = id.get<TokenId>();
    if (tid < 0) throw TokenizerError("negative id for token '" + token + "'");
    vocab_.emplace(token, tid);
    if (static_cast<size_t>(tid) >= id_to_token_.size()) {
      id_to_token_.resize(tid + 1);
      has_id_.resize(tid + 1, false);
    }
    id_to_token_[tid] = token;
    has_id_[tid] = true;
    max_token_bytes_ = std::max(max_token_bytes_, token.size());
  }
  // HF only fails once a word needs the unk token; every real vocab has it, so a missing one
  // is reported at load time rather than silently dropping words later.
  const std::string unk = model.value("unk_token", std::string("[UNK]"));
  auto it = vocab_.find(unk);
  if (it == vocab_.end()) throw TokenizerError("WordPiece unk_token '" + unk + "' is not in the vocab");
  unk_id_ = it->second;
}

void WordPieceModel::tokenize(std::string_view piece, std::vector<TokenId>& out) const {
  if (piece.empty()) return;
  size_t chars = 0;
  for (unsigned char c : piece) chars += (c & 0xC0) != 0x80;
  if (chars > max_chars_) {
    out.push_back(unk_id_);
    return;
  }
  size_t first = out.size();
  std::string candidate;
  size_t start = 0;
  while (start < piece.size()) {
    // Longest vocab entry starting at `start`, shrinking one character at a time.
    size_t end = piece.size();
    size_t limit = start + max_token_bytes_;  // the prefix only makes candidates longer
    while (end > limit) {
      do --end;
      while ((static_cast<unsigned char>(piece[end]) & 0xC0) == 0x80);
    }
    TokenId found = -1;
    while (end > start) {
      std::string_view sub = piece.substr(start, end - start);
      auto it = vocab_.end();
      if (start == 0) {
        it = vocab_.find(sub);
      } else {
        candidate.assign(prefix_);
        candidate.append(sub);
        it = vocab_.find(candidate);
      }
      if (it != vocab_.end()) {
        found = it->second;
        break;
      }
      do --end;
      while ((static_cast<unsigned char>(piece[end]) & 0xC0) == 0x80);
    }
    if (found < 0) {
      out.resize(first);
      out.push_back(unk_id_);
      return;
    }
    out.push_back(found);
    start = end;
  }
}

std::optional<TokenId> WordPieceModel::token_to_id(std::string_view token) const {
  auto it = vocab_.find(token);
  if (it == vocab_.end()) return std::nullopt;
  return it->second;
}

const std::string* WordPieceModel::id_to_token(TokenId id) const {
  if (id < 0 || static_cast<size_t>(id) >= id_to_token_.size() || !has_id_[id]) return nullptr;
  return &id_to_token_[id];
}

}  // namespace aiperf::tok
