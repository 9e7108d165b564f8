#include "text_pool_loader.h"

#include "tokenizer/tokenizer.h"

namespace aiperf::mock {

TextPool load_text_pool(const MockConfig& config, const tok::HubEnv& env) {
  if (config.no_tokenizer) return TextPool::builtin_words();
  const auto tokenizer =
      tok::load_tokenizer(tok::resolve_tokenizer_path(config.tokenizer, "main", true, env), env.tokenizer_cache);
  return TextPool::from_tokenizer(*tokenizer);
}

}  // namespace aiperf::mock
