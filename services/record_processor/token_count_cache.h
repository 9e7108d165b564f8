// Token counts of texts the record processor has already tokenized. Datasets are sampled again
// and again, so the same prompt reaches the record processor many times: counting it once
// instead of on every record saves the tokenizer's time, which grows with the prompt (about
// 0.1 ms per 1000 tokens). Keyed by the whole text, so a hit is exact. Bounded: when the texts
// held exceed the budget the cache starts over.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

namespace aiperf::record_processor {

class TokenCountCache {
 public:
  explicit TokenCountCache(size_t max_text_bytes = 64u << 20) : max_bytes_(max_text_bytes) {}

  std::optional<uint64_t> find(const std::string& text) const {
    auto it = counts_.find(text);
    if (it == counts_.end()) return std::nullopt;
    return it->second;
  }

  void insert(std::string text, uint64_t count) {
    if (text.size() > max_bytes_) return;
    if (bytes_ + text.size() > max_bytes_) clear();
    bytes_ += text.size();
    counts_.emplace(std::move(text), count);
  }

  void clear() {
    counts_.clear();
    bytes_ = 0;
  }
  size_t size() const { return counts_.size(); }

 private:
  size_t max_bytes_;
  size_t bytes_ = 0;
  std::unordered_map<std::string, uint64_t> counts_;
};

}  // namespace aiperf::record_processor
