#include "tokenizer/normalizers.h"

#include <utf8proc.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <vector>

#include "tokenizer/base64.h"
#include "tokenizer/pattern.h"
#include "tokenizer/precompiled_charsmap.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/unicode_util.h"
#include "tokenizer/unicode_v9.h"

namespace aiperf::tok {

namespace {

bool is_ascii(const std::string& s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

// NFC / NFD / NFKC / NFKD through utf8proc. ASCII text is already in every normal form.
class UnicodeNormalizer : public Normalizer {
 public:
  explicit UnicodeNormalizer(int options) : options_(options) {}
  void normalize(std::string& s) const override {
    if (is_ascii(s)) return;
    utf8proc_uint8_t* out = nullptr;
    auto n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
                          static_cast<utf8proc_ssize_t>(s.size()), &out,
                          static_cast<utf8proc_option_t>(options_));
    if (n >= 0) s.assign(reinterpret_cast<const char*>(out), static_cast<size_t>(n));
    std::free(out);
  }

 private:
  int options_;
};

std::string nfd(const std::string& s) {
  std::string out = s;
  UnicodeNormalizer(UTF8PROC_STABLE | UTF8PROC_DECOMPOSE).normalize(out);
  return out;
}

// Rewrites every character of s through f(cp, out), which appends its replacement (if any).
template <class F>
void map_chars(std::string& s, F&& f) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) f(uni::next_code_point(s, i), out);
  s.swap(out);
}

// Removes combining marks (HF StripAccents; usually after NFD).
class StripAccents : public Normalizer {
 public:
  void normalize(std::string& s) const override {
    if (is_ascii(s)) return;
    map_chars(s, [](char32_t cp, std::string& out) {
      if (!uni::is_mark_v9(cp)) uni::append_utf8(out, cp);
    });
  }
};

// Control characters dropped and unusual whitespace made a space (HF Nmt, SentencePiece's
// nmt_nfkc cleanup without the NFKC part).
class Nmt : public Normalizer {
 public:
  void normalize(std::string& s) const override {
    map_chars(s, [](char32_t cp, std::string& out) {
      if ((cp >= 0x1 && cp <= 0x8) || cp == 0xB || (cp >= 0xE && cp <= 0x1F) || cp == 0x7F || cp == 0x8F ||
          cp == 0x9F) {
        return;
      }
      bool space = cp == 0x9 || cp == 0xA || cp == 0xC || cp == 0xD || cp == 0x1680 || (cp >= 0x200B && cp <= 0x200F) ||
                   cp == 0x2028 || cp == 0x2029 || cp == 0x2581 || cp == 0xFEFF || cp == 0xFFFD;
      uni::append_utf8(out, space ? U' ' : cp);
    });
  }
};

class Precompiled : public Normalizer {
 public:
  explicit Precompiled(std::string_view blob) : map_(blob) {}
  void normalize(std::string& s) const override { map_.normalize(s); }

 private:
  PrecompiledCharsmap map_;
};

// Rust char::to_lowercase per character; U+0130 is the one code point whose full lowercase
// mapping is two characters.
class Lowercase : public Normalizer {
 public:
  void normalize(std::string& s) const override {
    std::string out;
    out.reserve(s.size());
    size_t i = 0;
    while (i < s.size()) {
      char32_t cp = uni::next_code_point(s, i);
      if (cp == 0x130) {
        out += "i\xCC\x87";
      } else {
        uni::append_utf8(out, static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(cp))));
      }
    }
    s.swap(out);
  }
};

// BERT's basic cleanup (HF BertNormalizer), in HF's order: drop NUL, U+FFFD and other
// control/format/unassigned characters while turning whitespace into spaces; surround CJK
// ideographs with spaces; strip accents (NFD, then drop nonspacing marks); lowercase.
class BertNormalizer : public Normalizer {
 public:
  BertNormalizer(bool clean_text, bool chinese_chars, bool strip_accents, bool lowercase)
      : clean_text_(clean_text), chinese_chars_(chinese_chars), strip_accents_(strip_accents), lowercase_(lowercase) {}

  void normalize(std::string& s) const override {
    if (clean_text_ || chinese_chars_) {
      map_chars(s, [this](char32_t cp, std::string& out) {
        if (clean_text_) {
          // HF filters before it maps, so VT, FF and NEL (controls that are also whitespace)
          // are dropped, not turned into spaces.
          bool tab_or_newline = cp == '\t' || cp == '\n' || cp == '\r';
          if (cp == 0 || cp == 0xFFFD || (!tab_or_newline && uni::is_other_v9(cp))) return;
          if (tab_or_newline || uni::is_whitespace(cp)) {
            out.push_back(' ');
            return;
          }
        }
        if (chinese_chars_ && is_cjk_ideograph(cp)) {
          out.push_back(' ');
          uni::append_utf8(out, cp);
          out.push_back(' ');
          return;
        }
        uni::append_utf8(out, cp);
      });
    }
    if (strip_accents_ && !is_ascii(s)) {
      s = nfd(s);
      map_chars(s, [](char32_t cp, std::string& out) {
        if (!uni::is_nonspacing_mark_v9(cp)) uni::append_utf8(out, cp);
      });
    }
    if (lowercase_) Lowercase().normalize(s);
  }

 private:
  // The CJK Unified Ideograph blocks BERT splits character by character.
  static bool is_cjk_ideograph(char32_t cp) {
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x20000 && cp <= 0x2A6DF) ||
           (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B920 && cp <= 0x2CEAF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
  }

  bool clean_text_, chinese_chars_, strip_accents_, lowercase_;
};

class Prepend : public Normalizer {
 public:
  explicit Prepend(std::string p) : prefix_(std::move(p)) {}
  void normalize(std::string& s) const override {
    if (!s.empty()) s.insert(0, prefix_);
  }

 private:
  std::string prefix_;
};

class Replace : public Normalizer {
 public:
  Replace(const nlohmann::json& pattern, std::string content)
      : pattern_(pattern), content_(std::move(content)) {}
  void normalize(std::string& s) const override { s = pattern_.replace_all(s, content_); }

 private:
  Pattern pattern_;
  std::string content_;
};

// Strips Unicode whitespace from either end.
class Strip : public Normalizer {
 public:
  Strip(bool left, bool right) : left_(left), right_(right) {}
  void normalize(std::string& s) const override {
    size_t begin = 0, end = s.size();
    if (left_) {
      size_t i = 0;
      while (i < s.size() && uni::is_whitespace(uni::next_code_point(s, i))) begin = i;
    }
    if (right_) {
      while (end > begin) {
        size_t start = end - 1;
        while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
        size_t i = start;
        if (!uni::is_whitespace(uni::next_code_point(s, i))) break;
        end = start;
      }
    }
    s = s.substr(begin, end - begin);
  }

 private:
  bool left_, right_;
};

class SequenceNormalizer : public Normalizer {
 public:
  explicit SequenceNormalizer(std::vector<NormalizerPtr> steps) : steps_(std::move(steps)) {}
  void normalize(std::string& s) const override {
    for (const auto& n : steps_) n->normalize(s);
  }

 private:
  std::vector<NormalizerPtr> steps_;
};

}  // namespace

NormalizerPtr make_normalizer(const nlohmann::json& j) {
  if (j.is_null()) return nullptr;
  const std::string type = j.value("type", "");
  if (type == "NFC") return std::make_unique<UnicodeNormalizer>(UTF8PROC_STABLE | UTF8PROC_COMPOSE);
  if (type == "NFD") return std::make_unique<UnicodeNormalizer>(UTF8PROC_STABLE | UTF8PROC_DECOMPOSE);
  if (type == "NFKC") {
    return std::make_unique<UnicodeNormalizer>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT);
  }
  if (type == "NFKD") {
    return std::make_unique<UnicodeNormalizer>(UTF8PROC_STABLE | UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT);
  }
  if (type == "Lowercase") return std::make_unique<Lowercase>();
  if (type == "Prepend") return std::make_unique<Prepend>(j.at("prepend").get<std::string>());
  if (type == "Replace") {
    return std::make_unique<Replace>(j.at("pattern"), j.at("content").get<std::string>());
  }
  if (type == "Strip") return std::make_unique<Strip>(j.value("strip_left", true), j.value("strip_right", true));
  if (type == "StripAccents") return std::make_unique<StripAccents>();
  if (type == "Nmt") return std::make_unique<Nmt>();
  if (type == "BertNormalizer") {
    bool lowercase = j.value("lowercase", true);
    // strip_accents null (the usual value) follows lowercase.
    bool strip = j.contains("strip_accents") && j["strip_accents"].is_boolean() ? j["strip_accents"].get<bool>()
                                                                                  : lowercase;
    return std::make_unique<BertNormalizer>(j.value("clean_text", true), j.value("handle_chinese_chars", true), strip,
                                            lowercase);
  }
  if (type == "Precompiled") {
    std::string blob;
    if (!base64_decode(j.at("precompiled_charsmap").get<std::string>(), blob)) {
      throw TokenizerError("Precompiled precompiled_charsmap is not valid base64");
    }
    return std::make_unique<Precompiled>(blob);
  }
  if (type == "Sequence") {
    std::vector<NormalizerPtr> steps;
    for (const auto& sub : j.at("normalizers")) {
      if (auto n = make_normalizer(sub)) steps.push_back(std::move(n));
    }
    return std::make_unique<SequenceNormalizer>(std::move(steps));
  }
  throw TokenizerError("unsupported normalizer type '" + type + "'");
}

}  // namespace aiperf::tok
