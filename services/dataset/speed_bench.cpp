#include "speed_bench.h"

#include <filesystem>
#include <set>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "dataset_error.h"
#include "jsonl_lines.h"

namespace aiperf::dataset {
namespace {

using config::CustomDatasetType;
using nlohmann::json;

constexpr std::string_view kSpeedBenchPrefix = "speed_bench_";

// The static type_spelling of `type` (the enum table's string_view, not a copy).
std::string_view type_spelling(CustomDatasetType type) {
  for (const auto& [value, name] : config::enum_names(CustomDatasetType{}))
    if (value == type) return name;
  return {};
}

// Characters as Python counts them (code points), for question_id's fixed length.
size_t python_length(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool is_blank_text(const std::string& s) { return s.find_first_not_of(" \t\n\r\f\v") == std::string::npos; }

std::string speed_bench_text(const json& object, const char* key, const std::string& field) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string() || is_blank_text(it->get_ref<const std::string&>()))
    throw FieldError{
        field, "must be a non-blank string" + (it == object.end() ? std::string(", missing") : ", got " + it->dump())};
  return it->get<std::string>();
}

struct SpeedBenchRow {
  std::string question_id;
  std::string category;
  std::vector<std::pair<std::string, std::string>> messages;  // role, content
};

// AIPerf's SpeedBenchRow: every field checked, extra keys allowed.
SpeedBenchRow parse_speed_bench_row(const json& object) {
  SpeedBenchRow row;
  auto id = object.find("question_id");
  if (id == object.end() || !id->is_string() || python_length(id->get_ref<const std::string&>()) != 32)
    throw FieldError{"question_id", "must be a string of 32 characters" +
                                        (id == object.end() ? std::string(", missing") : ", got " + id->dump())};
  row.question_id = id->get<std::string>();
  auto category = object.find("category");
  if (category == object.end() || !category->is_string() || category->get_ref<const std::string&>().empty())
    throw FieldError{"category",
                     "must be a non-empty string" +
                         (category == object.end() ? std::string(", missing") : ", got " + category->dump())};
  row.category = category->get<std::string>();
  auto messages = object.find("messages");
  if (messages == object.end() || !messages->is_array() || messages->empty())
    throw FieldError{"messages", "must be a non-empty list of {\"role\", \"content\"} objects"};
  for (size_t i = 0; i < messages->size(); ++i) {
    const json& m = (*messages)[i];
    const std::string field = "messages[" + std::to_string(i) + "]";
    if (!m.is_object()) throw FieldError{field, "must be an object with role and content, got " + m.dump()};
    std::string role = speed_bench_text(m, "role", field + ".role");
    std::string content = speed_bench_text(m, "content", field + ".content");
    if (content == kSpeedBenchPlaceholder)
      throw FieldError{field + ".content",
                       "is SPEED-Bench's placeholder \"" + std::string(kSpeedBenchPlaceholder) +
                           "\": this row's prompts are not in the published dataset; prepare the file with "
                           "specdec_bench, which fetches them"};
    row.messages.emplace_back(std::move(role), std::move(content));
  }
  return row;
}

}  // namespace

std::optional<SpeedBenchVariant> speed_bench_variant(CustomDatasetType type) {
  std::string_view name = type_spelling(type);
  if (name.substr(0, kSpeedBenchPrefix.size()) != kSpeedBenchPrefix) return std::nullopt;
  name.remove_prefix(kSpeedBenchPrefix.size());
  if (name == "qualitative") return SpeedBenchVariant{name, {}};
  constexpr std::string_view kThroughput = "throughput_";
  if (name.substr(0, kThroughput.size()) != kThroughput) return SpeedBenchVariant{"qualitative", name};
  // throughput_<isl>[_<tier>]
  const size_t tier = name.find('_', kThroughput.size());
  if (tier == std::string_view::npos) return SpeedBenchVariant{name, {}};
  return SpeedBenchVariant{name.substr(0, tier), name.substr(tier + 1)};
}

bool has_speed_bench_keys(const json& object) {
  return object.is_object() && object.contains("question_id") && object.contains("category") &&
         object.contains("messages");
}

std::vector<CustomDatasetType> speed_bench_types_for_file(const std::string& path) {
  const std::string file = std::filesystem::path(path).filename().string();
  std::vector<CustomDatasetType> out;
  for (const auto& [value, name] : config::enum_names(CustomDatasetType{}))
    if (const auto v = speed_bench_variant(value); v && std::string(v->split) + ".jsonl" == file) out.push_back(value);
  return out;
}

void load_speed_bench(const config::InputConfig& in, CustomDataset& out, bool all_messages) {
  const auto variant = speed_bench_variant(in.custom_dataset_type);
  if (!variant) throw DatasetFileError(in.input_file + ": not a SPEED-Bench dataset type");
  const std::string wanted(variant->category);
  std::unordered_map<std::string, size_t> sessions;  // question_id -> conversation
  std::set<std::string> seen_categories;
  for_each_json_line(in.input_file, [&](const json& object, size_t) {
    SpeedBenchRow row = parse_speed_bench_row(object);
    seen_categories.insert(row.category);
    if (!wanted.empty() && row.category != wanted) return;
    // Rows sharing a question_id are one conversation, their turns in file order.
    auto [it, fresh] = sessions.emplace(row.question_id, out.conversations.size());
    if (fresh) out.conversations.emplace_back().set_session_id(row.question_id);
    proto::Conversation& conv = out.conversations[it->second];
    const size_t n = all_messages ? row.messages.size() : 1;
    for (size_t i = 0; i < n; ++i) {
      proto::Turn* turn = conv.add_turns();
      turn->set_role(row.messages[i].first);
      proto::Text* text = turn->add_texts();
      text->set_name("text");
      text->add_contents(std::move(row.messages[i].second));
    }
  });
  if (!wanted.empty() && out.conversations.empty() && !seen_categories.empty()) {
    std::string categories;
    for (const auto& c : seen_categories) categories += (categories.empty() ? "" : ", ") + c;
    throw DatasetFileError(in.input_file + ": no row of SPEED-Bench category '" + wanted + "' (--custom-dataset-type " +
                           std::string(type_spelling(in.custom_dataset_type)) +
                           "); the file's categories: " + categories);
  }
  out.default_sampling = "sequential";  // AIPerf's multi-turn loaders
}

}  // namespace aiperf::dataset
