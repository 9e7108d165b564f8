// The templates `aiperf config init` prints: a few of AIPerf 0.13's bundled templates (same
// names, titles, categories and keys; our own shorter comments), each valid for
// `aiperf profile --config`.
#pragma once
#include <string>
#include <vector>

namespace aiperf::cli::config_templates {

struct Template {
  std::string name, title, description, category, tags, difficulty;
  std::string body;  // the YAML, starting with the "# @template" header block
};

const std::vector<Template>& all();
const Template* find(const std::string& name);

// The body with `model:` (or the first `models:` item) and the endpoint's `url:` replaced by
// the given values (empty: unchanged), each line's trailing comment kept, as the reference does.
std::string apply_overrides(const std::string& body, const std::string& model, const std::string& url);

}  // namespace aiperf::cli::config_templates
