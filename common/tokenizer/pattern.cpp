#include "tokenizer/pattern.h"

#include <nlohmann/json.hpp>

#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

Pattern::Pattern(const nlohmann::json& j) {
  if (j.is_object() && j.contains("String") && j["String"].is_string()) {
    literal_ = j["String"].get<std::string>();
  } else if (j.is_object() && j.contains("Regex") && j["Regex"].is_string()) {
    regex_ = std::make_unique<PcreRegex>(j["Regex"].get<std::string>());
  } else {
    throw TokenizerError("unsupported pattern " + j.dump());
  }
}

template <class F>
void Pattern::for_each_match(std::string_view s, F&& on_match) const {
  if (regex_) {
    regex_->for_each_match(s, on_match);
    return;
  }
  if (literal_.empty()) return;  // HF: an empty literal never splits
  for (size_t pos = s.find(literal_); pos != std::string_view::npos;
       pos = s.find(literal_, pos + literal_.size())) {
    on_match(pos, pos + literal_.size());
  }
}

void Pattern::find_spans(std::string_view s, std::vector<Span>& spans) const {
  spans.clear();
  if (s.empty()) {
    spans.push_back({0, 0, false});
    return;
  }
  size_t prev = 0;
  for_each_match(s, [&](size_t b, size_t e) {
    if (b != prev) spans.push_back({static_cast<uint32_t>(prev), static_cast<uint32_t>(b), false});
    spans.push_back({static_cast<uint32_t>(b), static_cast<uint32_t>(e), true});
    prev = e;
  });
  if (prev != s.size()) {
    spans.push_back({static_cast<uint32_t>(prev), static_cast<uint32_t>(s.size()), false});
  }
}

std::string Pattern::replace_all(std::string_view s, std::string_view content) const {
  std::string out;
  out.reserve(s.size());
  size_t prev = 0;
  for_each_match(s, [&](size_t b, size_t e) {
    out.append(s.substr(prev, b - prev));
    out.append(content);
    prev = e;
  });
  out.append(s.substr(prev));
  return out;
}

}  // namespace aiperf::tok
