#include "tokenizer/decoders.h"

#include <nlohmann/json.hpp>

#include "tokenizer/pattern.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/unicode_util.h"

namespace aiperf::tok {

namespace {

constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";

// Maps byte-level alphabet characters back to bytes, then decodes the bytes lossily (one
// U+FFFD per maximal invalid subsequence). A token holding a character outside the alphabet
// contributes its own UTF-8 bytes unchanged.
class ByteLevelDecoder : public Decoder {
 public:
  void decode_chain(std::vector<std::string>& tokens) const override {
    std::string bytes;
    for (const std::string& t : tokens) {
      size_t mark = bytes.size();
      size_t i = 0;
      bool in_alphabet = true;
      while (i < t.size()) {
        int b = uni::char_to_byte(uni::next_code_point(t, i));
        if (b < 0) {
          in_alphabet = false;
          break;
        }
        bytes.push_back(static_cast<char>(b));
      }
      if (!in_alphabet) {
        bytes.resize(mark);
        bytes += t;
      }
    }
    tokens.assign(1, uni::from_utf8_lossy(bytes));
  }
};

// Parses "<0xXX>" into its byte value; -1 for anything else.
int byte_token_value(const std::string& t) {
  if (t.size() != 6 || t.compare(0, 3, "<0x") != 0 || t[5] != '>') return -1;
  int v = 0;
  for (int k = 3; k < 5; ++k) {
    char c = t[k];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// Runs of <0xXX> tokens become their UTF-8 text, or one U+FFFD per byte when the run is not
// valid UTF-8 (HF ByteFallback).
class ByteFallbackDecoder : public Decoder {
 public:
  void decode_chain(std::vector<std::string>& tokens) const override {
    std::vector<std::string> out;
    out.reserve(tokens.size());
    std::string run;
    auto flush = [&] {
      if (run.empty()) return;
      if (uni::is_valid_utf8(run)) {
        out.push_back(run);
      } else {
        for (size_t k = 0; k < run.size(); ++k) out.emplace_back(kReplacementChar);
      }
      run.clear();
    };
    for (std::string& t : tokens) {
      int b = byte_token_value(t);
      if (b >= 0) {
        run.push_back(static_cast<char>(b));
      } else {
        flush();
        out.push_back(std::move(t));
      }
    }
    flush();
    tokens.swap(out);
  }
};

class FuseDecoder : public Decoder {
 public:
  void decode_chain(std::vector<std::string>& tokens) const override {
    std::string all;
    for (const auto& t : tokens) all += t;
    tokens.assign(1, std::move(all));
  }
};

// Removes up to `start` leading and `stop` trailing copies of `content` from every token.
class StripDecoder : public Decoder {
 public:
  StripDecoder(std::string content, size_t start, size_t stop)
      : content_(std::move(content)), start_(start), stop_(stop) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    for (std::string& t : tokens) {
      size_t b = 0, e = t.size();
      for (size_t k = 0; k < start_ && t.compare(b, content_.size(), content_) == 0 && b < e; ++k) {
        b += content_.size();
      }
      for (size_t k = 0; k < stop_ && e >= b + content_.size() &&
                         t.compare(e - content_.size(), content_.size(), content_) == 0;
           ++k) {
        e -= content_.size();
      }
      t = t.substr(b, e - b);
    }
  }

 private:
  std::string content_;
  size_t start_, stop_;
};

class ReplaceDecoder : public Decoder {
 public:
  ReplaceDecoder(const nlohmann::json& pattern, std::string content)
      : pattern_(pattern), content_(std::move(content)) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    for (std::string& t : tokens) t = pattern_.replace_all(t, content_);
  }

 private:
  Pattern pattern_;
  std::string content_;
};

// Replacement characters become spaces; in the first token they are dropped instead unless
// prepend_scheme is "never" (HF Metaspace decoder).
class MetaspaceDecoder : public Decoder {
 public:
  MetaspaceDecoder(std::string replacement, bool strip_first)
      : replacement_(std::move(replacement)), strip_first_(strip_first) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    for (size_t i = 0; i < tokens.size(); ++i) {
      const std::string& t = tokens[i];
      std::string out;
      out.reserve(t.size());
      size_t pos = 0;
      for (size_t hit = t.find(replacement_); hit != std::string::npos; hit = t.find(replacement_, pos)) {
        out.append(t, pos, hit - pos);
        if (!(i == 0 && strip_first_)) out.push_back(' ');
        pos = hit + replacement_.size();
      }
      out.append(t, pos, std::string::npos);
      tokens[i] = std::move(out);
    }
  }

 private:
  std::string replacement_;
  bool strip_first_;
};

// Joins WordPiece tokens: a continuation ("##ing") is glued to the previous token, any other
// token after the first gets a leading space; with cleanup, HF's detokenization fix-ups
// (" ." -> "." and similar) are applied to every token.
class WordPieceDecoder : public Decoder {
 public:
  WordPieceDecoder(std::string prefix, bool cleanup) : prefix_(std::move(prefix)), cleanup_(cleanup) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    for (size_t i = 0; i < tokens.size(); ++i) {
      std::string& t = tokens[i];
      if (i != 0) {
        if (t.starts_with(prefix_)) {
          t.erase(0, prefix_.size());
        } else {
          t = " " + t;
        }
      }
      if (cleanup_) t = cleanup(t);
    }
  }

 private:
  static void replace_all(std::string& s, std::string_view from, std::string_view to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
      s.replace(at, from.size(), to);
    }
  }
  // HF decoders::wordpiece::cleanup, replacement by replacement in its order.
  static std::string cleanup(std::string s) {
    static constexpr std::pair<std::string_view, std::string_view> kFixes[] = {
        {" .", "."},   {" ?", "?"},   {" !", "!"},           {" ,", ","},   {" ' ", "'"},  {" n't", "n't"},
        {" 'm", "'m"}, {" do not", " don't"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
    for (const auto& [from, to] : kFixes) replace_all(s, from, to);
    return s;
  }

  std::string prefix_;
  bool cleanup_;
};

class SequenceDecoder : public Decoder {
 public:
  explicit SequenceDecoder(std::vector<DecoderPtr> steps) : steps_(std::move(steps)) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    for (const auto& d : steps_) d->decode_chain(tokens);
  }

 private:
  std::vector<DecoderPtr> steps_;
};

}  // namespace

DecoderPtr make_decoder(const nlohmann::json& j) {
  if (j.is_null()) return nullptr;
  const std::string type = j.value("type", "");
  if (type == "ByteLevel") return std::make_unique<ByteLevelDecoder>();
  if (type == "ByteFallback") return std::make_unique<ByteFallbackDecoder>();
  if (type == "Fuse") return std::make_unique<FuseDecoder>();
  if (type == "Strip") {
    return std::make_unique<StripDecoder>(j.at("content").get<std::string>(), j.value("start", 0u), j.value("stop", 0u));
  }
  if (type == "Replace") return std::make_unique<ReplaceDecoder>(j.at("pattern"), j.at("content").get<std::string>());
  if (type == "Metaspace") {
    bool strip_first = j.contains("prepend_scheme") ? j["prepend_scheme"].get<std::string>() != "never"
                                                    : j.value("add_prefix_space", true);
    return std::make_unique<MetaspaceDecoder>(j.value("replacement", std::string("\xE2\x96\x81")), strip_first);
  }
  if (type == "WordPiece") {
    return std::make_unique<WordPieceDecoder>(j.value("prefix", std::string("##")), j.value("cleanup", true));
  }
  if (type == "Sequence") {
    std::vector<DecoderPtr> steps;
    for (const auto& sub : j.at("decoders")) {
      if (auto d = make_decoder(sub)) steps.push_back(std::move(d));
    }
    return std::make_unique<SequenceDecoder>(std::move(steps));
  }
  throw TokenizerError("unsupported decoder type '" + type + "'");
}

}  // namespace aiperf::tok
