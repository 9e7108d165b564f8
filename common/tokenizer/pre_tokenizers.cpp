#include "tokenizer/pre_tokenizers.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tokenizer/pattern.h"
#include "tokenizer/pcre_regex.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/unicode_util.h"

namespace aiperf::tok {

namespace {

SplitBehavior parse_behavior(const std::string& name) {
  if (name == "Removed") return SplitBehavior::Removed;
  if (name == "Isolated") return SplitBehavior::Isolated;
  if (name == "MergedWithPrevious") return SplitBehavior::MergedWithPrevious;
  if (name == "MergedWithNext") return SplitBehavior::MergedWithNext;
  if (name == "Contiguous") return SplitBehavior::Contiguous;
  throw TokenizerError("unsupported split behavior '" + name + "'");
}

// Spans for a per-character predicate: every matching character is its own match.
template <class Pred>
void char_spans(std::string_view s, Pred pred, std::vector<Span>& spans) {
  spans.clear();
  size_t i = 0, gap = 0;
  while (i < s.size()) {
    size_t b = i;
    if (pred(uni::next_code_point(s, i))) {
      if (gap != b) spans.push_back({static_cast<uint32_t>(gap), static_cast<uint32_t>(b), false});
      spans.push_back({static_cast<uint32_t>(b), static_cast<uint32_t>(i), true});
      gap = i;
    }
  }
  if (gap != s.size() || s.empty()) {
    spans.push_back({static_cast<uint32_t>(gap), static_cast<uint32_t>(s.size()), false});
  }
}

// Applies `make_spans(text, spans)` to every piece and splits it with `behavior`.
template <class MakeSpans>
void split_all(PieceList& list, SplitBehavior behavior, MakeSpans make_spans) {
  std::vector<Piece> out;
  out.reserve(list.pieces.size() * 2);
  std::vector<Span> spans;
  for (const Piece& p : list.pieces) {
    make_spans(list.view(p), spans);
    split_piece(p, spans, behavior, out);
  }
  list.pieces.swap(out);
}

class ByteLevel : public PreTokenizer {
 public:
  ByteLevel(bool add_prefix_space, bool use_regex, bool map_bytes)
      : add_prefix_space_(add_prefix_space), map_bytes_(map_bytes) {
    if (use_regex) regex_ = std::make_unique<PcreRegex>(uni::kGpt2Pattern);
  }

  void pre_tokenize(PieceList& list) const override {
    if (add_prefix_space_) {
      for (Piece& p : list.pieces) {
        std::string_view v = list.view(p);
        if (v.empty() || v.front() != ' ') p = list.add(" " + std::string(v), p.at_start);
      }
    }
    if (regex_) {
      split_all(list, SplitBehavior::Isolated, [&](std::string_view s, std::vector<Span>& spans) {
        spans.clear();
        size_t prev = 0;
        regex_->for_each_match(s, [&](size_t b, size_t e) {
          if (b != prev) spans.push_back({static_cast<uint32_t>(prev), static_cast<uint32_t>(b), false});
          spans.push_back({static_cast<uint32_t>(b), static_cast<uint32_t>(e), true});
          prev = e;
        });
        if (prev != s.size()) spans.push_back({static_cast<uint32_t>(prev), static_cast<uint32_t>(s.size()), false});
      });
    }
    if (map_bytes_) {
      const auto& table = uni::byte_to_char();
      std::string mapped;
      for (Piece& p : list.pieces) {
        mapped.clear();
        for (unsigned char c : list.view(p)) uni::append_utf8(mapped, table[c]);
        p = list.add(mapped, p.at_start);
      }
    }
  }

 private:
  bool add_prefix_space_;
  bool map_bytes_;
  std::unique_ptr<PcreRegex> regex_;
};

class Split : public PreTokenizer {
 public:
  Split(const nlohmann::json& pattern, SplitBehavior behavior, bool invert)
      : pattern_(pattern), behavior_(behavior), invert_(invert) {}

  void pre_tokenize(PieceList& list) const override {
    split_all(list, behavior_, [&](std::string_view s, std::vector<Span>& spans) {
      pattern_.find_spans(s, spans);
      if (invert_)
        for (Span& sp : spans) sp.is_match = !sp.is_match;
    });
  }

 private:
  Pattern pattern_;
  SplitBehavior behavior_;
  bool invert_;
};

enum class PrependScheme { Always, First, Never };

class Metaspace : public PreTokenizer {
 public:
  Metaspace(std::string replacement, PrependScheme scheme, bool split)
      : replacement_(std::move(replacement)),
        scheme_(scheme),
        split_(split),
        replacement_pattern_(nlohmann::json{{"String", replacement_}}) {}

  void pre_tokenize(PieceList& list) const override {
    std::string s;
    for (Piece& p : list.pieces) {
      std::string_view v = list.view(p);
      s.clear();
      bool prepend = scheme_ == PrependScheme::Always || (scheme_ == PrependScheme::First && p.at_start);
      if (prepend && !(v.size() && v.front() == ' ') && v.substr(0, replacement_.size()) != replacement_) {
        s += replacement_;
      }
      for (char c : v) {
        if (c == ' ') {
          s += replacement_;
        } else {
          s.push_back(c);
        }
      }
      p = list.add(s, p.at_start);
    }
    if (split_) {
      split_all(list, SplitBehavior::MergedWithNext, [&](std::string_view text, std::vector<Span>& spans) {
        replacement_pattern_.find_spans(text, spans);
      });
    }
  }

 private:
  std::string replacement_;
  PrependScheme scheme_;
  bool split_;
  Pattern replacement_pattern_;
};

class CharSplit : public PreTokenizer {
 public:
  CharSplit(bool (*pred)(char32_t), SplitBehavior behavior) : pred_(pred), behavior_(behavior) {}
  void pre_tokenize(PieceList& list) const override {
    split_all(list, behavior_, [&](std::string_view s, std::vector<Span>& spans) { char_spans(s, pred_, spans); });
  }

 private:
  bool (*pred_)(char32_t);
  SplitBehavior behavior_;
};

class SequencePreTokenizer : public PreTokenizer {
 public:
  explicit SequencePreTokenizer(std::vector<PreTokenizerPtr> steps) : steps_(std::move(steps)) {}
  void pre_tokenize(PieceList& list) const override {
    for (const auto& step : steps_) step->pre_tokenize(list);
  }

 private:
  std::vector<PreTokenizerPtr> steps_;
};

PrependScheme parse_prepend_scheme(const nlohmann::json& j) {
  if (j.contains("prepend_scheme")) {
    const auto name = j["prepend_scheme"].get<std::string>();
    if (name == "always") return PrependScheme::Always;
    if (name == "first") return PrependScheme::First;
    if (name == "never") return PrependScheme::Never;
    throw TokenizerError("unsupported Metaspace prepend_scheme '" + name + "'");
  }
  // Files written before prepend_scheme existed carry add_prefix_space instead.
  return j.value("add_prefix_space", true) ? PrependScheme::Always : PrependScheme::Never;
}

PreTokenizerPtr build(const nlohmann::json& j, bool defer_bytes) {
  const std::string type = j.value("type", "");
  if (type == "ByteLevel") {
    return std::make_unique<ByteLevel>(j.value("add_prefix_space", true), j.value("use_regex", true), !defer_bytes);
  }
  if (type == "Split") {
    return std::make_unique<Split>(j.at("pattern"), parse_behavior(j.at("behavior").get<std::string>()),
                                   j.value("invert", false));
  }
  if (type == "Metaspace") {
    return std::make_unique<Metaspace>(j.value("replacement", std::string("\xE2\x96\x81")),
                                       parse_prepend_scheme(j), j.value("split", true));
  }
  if (type == "Digits") {
    return std::make_unique<CharSplit>(&uni::is_numeric, j.value("individual_digits", false)
                                                              ? SplitBehavior::Isolated
                                                              : SplitBehavior::Contiguous);
  }
  if (type == "Punctuation") {
    return std::make_unique<CharSplit>(&uni::is_punctuation, parse_behavior(j.value("behavior", "Isolated")));
  }
  if (type == "WhitespaceSplit") return std::make_unique<CharSplit>(&uni::is_whitespace, SplitBehavior::Removed);
  if (type == "BertPreTokenizer") {
    // Whitespace separates words (and is dropped); every punctuation character is a word.
    std::vector<PreTokenizerPtr> steps;
    steps.push_back(std::make_unique<CharSplit>(&uni::is_whitespace, SplitBehavior::Removed));
    steps.push_back(std::make_unique<CharSplit>(&uni::is_punctuation, SplitBehavior::Isolated));
    return std::make_unique<SequencePreTokenizer>(std::move(steps));
  }
  if (type == "Whitespace") {
    // HF: split on \w+|[^\w\s]+ keeping only the matches (Removed + invert).
    return std::make_unique<Split>(nlohmann::json{{"Regex", R"(\w+|[^\w\s]+)"}}, SplitBehavior::Removed, true);
  }
  if (type == "Sequence") {
    const auto& subs = j.at("pretokenizers");
    std::vector<PreTokenizerPtr> steps;
    for (size_t i = 0; i < subs.size(); ++i) steps.push_back(build(subs[i], defer_bytes && i + 1 == subs.size()));
    return std::make_unique<SequencePreTokenizer>(std::move(steps));
  }
  throw TokenizerError("unsupported pre_tokenizer type '" + type + "'");
}

// True when the last step of the chain `j` is ByteLevel.
bool ends_with_byte_level(const nlohmann::json& j) {
  const std::string type = j.value("type", "");
  if (type == "ByteLevel") return true;
  if (type == "Sequence" && j.contains("pretokenizers") && !j["pretokenizers"].empty()) {
    return ends_with_byte_level(j["pretokenizers"].back());
  }
  return false;
}

}  // namespace

PreTokenizerPtr make_pre_tokenizer(const nlohmann::json& j, bool may_defer_bytes, bool& bytes_deferred) {
  bytes_deferred = false;
  if (j.is_null()) return nullptr;
  bytes_deferred = may_defer_bytes && ends_with_byte_level(j);
  return build(j, bytes_deferred);
}

}  // namespace aiperf::tok
