#include "tokenizer/bpe_model.h"

#include <cstring>
#include <nlohmann/json.hpp>
#include <queue>

#include "tokenizer/binary_io.h"
#include "tokenizer/unicode_util.h"

namespace aiperf::tok {

namespace {

// SentencePiece's whitespace stand-in U+2581, which Metaspace/Replace normalizers write.
constexpr std::string_view kMetaspace = "\xE2\x96\x81";

std::pair<std::string, std::string> parse_merge(const nlohmann::json& m) {
  if (m.is_string()) {
    const auto& s = m.get_ref<const std::string&>();
    auto space = s.find(' ');
    if (space == std::string::npos || s.find(' ', space + 1) != std::string::npos) {
      throw TokenizerError("malformed merge '" + s + "'");
    }
    return {s.substr(0, space), s.substr(space + 1)};
  }
  if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
    return {m[0].get<std::string>(), m[1].get<std::string>()};
  }
  throw TokenizerError("malformed merge " + m.dump());
}

bool is_null_or_empty(const nlohmann::json& model, const char* key) {
  return !model.contains(key) || model[key].is_null() || model[key] == "";
}

}  // namespace

BpeModel::BpeModel(const nlohmann::json& model, bool byte_input) : byte_input_(byte_input) {
  if (!is_null_or_empty(model, "continuing_subword_prefix") || !is_null_or_empty(model, "end_of_word_suffix")) {
    throw TokenizerError("unsupported BPE option continuing_subword_prefix/end_of_word_suffix");
  }
  if (model.contains("dropout") && model["dropout"].is_number() && model["dropout"].get<double>() > 0.0) {
    throw TokenizerError("unsupported BPE option dropout");
  }
  byte_fallback_ = model.value("byte_fallback", false);
  fuse_unk_ = model.value("fuse_unk", false);
  ignore_merges_ = model.value("ignore_merges", false);

  const auto& vocab = model.at("vocab");
  vocab_.reserve(vocab.size());
  for (const auto& [token, id] : vocab.items()) {
    // An integer id below 2^24 (the largest vocabularies have ~2^18): a float is UB to convert
    // and a huge id would size the id table.
    if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= (int64_t{1} << 24))
      throw TokenizerError("invalid id for token '" + token + "'");
    auto tid = id.get<TokenId>();
    if (tid < 0) throw TokenizerError("negative id for token '" + token + "'");
    add_vocab_entry(token, tid);
  }

  const auto& merges = model.at("merges");
  merges_.reserve(merges.size());
  int32_t rank = 0;
  bool merge_crosses_metaspace = false;
  for (const auto& m : merges) {
    auto [a, b] = parse_merge(m);
    // The first merge to join across a word boundary in front of "▁" has the boundary exactly
    // between its two parts, so checking the parts suffices.
    if (b.starts_with(kMetaspace) && !a.ends_with(kMetaspace)) merge_crosses_metaspace = true;
    auto ia = vocab_.find(a), ib = vocab_.find(b), im = vocab_.find(a + b);
    if (ia == vocab_.end() || ib == vocab_.end() || im == vocab_.end()) {
      throw TokenizerError("merge '" + a + " " + b + "' uses a token missing from the vocab");
    }
    merges_.insert(ia->second, ib->second, {rank++, im->second});
  }

  if (model.contains("unk_token") && model["unk_token"].is_string()) {
    auto it = vocab_.find(model["unk_token"].get<std::string>());
    if (it == vocab_.end()) throw TokenizerError("unk_token is not in the vocab");
    unk_id_ = it->second;
  }
  build_byte_tables();
  // "▁" must be a vocab character: otherwise it would fall back to bytes or fuse with unks.
  split_at_metaspace_ = !byte_input_ && !ignore_merges_ && !merge_crosses_metaspace &&
                        char_ids_.contains(U'\u2581');
}

std::unique_ptr<BpeModel> BpeModel::from_byte_ranks(const std::vector<std::string>& ranks) {
  std::unique_ptr<BpeModel> m(new BpeModel());
  m->byte_input_ = true;
  m->ignore_merges_ = true;
  std::unordered_map<std::string_view, TokenId> by_bytes;
  by_bytes.reserve(ranks.size());
  const auto& alphabet = uni::byte_to_char();
  for (size_t id = 0; id < ranks.size(); ++id) {
    if (ranks[id].empty()) continue;
    by_bytes.emplace(ranks[id], static_cast<TokenId>(id));
    std::string mapped;
    for (unsigned char c : ranks[id]) uni::append_utf8(mapped, alphabet[c]);
    m->add_vocab_entry(mapped, static_cast<TokenId>(id));
  }
  // Every split of a token into two tokens is a merge producing it, ranked as the token.
  struct Split {
    TokenId a, b, merged;
  };
  std::vector<Split> splits;
  for (size_t id = 0; id < ranks.size(); ++id) {
    std::string_view t = ranks[id];
    for (size_t k = 1; k < t.size(); ++k) {
      auto a = by_bytes.find(t.substr(0, k));
      if (a == by_bytes.end()) continue;
      auto b = by_bytes.find(t.substr(k));
      if (b != by_bytes.end()) splits.push_back({a->second, b->second, static_cast<TokenId>(id)});
    }
  }
  m->merges_.reserve(splits.size());
  for (const Split& s : splits) m->merges_.insert(s.a, s.b, {s.merged, s.merged});
  m->build_byte_tables();
  return m;
}

void BpeModel::add_vocab_entry(const std::string& token, TokenId id) {
  vocab_.emplace(token, id);
  if (static_cast<size_t>(id) >= id_to_token_.size()) {
    id_to_token_.resize(id + 1);
    has_id_.resize(id + 1, false);
  }
  id_to_token_[id] = token;
  has_id_[id] = true;
  size_t i = 0;
  if (!token.empty()) {
    char32_t cp = uni::next_code_point(token, i);
    if (i == token.size()) char_ids_.emplace(cp, id);
  }
}

void BpeModel::build_byte_tables() {
  const auto& alphabet = uni::byte_to_char();
  for (int b = 0; b < 256; ++b) {
    auto it = char_ids_.find(alphabet[b]);
    byte_ids_[b] = it == char_ids_.end() ? -1 : it->second;
    static const char* hex = "0123456789ABCDEF";
    std::string name = std::string("<0x") + hex[b >> 4] + hex[b & 15] + ">";
    auto fb = vocab_.find(name);
    fallback_ids_[b] = fb == vocab_.end() ? -1 : fb->second;
  }
}

std::optional<TokenId> BpeModel::token_to_id(std::string_view token) const {
  auto it = vocab_.find(std::string(token));
  if (it == vocab_.end()) return std::nullopt;
  return it->second;
}

const std::string* BpeModel::id_to_token(TokenId id) const {
  if (id < 0 || static_cast<size_t>(id) >= id_to_token_.size() || !has_id_[id]) return nullptr;
  return &id_to_token_[id];
}

std::optional<TokenId> BpeModel::whole_piece_id(std::string_view piece) const {
  if (!byte_input_) return token_to_id(piece);
  std::string mapped;
  const auto& alphabet = uni::byte_to_char();
  for (unsigned char c : piece) uni::append_utf8(mapped, alphabet[c]);
  return token_to_id(mapped);
}

void BpeModel::tokenize(std::string_view piece, std::vector<TokenId>& out) const {
  if (piece.empty()) return;
  if (ignore_merges_) {
    if (auto id = whole_piece_id(piece)) {
      out.push_back(*id);
      return;
    }
  }
  if (!split_at_metaspace_) {
    tokenize_word(piece, out);
    return;
  }
  // Cut in front of every "▁" that follows a character other than "▁" (runs of "▁" stay whole).
  size_t start = 0;
  for (size_t hit = piece.find(kMetaspace, 1); hit != std::string_view::npos;
       hit = piece.find(kMetaspace, hit + kMetaspace.size())) {
    if (hit >= kMetaspace.size() && piece.substr(hit - kMetaspace.size(), kMetaspace.size()) == kMetaspace) continue;
    tokenize_word(piece.substr(start, hit - start), out);
    start = hit;
  }
  tokenize_word(piece.substr(start), out);
}

void BpeModel::tokenize_word(std::string_view word, std::vector<TokenId>& out) const {
  bool cacheable = word.size() <= kMaxCachedPieceBytes;
  if (cacheable && cache_.lookup(word, out)) return;
  size_t first = out.size();
  merge_word(word, out);
  if (cacheable) cache_.insert(word, out.data() + first, out.size() - first);
}

namespace {

struct Symbol {
  TokenId id;
  int32_t prev;
  int32_t next;
  bool alive;
};

// A candidate merge of symbols[pos] with its right neighbour; ordered lowest rank first, then
// leftmost first, which is the order HF applies merges in.
struct Candidate {
  int32_t rank;
  int32_t pos;
  TokenId merged;
  bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
};

}  // namespace

void BpeModel::merge_word(std::string_view piece, std::vector<TokenId>& out) const {
  std::vector<Symbol> syms;
  syms.reserve(piece.size());
  auto add = [&](TokenId id) {
    auto n = static_cast<int32_t>(syms.size());
    syms.push_back({id, n - 1, -1, true});
    if (n > 0) syms[n - 1].next = n;
  };
  // HF merge_word: unknown characters fall back to <0xXX> tokens when all exist, else to a
  // pending unk that is flushed before the next known character (fused when fuse_unk).
  bool unk_pending = false;
  auto unknown = [&](std::string_view ch) {
    if (byte_fallback_) {
      bool all = true;
      for (unsigned char c : ch) all = all && fallback_ids_[c] >= 0;
      if (all) {
        for (unsigned char c : ch) add(fallback_ids_[c]);
        return;
      }
    }
    if (!unk_id_) return;
    if (unk_pending && !fuse_unk_) add(*unk_id_);
    unk_pending = true;
  };
  auto known = [&](TokenId id) {
    if (unk_pending) add(*unk_id_);
    unk_pending = false;
    add(id);
  };

  if (byte_input_) {
    std::string ch;
    for (unsigned char c : piece) {
      if (byte_ids_[c] >= 0) {
        known(byte_ids_[c]);
      } else {
        ch.clear();
        uni::append_utf8(ch, uni::byte_to_char()[c]);
        unknown(ch);
      }
    }
  } else {
    size_t i = 0;
    while (i < piece.size()) {
      size_t begin = i;
      char32_t cp = uni::next_code_point(piece, i);
      auto it = char_ids_.find(cp);
      if (it != char_ids_.end()) {
        known(it->second);
      } else {
        unknown(piece.substr(begin, i - begin));
      }
    }
  }
  if (unk_pending) add(*unk_id_);

  // The initial candidates are heapified in one O(n) step; long words (a 1 MB segment without
  // pre-tokenizer is one word) would otherwise pay n pushes and repeated reallocations.
  std::vector<Candidate> initial;
  initial.reserve(syms.size() * 2);
  for (int32_t p = 0; p + 1 < static_cast<int32_t>(syms.size()); ++p) {
    if (const Merge* m = merges_.find(syms[p].id, syms[p + 1].id)) initial.push_back({m->rank, p, m->merged});
  }
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap(std::greater<>{}, std::move(initial));
  auto consider = [&](int32_t pos) {
    int32_t next = syms[pos].next;
    if (next < 0) return;
    if (const Merge* m = merges_.find(syms[pos].id, syms[next].id)) heap.push({m->rank, pos, m->merged});
  };

  while (!heap.empty()) {
    Candidate c = heap.top();
    heap.pop();
    Symbol& left = syms[c.pos];
    if (!left.alive || left.next < 0) continue;
    // Skip stale candidates: either side may have been merged since this one was queued.
    const Merge* m = merges_.find(left.id, syms[left.next].id);
    if (m == nullptr || m->merged != c.merged) continue;
    Symbol& right = syms[left.next];
    left.id = c.merged;
    right.alive = false;
    left.next = right.next;
    if (left.next >= 0) syms[left.next].prev = c.pos;
    if (left.prev >= 0) consider(left.prev);
    consider(c.pos);
  }

  for (int32_t p = syms.empty() ? -1 : 0; p >= 0; p = syms[p].next) out.push_back(syms[p].id);
}

// The cache's binary form: see tokenizer_cache.h.
void BpeModel::save(std::string& out) const {
  const uint8_t flags = (byte_input_ ? 1 : 0) | (byte_fallback_ ? 2 : 0) | (fuse_unk_ ? 4 : 0) |
                        (ignore_merges_ ? 8 : 0) | (split_at_metaspace_ ? 16 : 0) | (unk_id_ ? 32 : 0);
  using binary::put;
  using binary::put_string;
  put<uint8_t>(out, flags);
  put<int32_t>(out, unk_id_.value_or(-1));
  put<uint64_t>(out, vocab_.size());
  for (const auto& [token, id] : vocab_) {
    put_string(out, token);
    put<int32_t>(out, id);
  }
  // id_to_token_ may differ from the inverse of vocab_ where tokens share an id.
  put<uint64_t>(out, id_to_token_.size());
  for (size_t id = 0; id < id_to_token_.size(); ++id) {
    put<uint8_t>(out, has_id_[id] ? 1 : 0);
    if (has_id_[id]) put_string(out, id_to_token_[id]);
  }
  put_string(out, merges_.bytes());
}

std::unique_ptr<BpeModel> BpeModel::load(std::string_view data) {
  std::unique_ptr<BpeModel> m(new BpeModel());
  binary::Reader r(data);
  uint8_t flags = 0;
  int32_t unk = -1;
  uint64_t vocab_count = 0, id_count = 0;
  if (!r.get(flags) || !r.get(unk) || !r.get(vocab_count) || vocab_count > data.size()) return nullptr;
  m->byte_input_ = flags & 1;
  m->byte_fallback_ = flags & 2;
  m->fuse_unk_ = flags & 4;
  m->ignore_merges_ = flags & 8;
  m->split_at_metaspace_ = flags & 16;
  if (flags & 32) m->unk_id_ = unk;
  m->vocab_.reserve(vocab_count);
  for (uint64_t i = 0; i < vocab_count; ++i) {
    std::string_view token;
    int32_t id = 0;
    if (!r.get_string(token) || !r.get(id)) return nullptr;
    m->vocab_.emplace(std::string(token), id);
    // As add_vocab_entry: single-character tokens (a token string is unique, so no order).
    size_t at = 0;
    if (!token.empty()) {
      const char32_t cp = uni::next_code_point(token, at);
      if (at == token.size()) m->char_ids_.emplace(cp, id);
    }
  }
  if (!r.get(id_count) || id_count > data.size()) return nullptr;
  m->id_to_token_.resize(id_count);
  m->has_id_.resize(id_count, false);
  for (uint64_t id = 0; id < id_count; ++id) {
    uint8_t has = 0;
    if (!r.get(has)) return nullptr;
    if (!has) continue;
    std::string_view token;
    if (!r.get_string(token)) return nullptr;
    m->id_to_token_[id] = std::string(token);
    m->has_id_[id] = true;
  }
  std::string_view merges;
  if (!r.get_string(merges) || !m->merges_.assign_bytes(merges) || !r.done()) return nullptr;
  m->build_byte_tables();
  return m;
}

}  // namespace aiperf::tok
