#include "chat_template_overhead.h"

#include <cmath>
#include <filesystem>
#include <fstream>

namespace aiperf::dataset {

ChatTemplateOverhead estimate_chat_template_overhead(const endpoints::ChatTemplate& chat_template,
                                                     const tok::Tokenizer& tokenizer, uint32_t server_special_tokens) {
  // AIPerf's probe sentences.
  static const char* kProbes[] = {"Hello, how are you today?", "Could you write a Python function to reverse a string?",
                                  "What's the difference between TCP and UDP in networking?"};
  using J = nlohmann::ordered_json;
  double fixed_sum = 0, wrap_sum = 0;
  for (const char* sample : kProbes) {
    const J user = {{"role", "user"}, {"content", sample}};
    const J assistant = {{"role", "assistant"}, {"content", sample}};
    std::string single, triple;
    try {
      single = chat_template.render(J::array({user}), true);
      triple = chat_template.render(J::array({user, assistant, user}), true);
    } catch (const endpoints::ChatTemplateError&) {
      return {};
    }
    const auto s = static_cast<double>(tokenizer.count(single));
    const auto t = static_cast<double>(tokenizer.count(triple));
    const auto b = static_cast<double>(tokenizer.count(sample));
    const double wrap = (t - s - 2 * b) / 2;
    const double fixed = s - b - wrap - server_special_tokens;
    if (wrap < 0 || fixed < 0) return {};
    wrap_sum += wrap;
    fixed_sum += fixed;
  }
  const double n = std::size(kProbes);
  // Python's round(): half to even, which nearbyint does in the default rounding mode.
  return {static_cast<uint32_t>(std::nearbyint(fixed_sum / n)), static_cast<uint32_t>(std::nearbyint(wrap_sum / n))};
}

uint32_t server_special_tokens(const std::string& tokenizer_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(tokenizer_path);
  const fs::path dir = fs::is_directory(p, ec) ? p : p.parent_path();
  std::ifstream in(dir / "tokenizer_config.json");
  if (!in) return 0;
  const nlohmann::json config = nlohmann::json::parse(in, nullptr, false);
  if (!config.is_object()) return 0;
  auto it = config.find("add_bos_token");
  return it != config.end() && it->is_boolean() && it->get<bool>() ? 1 : 0;
}

}  // namespace aiperf::dataset
