#include "text_pool_loader.h"

#include <stdexcept>

namespace aiperf::mock {

TextPool load_text_pool(const MockConfig& config) {
  if (config.no_tokenizer) return TextPool::builtin_words();
#if AIPERF_MOCK_HAVE_TOKENIZER
  const auto tokenizer = tok::load_tokenizer(tok::resolve_tokenizer_path(config.tokenizer));
  return TextPool::from_tokenizer(*tokenizer);
#else
  // The build had no aiperf_tokenizer target (see CMakeLists.txt): say so rather than silently
  // emitting text whose token count nobody checked.
  throw std::runtime_error("aiperf-mock-server was built without tokenizer support; use --no-tokenizer");
#endif
}

}  // namespace aiperf::mock
