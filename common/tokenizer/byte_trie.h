// A byte trie over vocab strings for common-prefix search (Unigram lattice). Children live in
// one open-addressing table keyed by (node, byte), which keeps the trie compact for 250k-entry
// vocabularies and makes a step one probe.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

namespace aiperf::tok {

class ByteTrie {
 public:
  ByteTrie() : values_(1, -1) {}

  // Maps `key` (non-empty) to `value`; a repeated key keeps the value inserted last.
  void insert(std::string_view key, int32_t value) {
    int32_t node = 0;
    for (unsigned char c : key) {
      int32_t next = child(node, c);
      if (next < 0) {
        next = static_cast<int32_t>(values_.size());
        values_.push_back(-1);
        add_child(node, c, next);
      }
      node = next;
    }
    values_[node] = value;
  }

  // Calls on_match(length, value) for every key that is a prefix of s, shortest first.
  template <class F>
  void for_each_prefix(std::string_view s, F&& on_match) const {
    int32_t node = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      node = child(node, static_cast<unsigned char>(s[i]));
      if (node < 0) return;
      if (values_[node] >= 0) on_match(i + 1, values_[node]);
    }
  }

 private:
  struct Slot {
    uint64_t key;  // (node << 8 | byte) + 1; 0 marks an empty slot
    int32_t child;
  };

  static size_t hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return static_cast<size_t>(k);
  }

  int32_t child(int32_t node, unsigned char c) const {
    if (slots_.empty()) return -1;
    uint64_t key = ((static_cast<uint64_t>(node) << 8) | c) + 1;
    for (size_t i = hash(key) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return slots_[i].child;
      if (slots_[i].key == 0) return -1;
    }
  }

  void add_child(int32_t node, unsigned char c, int32_t next) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    place({((static_cast<uint64_t>(node) << 8) | c) + 1, next});
    ++count_;
  }

  void place(Slot s) {
    for (size_t i = hash(s.key) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i].key == 0) {
        slots_[i] = s;
        return;
      }
    }
  }

  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{0, -1});
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.key != 0) place(s);
    }
  }

  std::vector<int32_t> values_;  // per node: the value of the key ending there, or -1
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t count_ = 0;
};

}  // namespace aiperf::tok
