#include "tokenizer/tiktoken_tokenizer.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "tokenizer/base64.h"
#include "tokenizer/unicode_util.h"

namespace aiperf::tok {

namespace {

struct Encoding {
  const char* name;
  const char* pattern;
  std::initializer_list<std::pair<const char*, TokenId>> specials;
};

// tiktoken's openai_public.py definitions (split regex and special tokens per encoding).
constexpr const char* kCl100kPattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr const char* kO200kPattern =
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

const Encoding kEncodings[] = {
    {"r50k_base", uni::kGpt2Pattern, {{"<|endoftext|>", 50256}}},
    {"p50k_base", uni::kGpt2Pattern, {{"<|endoftext|>", 50256}}},
    {"cl100k_base",
     kCl100kPattern,
     {{"<|endoftext|>", 100257},
      {"<|fim_prefix|>", 100258},
      {"<|fim_middle|>", 100259},
      {"<|fim_suffix|>", 100260},
      {"<|endofprompt|>", 100276}}},
    {"o200k_base", kO200kPattern, {{"<|endoftext|>", 199999}, {"<|endofprompt|>", 200018}}},
};

const Encoding* find_encoding(const std::string& name) {
  for (const Encoding& e : kEncodings) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

// Reads "<base64 bytes> <rank>" lines into ranks[rank] = bytes.
std::vector<std::string> read_ranks(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TokenizerError("cannot read tiktoken file " + path);
  std::vector<std::string> ranks;
  std::string line, bytes;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    size_t space = line.find(' ');
    auto bad = [&](const char* what) { return TokenizerError(path + ":" + std::to_string(n) + ": " + what); };
    if (space == std::string::npos) throw bad("expected '<base64> <rank>'");
    if (!base64_decode(std::string_view(line).substr(0, space), bytes)) throw bad("invalid base64 token");
    size_t rank = 0;
    std::string_view digits = std::string_view(line).substr(space + 1);
    if (digits.empty() || digits.size() > 9) throw bad("invalid rank");
    for (char c : digits) {
      if (c < '0' || c > '9') throw bad("invalid rank");
      rank = rank * 10 + static_cast<size_t>(c - '0');
    }
    // Ranks run 0, 1, 2, ... down the file; a rank far past its line would size the table from
    // one corrupt line (999999999: 32 GB).
    if (rank > n + 65536) throw bad("rank too large for its line");
    if (rank >= ranks.size()) ranks.resize(rank + 1);
    if (!ranks[rank].empty()) throw bad("duplicate rank");
    ranks[rank] = bytes;
  }
  if (ranks.empty()) throw TokenizerError(path + ": no ranks");
  // Byte-pair encoding needs every single byte as a token, or some inputs cannot be encoded.
  std::array<bool, 256> has_byte{};
  for (const std::string& r : ranks) {
    if (r.size() == 1) has_byte[static_cast<unsigned char>(r[0])] = true;
  }
  for (size_t b = 0; b < 256; ++b) {
    if (!has_byte[b]) throw TokenizerError(path + ": byte " + std::to_string(b) + " has no rank");
  }
  return ranks;
}

}  // namespace

bool is_known_tiktoken_encoding(const std::string& name) { return find_encoding(name) != nullptr; }

TiktokenTokenizer::TiktokenTokenizer(const std::string& path) {
  std::string name = std::filesystem::path(path).stem().string();
  const Encoding* enc = find_encoding(name);
  if (enc == nullptr) {
    throw TokenizerError(path + ": unknown tiktoken encoding '" + name +
                         "' (known: r50k_base, p50k_base, cl100k_base, o200k_base; the file name selects it)");
  }
  std::vector<std::string> ranks = read_ranks(path);
  regex_ = std::make_unique<PcreRegex>(enc->pattern);
  model_ = BpeModel::from_byte_ranks(ranks);
  vocab_size_ = ranks.size();
  for (const auto& [text, id] : enc->specials) {
    specials_.emplace(id, text);
    vocab_size_ = std::max(vocab_size_, static_cast<size_t>(id) + 1);
    if (std::string_view(text) == "<|endoftext|>") end_of_text_ = id;
  }
}

namespace {
std::string repair_utf8(std::string_view text) { return uni::from_utf8_lossy(text); }
}  // namespace

void TiktokenTokenizer::encode_ordinary_into(std::string_view text, std::vector<TokenId>& out) const {
  // The patterns cover every character, so the matches alone tile the text.
  regex_->for_each_match(text, [&](size_t b, size_t e) { model_->tokenize(text.substr(b, e - b), out); });
}

std::vector<TokenId> TiktokenTokenizer::encode_ordinary(std::string_view text) const {
  std::string repaired;
  if (!uni::is_valid_utf8(text)) {
    repaired = repair_utf8(text);
    text = repaired;
  }
  std::vector<TokenId> out;
  out.reserve(text.size() / 4 + 1);
  encode_ordinary_into(text, out);
  return out;
}

std::vector<TokenId> TiktokenTokenizer::encode(std::string_view text) const {
  std::string repaired;
  if (!uni::is_valid_utf8(text)) {
    repaired = repair_utf8(text);
    text = repaired;
  }
  std::vector<TokenId> out;
  out.reserve(text.size() / 4 + 1);
  // tiktoken splits at the leftmost special-token text and encodes the pieces between
  // separately. No special of one encoding is a prefix of another, so the first found wins.
  size_t pos = 0;
  while (pos < text.size()) {
    size_t best = std::string_view::npos;
    const std::pair<const TokenId, std::string>* hit = nullptr;
    if (text.find("<|", pos) != std::string_view::npos) {
      for (const auto& special : specials_) {
        size_t at = text.find(special.second, pos);
        if (at < best) best = at, hit = &special;
      }
    }
    if (hit == nullptr) break;
    encode_ordinary_into(text.substr(pos, best - pos), out);
    out.push_back(hit->first);
    pos = best + hit->second.size();
  }
  encode_ordinary_into(text.substr(pos), out);
  return out;
}

std::string TiktokenTokenizer::decode(std::span<const TokenId> ids, bool skip_special_tokens) const {
  std::string bytes;
  for (TokenId id : ids) {
    if (auto it = specials_.find(id); it != specials_.end()) {
      if (!skip_special_tokens) bytes += it->second;
    } else if (const std::string* t = model_->id_to_token(id)) {
      size_t i = 0;
      while (i < t->size()) bytes.push_back(static_cast<char>(uni::char_to_byte(uni::next_code_point(*t, i))));
    }
  }
  return uni::from_utf8_lossy(bytes);
}

}  // namespace aiperf::tok
