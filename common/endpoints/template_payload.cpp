// `template` endpoint request body (spec §5.4): a Jinja payload_template rendered with the
// turn's contents.
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

#include "endpoints/jinja_subset.h"
#include "endpoints/payload_builders.h"

namespace aiperf::endpoints {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// AIPerf's named templates.
std::string named_template(const std::string& name) {
  if (name == "nv-embedqa") return R"({"text": {{ texts|tojson }}})";
  return {};
}

bool is_regular_file(const std::string& path) {
  struct stat st {};
  return path.size() < 4096 && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// payload_template value -> template source: a name, a file path, else the inline text.
std::string template_source(const std::string& value) {
  if (std::string named = named_template(value); !named.empty()) return named;
  if (is_regular_file(value)) {
    std::ifstream in(value, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  return value;
}

// Compiling (and reading a template file) once per process, not per request: the value of
// payload_template is the same for the whole run, so one cached entry per thread suffices.
const JinjaTemplate& compiled(const std::string& value) {
  thread_local std::string cached_value;
  thread_local std::unique_ptr<JinjaTemplate> cached;
  if (!cached || cached_value != value) {
    cached = std::make_unique<JinjaTemplate>(template_source(value));
    cached_value = value;
  }
  return *cached;
}

// (all contents, contents by name) of one media kind, as AIPerf's extract_named_contents.
void named_contents(const google::protobuf::RepeatedPtrField<proto::Text>& batches, json& all, json& by_name) {
  all = json::array();
  by_name = json::object();
  for (const proto::Text& batch : batches) {
    if (batch.contents_size() == 0) continue;
    for (const std::string& c : batch.contents()) {
      all.push_back(c);
      if (!batch.name().empty()) by_name[batch.name()].push_back(c);
    }
  }
}

json batches_json(const google::protobuf::RepeatedPtrField<proto::Text>& batches) {
  json out = json::array();
  for (const proto::Text& batch : batches) {
    json contents = json::array();
    for (const std::string& c : batch.contents()) contents.push_back(c);
    out.push_back({{"name", batch.name()}, {"contents", std::move(contents)}});
  }
  return out;
}

json turn_json(const proto::Turn& turn, const std::string& model) {
  return {{"role", turn.role().empty() ? json() : json(turn.role())},
          {"model", turn.model().empty() ? model : turn.model()},
          {"max_tokens", turn.has_max_tokens() ? json(turn.max_tokens()) : json()},
          {"texts", batches_json(turn.texts())},
          {"images", batches_json(turn.images())},
          {"audios", batches_json(turn.audios())},
          {"videos", batches_json(turn.videos())}};
}

json first_or_none(const json& list) { return list.empty() ? json() : list.front(); }

}  // namespace

ordered_json template_payload(const std::vector<const proto::Turn*>& turns, const std::string& model, bool streaming,
                              const json* extra_inputs) {
  const json* value = nullptr;
  if (extra_inputs && extra_inputs->is_object()) {
    if (auto it = extra_inputs->find("payload_template"); it != extra_inputs->end() && it->is_string()) value = &*it;
  }
  if (!value) {
    throw std::invalid_argument(
        "--endpoint-type template needs --extra-inputs payload_template:<name, file or Jinja template>");
  }
  const JinjaTemplate& tmpl = compiled(value->get_ref<const std::string&>());

  static const proto::Turn kEmptyTurn;
  const proto::Turn& turn = turns.empty() ? kEmptyTurn : *turns.back();
  json vars = json::object();
  named_contents(turn.texts(), vars["texts"], vars["texts_by_name"]);
  named_contents(turn.images(), vars["images"], vars["images_by_name"]);
  named_contents(turn.audios(), vars["audios"], vars["audios_by_name"]);
  named_contents(turn.videos(), vars["videos"], vars["videos_by_name"]);
  vars["text"] = first_or_none(vars["texts"]);
  vars["image"] = first_or_none(vars["images"]);
  vars["audio"] = first_or_none(vars["audios"]);
  vars["video"] = first_or_none(vars["videos"]);
  const json& by_name = vars["texts_by_name"];
  vars["queries"] = by_name.contains("query") ? by_name["query"] : json::array();
  vars["passages"] = by_name.contains("passages")  ? by_name["passages"]
                     : by_name.contains("passage") ? by_name["passage"]
                                                   : json::array();
  vars["query"] = first_or_none(vars["queries"]);
  vars["passage"] = first_or_none(vars["passages"]);
  vars["model"] = turn.model().empty() ? model : turn.model();
  vars["max_tokens"] = turn.has_max_tokens() ? json(turn.max_tokens()) : json();
  vars["role"] = turn.role().empty() ? json() : json(turn.role());
  vars["stream"] = streaming;
  vars["turn"] = turn_json(turn, model);
  json all_turns = json::array();
  for (const proto::Turn* t : turns) all_turns.push_back(turn_json(*t, model));
  vars["turns"] = std::move(all_turns);
  vars["request_info"] = nullptr;  // AIPerf's Python object; not modelled

  const std::string rendered = tmpl.render(vars);
  ordered_json payload = ordered_json::parse(rendered, nullptr, /*allow_exceptions=*/false);
  if (payload.is_discarded() || !payload.is_object()) {
    throw std::invalid_argument("payload_template did not render a JSON object: " + rendered.substr(0, 100));
  }
  if (extra_inputs && extra_inputs->is_object()) {
    for (const auto& [key, v] : extra_inputs->items()) {
      if (key != "payload_template" && key != "response_field") payload[key] = v;
    }
  }
  return payload;
}

}  // namespace aiperf::endpoints
