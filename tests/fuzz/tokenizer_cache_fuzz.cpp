// The tokenizer cache's binary BPE form (tokenizer_cache.h): a file under ~/.cache that anything
// could have truncated or overwritten, so BpeModel::load must refuse whatever is not its own
// output. Inputs starting with '{' are a tokenizer.json `model` object instead: built, saved,
// loaded back and compared, so the round trip is fuzzed too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tokenizer/bpe_model.h"

using aiperf::tok::BpeModel;
using aiperf::tok::TokenId;

namespace {

void exercise(const BpeModel& m, std::vector<TokenId>& ids) {
  // Valid UTF-8 only: that is tokenize()'s precondition (HfTokenizer repairs text before).
  for (std::string_view piece : {"hello", "\xc4\xa0world", "\xe2\x96\x81the", "ab\xc3\xa9"}) m.tokenize(piece, ids);
  for (TokenId id : ids) (void)m.id_to_token(id);
  (void)m.id_to_token(-1);
  (void)m.id_to_token(static_cast<TokenId>(m.vocab_size()));
  (void)m.token_to_id("hello");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (!bytes.empty() && bytes.front() == '{') {
    const nlohmann::json json = nlohmann::json::parse(bytes, nullptr, false);
    if (json.is_discarded()) return 0;
    std::unique_ptr<BpeModel> built;
    try {
      built = std::make_unique<BpeModel>(json, /*byte_input=*/true);
    } catch (const std::exception&) {  // TokenizerError or a wrongly typed member
      return 0;
    }
    std::string saved;
    built->save(saved);
    const auto loaded = BpeModel::load(saved);
    if (!loaded) std::abort();  // its own output must load
    std::vector<TokenId> a, b;
    exercise(*built, a);
    exercise(*loaded, b);
    if (a != b) std::abort();
    return 0;
  }
  if (const auto model = BpeModel::load(bytes)) {
    std::vector<TokenId> ids;
    exercise(*model, ids);
  }
  return 0;
}
