// Encoding any text a prompt, a dataset file or a response could hold (invalid UTF-8 included)
// with three real tokenizers of different kinds, loaded once: GPT-2 (byte-level BPE, bundled),
// Mistral (SentencePiece-style BPE with byte fallback, tokenizer.json) and cl100k_base
// (tiktoken, PCRE split). Byte 0 picks the tokenizer (modulo 3, in that order); the rest is the
// text. SentencePiece .model files are left out: the shim is dlopen'ed with RTLD_DEEPBIND, which
// ASan refuses, and the encoding itself is libsentencepiece's. count() must agree
// with encode(), and decoding the ids (with and without special tokens) must not fail.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace {

std::vector<aiperf::tok::TokenizerPtr>& tokenizers() {
  static std::vector<aiperf::tok::TokenizerPtr> t;
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // "" = no binary cache: the fuzzer never writes into the user's cache directory.
  for (const char* path : {AIPERF_SOURCE_DIR "/common/tokenizer/data/gpt2/tokenizer.json",
                           AIPERF_SOURCE_DIR "/tests/data/tokenizer/mistral/tokenizer.json",
                           AIPERF_SOURCE_DIR "/common/tokenizer/data/tiktoken/cl100k_base.tiktoken"})
    tokenizers().push_back(aiperf::tok::load_tokenizer(path, ""));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& t = *tokenizers()[data[0] % tokenizers().size()];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const auto ids = t.encode(text);
  if (t.count(text) != ids.size()) std::abort();
  for (auto id : ids)
    if (id < 0 || static_cast<size_t>(id) >= t.vocab_size()) std::abort();
  (void)t.decode(ids, true);
  (void)t.decode(ids, false);
  return 0;
}
