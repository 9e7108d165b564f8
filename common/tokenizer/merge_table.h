// Open-addressing hash table from a token-id pair to its merge (rank, merged id). BPE looks
// pairs up constantly, so this avoids std::unordered_map's node chasing.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

struct Merge {
  int32_t rank;
  TokenId merged;
};

class MergeTable {
 public:
  // Sizes the table for n entries; call once before insert().
  void reserve(size_t n) {
    size_t cap = 16;
    while (cap < n * 2) cap <<= 1;
    slots_.assign(cap, Slot{kEmpty, {0, 0}});
    mask_ = cap - 1;
  }

  // A repeated pair keeps the entry inserted last, as HF's merge map (built by collect()) does.
  void insert(TokenId a, TokenId b, Merge m) {
    uint64_t key = pack(a, b);
    for (size_t i = hash(key) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i].key == kEmpty || slots_[i].key == key) {
        slots_[i] = {key, m};
        return;
      }
    }
  }

  // The table as bytes, and back (tokenizer_cache.cpp): the exact slots, no re-insertion.
  std::string_view bytes() const {
    return {reinterpret_cast<const char*>(slots_.data()), slots_.size() * sizeof(Slot)};
  }
  // False when `data` is not a table of a power-of-two size.
  bool assign_bytes(std::string_view data) {
    const size_t n = data.size() / sizeof(Slot);
    if (n == 0 || n * sizeof(Slot) != data.size() || (n & (n - 1)) != 0) return false;
    slots_.resize(n);
    std::memcpy(slots_.data(), data.data(), data.size());
    mask_ = n - 1;
    return true;
  }

  const Merge* find(TokenId a, TokenId b) const {
    uint64_t key = pack(a, b);
    for (size_t i = hash(key) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return &slots_[i].merge;
      if (slots_[i].key == kEmpty) return nullptr;
    }
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  struct Slot {
    uint64_t key;
    Merge merge;
  };
  static uint64_t pack(TokenId a, TokenId b) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
  }
  static size_t hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return static_cast<size_t>(k);
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
};

}  // namespace aiperf::tok
