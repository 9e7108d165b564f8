// tokenizer.json loading: the input is a whole tokenizer.json (seeds are small real-shaped
// ones: BPE, WordPiece, Unigram, with normalizers, pre-tokenizers, decoders and added tokens).
// A loaded tokenizer then encodes and decodes a fixed mixed-script text. TokenizerError and
// nlohmann's exceptions are what load_hf_json_cached turns into one error naming the file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tokenizer/hf_tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return 0;
  try {
    const aiperf::tok::HfTokenizer tokenizer(json, nlohmann::json());
    for (std::string_view sample : {"Hello world! It's 2024.", "  tabs\tand\nnewlines  ",
                                    "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80", "<s>x</s><unk>"}) {
      const auto ids = tokenizer.encode(sample);
      (void)tokenizer.decode(ids, true);
      (void)tokenizer.decode(ids, false);
    }
  } catch (const aiperf::tok::TokenizerError&) {
  } catch (const nlohmann::json::exception&) {
  }
  return 0;
}
