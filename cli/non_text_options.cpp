#include "non_text_options.h"

#include <algorithm>
#include <vector>


namespace aiperf::cli {

namespace {

// Adds `name`'s option (any of its spellings) with the text AIPerf names it by; options this
// build does not have are skipped.
void watch(CLI::App& app, std::vector<std::pair<const CLI::Option*, std::string>>& into, const std::string& name,
           const std::string& shown) {
  if (const CLI::Option* opt = app.get_option_no_throw(name)) into.emplace_back(opt, shown);
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

std::vector<std::string> given(const std::vector<std::pair<const CLI::Option*, std::string>>& options) {
  std::vector<std::string> out;
  for (const auto& [opt, shown] : options) {
    if (opt->count() > 0) out.push_back(shown);
  }
  return out;
}

}  // namespace

void watch_non_text_options(CLI::App& app, ProfileOptions& o) {
  auto& n = o.non_text;
  // AIPerf's _NON_TEXT_TEXT_TRIGGERS, in its order (--random-range-ratio is not an option here).
  watch(app, n.text, "--isl", "--isl/--prompt-input-tokens-mean/--synthetic-input-tokens-mean");
  watch(app, n.text, "--isl-stddev", "--isl-stddev/--prompt-input-tokens-stddev/--synthetic-input-tokens-stddev");
  watch(app, n.text, "--isl-block-size",
        "--isl-block-size/--prompt-input-tokens-block-size/--synthetic-input-tokens-block-size");
  watch(app, n.text, "--prompt-batch-size", "--prompt-batch-size/--batch-size-text");
  watch(app, n.text, "--seq-dist", "--seq-dist/--sequence-distribution");
  watch(app, n.text, "--random-range-ratio", "--random-range-ratio");
  // Its prompt_prefix_* fields, named as fields.
  watch(app, n.prefix, "--prompt-prefix-pool-size", "prompt_prefix_pool_size");
  watch(app, n.prefix, "--prompt-prefix-length", "prompt_prefix_length");
  watch(app, n.prefix, "--shared-system-prompt-length", "prompt_prefix_shared_system_length");
  watch(app, n.prefix, "--user-context-prompt-length", "prompt_prefix_user_context_length");
  // Its _NON_TEXT_TOKENIZER_TRIGGERS.
  watch(app, n.tokenizer, "--tokenizer", "--tokenizer");
  watch(app, n.tokenizer, "--tokenizer-trust-remote-code", "--tokenizer-trust-remote-code");
  watch(app, n.tokenizer, "--tokenizer-revision", "--tokenizer-revision");
}

void refuse_non_text_options(const ProfileOptions& o, const std::string& endpoint_type) {
  if (auto text = given(o.non_text.text); !text.empty())
    throw OptionError(joined(text) + " cannot be used with --endpoint-type " + endpoint_type + ".");
  if (auto prefix = given(o.non_text.prefix); !prefix.empty()) {
    std::sort(prefix.begin(), prefix.end());
    throw OptionError("Prefix prompt options (" + joined(prefix) + ") cannot be used with --endpoint-type " +
                      endpoint_type + ".");
  }
  if (auto tokenizer = given(o.non_text.tokenizer); !tokenizer.empty())
    throw OptionError("Tokenizer options (" + joined(tokenizer) + ") cannot be used with --endpoint-type " +
                      endpoint_type + ".");
}

}  // namespace aiperf::cli
