#include "tokenizer/unigram_model.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "tokenizer/unicode_util.h"

namespace aiperf::tok {

namespace {

// HF K_UNK_PENALTY: an unknown character scores this far below the rarest piece.
constexpr double kUnkPenalty = 10.0;

}  // namespace

UnigramModel::UnigramModel(const nlohmann::json& model) {
  const auto& vocab = model.at("vocab");
  if (!vocab.is_array()) throw TokenizerError("Unigram vocab must be an array of [piece, score]");
  pieces_.reserve(vocab.size());
  scores_.reserve(vocab.size());
  ids_.reserve(vocab.size());
  double min_score = std::numeric_limits<double>::infinity();
  for (const auto& entry : vocab) {
    if (!entry.is_array() || entry.size() != 2 || !entry[0].is_string() || !entry[1].is_number()) {
      throw TokenizerError("malformed Unigram vocab entry " + entry.dump());
    }
    auto id = static_cast<TokenId>(pieces_.size());
    pieces_.push_back(entry[0].get<std::string>());
    scores_.push_back(entry[1].get<double>());
    ids_[pieces_.back()] = id;
    min_score = std::min(min_score, scores_.back());
  }
  // A piece that occurs twice is found (by the trie and by its text) under its last id, as
  // HF's token map is built.
  for (const auto& [piece, id] : ids_) {
    if (!piece.empty()) trie_.insert(piece, id);
  }
  unk_score_ = min_score - kUnkPenalty;
  if (model.contains("unk_id") && !model["unk_id"].is_null()) {
    auto unk = model["unk_id"].get<int64_t>();
    if (unk < 0 || static_cast<size_t>(unk) >= pieces_.size()) throw TokenizerError("Unigram unk_id is not in the vocab");
    unk_id_ = static_cast<TokenId>(unk);
  }
  byte_fallback_ = model.value("byte_fallback", false);
  static const char* hex = "0123456789ABCDEF";
  for (int b = 0; b < 256; ++b) {
    std::string name = std::string("<0x") + hex[b >> 4] + hex[b & 15] + ">";
    auto it = ids_.find(name);
    byte_ids_[b] = it == ids_.end() ? -1 : it->second;
  }
}

void UnigramModel::tokenize(std::string_view piece, std::vector<TokenId>& out) const {
  if (piece.empty()) return;
  bool cacheable = piece.size() <= kMaxCachedPieceBytes;
  if (cacheable && cache_.lookup(piece, out)) return;
  size_t first = out.size();
  viterbi(piece, out);
  if (cacheable) cache_.insert(piece, out.data() + first, out.size() - first);
}

void UnigramModel::viterbi(std::string_view s, std::vector<TokenId>& out) const {
  // best[i]: the best path covering s[0, i): its score, where its last piece starts, and that
  // piece's id (unk_id for an unknown character). start < 0 means no path reaches i yet.
  struct Node {
    double score = 0;
    int64_t start = -1;
    TokenId id = -1;
  };
  std::vector<Node> best(s.size() + 1);
  // An unknown character with no unk_id: HF fails the whole encode; here it gets id -1 and is
  // dropped below, so counting degrades instead of failing at run time.
  const TokenId unk = unk_id_.value_or(-1);
  size_t start = 0;
  while (start < s.size()) {
    const double here = best[start].score;
    const size_t char_len = uni::utf8_len(static_cast<unsigned char>(s[start]));
    bool single_char_piece = false;
    trie_.for_each_prefix(s.substr(start), [&](size_t len, int32_t id) {
      Node& target = best[start + len];
      double candidate = scores_[id] + here;
      // Strictly better only: on ties the earlier start (and then the shorter piece) stays.
      if (target.start < 0 || candidate > target.score) target = {candidate, static_cast<int64_t>(start), id};
      if (len == char_len) single_char_piece = true;
    });
    if (!single_char_piece) {
      Node& target = best[start + char_len];
      double candidate = unk_score_ + here;
      if (target.start < 0 || candidate > target.score) target = {candidate, static_cast<int64_t>(start), unk};
    }
    start += char_len;
  }

  // Walk back; consecutive unknown pieces are fused into one run (HF fuse_unk, always on).
  size_t first = out.size();
  size_t end = s.size();
  size_t unk_begin = 0, unk_end = 0;  // pending unknown run [unk_begin, unk_end)
  auto flush_unknown = [&] {
    if (unk_end > unk_begin) emit_unknown(s.substr(unk_begin, unk_end - unk_begin), out);
    unk_end = unk_begin = 0;
  };
  while (end > 0) {
    const Node& node = best[end];
    auto begin = static_cast<size_t>(node.start);
    if (node.id == unk) {
      if (unk_end == unk_begin) unk_end = end;
      unk_begin = begin;
    } else {
      if (unk_end > unk_begin) {
        size_t mark = out.size();
        flush_unknown();
        // emit_unknown appended in text order; keep them so once the whole list is reversed.
        std::reverse(out.begin() + static_cast<std::ptrdiff_t>(mark), out.end());
      }
      out.push_back(node.id);
    }
    end = begin;
  }
  if (unk_end > unk_begin) {
    size_t mark = out.size();
    flush_unknown();
    std::reverse(out.begin() + static_cast<std::ptrdiff_t>(mark), out.end());
  }
  std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

void UnigramModel::emit_unknown(std::string_view run, std::vector<TokenId>& out) const {
  if (auto it = ids_.find(run); it != ids_.end()) {
    out.push_back(it->second);
    return;
  }
  if (byte_fallback_) {
    bool all = true;
    for (unsigned char c : run) all = all && byte_ids_[c] >= 0;
    if (all) {
      for (unsigned char c : run) out.push_back(byte_ids_[c]);
      return;
    }
  }
  if (unk_id_) out.push_back(*unk_id_);
}

std::optional<TokenId> UnigramModel::token_to_id(std::string_view token) const {
  auto it = ids_.find(token);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

const std::string* UnigramModel::id_to_token(TokenId id) const {
  if (id < 0 || static_cast<size_t>(id) >= pieces_.size()) return nullptr;
  return &pieces_[id];
}

}  // namespace aiperf::tok
