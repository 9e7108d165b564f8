// tiktoken rank files (<encoding>.tiktoken, "<base64 bytes> <rank>" lines): loading, then
// encoding and decoding a fixed mixed-script text with the result. The first byte picks the
// encoding (which the file name selects: 0 r50k_base, 1 p50k_base, 2 cl100k_base,
// 3 o200k_base, modulo 4). TokenizerError naming the file and line is the documented refusal.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_util.h"
#include "tokenizer/tiktoken_tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kNames[] = {"r50k_base", "p50k_base", "cl100k_base", "o200k_base"};
  const std::string path = aiperf::fuzz::write_scratch(
      std::string(kNames[data[0] % 4]) + ".tiktoken", std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  if (path.empty()) return 0;
  try {
    const aiperf::tok::TiktokenTokenizer t(path);
    for (std::string_view text : {"Hello world! It's 2024.\r\n  x", "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80",
                                  "<|endoftext|>ab\xff\xfe"}) {
      const auto ids = t.encode(text);
      (void)t.decode(ids, true);
      (void)t.decode(ids, false);
      (void)t.count(text);
    }
  } catch (const aiperf::tok::TokenizerError&) {
  }
  return 0;
}
