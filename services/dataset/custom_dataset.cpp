#include "custom_dataset.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <unordered_map>
#include <optional>

#include <nlohmann/json.hpp>

#include "bailian_trace.h"
#include "baseten_trace.h"
#include "burst_gpt_trace.h"
#include "dag_jsonl.h"
#include "dataset_error.h"
#include "jsonl_lines.h"
#include "mooncake_trace.h"
#include "prompt_generator.h"
#include "raw_payload.h"
#include "sagemaker_capture.h"
#include "speed_bench.h"
#include "synthesis_mooncake.h"
#include "tracelab_trace.h"
#include "turn_fields.h"
#include "util/uuid.h"
#include "weka_trace.h"

namespace aiperf::dataset {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

using config::CustomDatasetType;

// A line's "type" naming a format (not the empty kNone spelling).
std::optional<CustomDatasetType> known_type(const std::string& t) {
  const auto type = config::parse_enum<CustomDatasetType>(t);
  if (type == CustomDatasetType::kNone) return std::nullopt;
  return type;
}

// A line's optional "type" must agree with the file's format.
void check_line_type(const json& object, const std::string& expected) {
  auto type = object.find("type");
  if (type == object.end() || type->is_null()) return;
  if (!type->is_string() || type->get<std::string>() != expected)
    throw FieldError{"type", "expected '" + expected + "', got " + type->dump()};
}

std::string session_id_field(const json& object, std::mt19937_64& rng) {
  auto id = object.find("session_id");
  if (id == object.end() || id->is_null()) return util::uuid4(rng);
  if (!id->is_string() || id->get_ref<const std::string&>().empty())
    throw FieldError{"session_id", "must be a non-empty string"};
  return id->get<std::string>();
}

void load_single_turn(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng) {
  const TurnFieldOptions options{true, in.turn_delay_ratio, "", true};
  for_each_json_line(in.input_file, [&](const json& object, size_t) {
    check_line_type(object, "single_turn");
    proto::Conversation conv;
    parse_turn_fields(object, options, *conv.add_turns());
    if (outside_fixed_schedule(in, conv.turns(0))) return;
    conv.set_session_id(util::uuid4(rng));
    out.conversations.push_back(std::move(conv));
  });
  out.default_sampling = "shuffle";
}

void load_multi_turn(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng) {
  std::unordered_map<std::string, size_t> first_line;
  for_each_json_line(in.input_file, [&](const json& object, size_t line) {
    check_line_type(object, "multi_turn");
    auto turns = object.find("turns");
    if (turns == object.end() || !turns->is_array() || turns->empty())
      throw FieldError{"turns", "must be a non-empty list of turns"};
    proto::Conversation conv;
    conv.set_session_id(session_id_field(object, rng));
    if (auto [it, fresh] = first_line.emplace(conv.session_id(), line); !fresh)
      throw FieldError{"session_id", "'" + conv.session_id() + "' already used on line " + std::to_string(it->second)};
    for (size_t i = 0; i < turns->size(); ++i) {
      const TurnFieldOptions options{true, in.turn_delay_ratio, "turns[" + std::to_string(i) + "].", true};
      parse_turn_fields((*turns)[i], options, *conv.add_turns());
    }
    out.conversations.push_back(std::move(conv));
  });
  out.default_sampling = "shuffle";
}

// Appends `src`'s batches to `dst`, joining batches of the same name.
void merge_batches(const google::protobuf::RepeatedPtrField<proto::Text>& src,
                   google::protobuf::RepeatedPtrField<proto::Text>& dst) {
  for (const proto::Text& batch : src) {
    auto same = std::find_if(dst.begin(), dst.end(), [&](const proto::Text& t) { return t.name() == batch.name(); });
    proto::Text* target = same != dst.end() ? &*same : nullptr;
    if (!target) {
      target = dst.Add();
      target->set_name(batch.name());
    }
    for (const std::string& c : batch.contents()) target->add_contents(c);
  }
}

void load_random_pool(const config::InputConfig& in, uint64_t conversations, CustomDataset& out,
                      std::mt19937_64& rng) {
  std::vector<std::string> files;
  if (fs::is_directory(in.input_file)) {
    for (const auto& entry : fs::directory_iterator(in.input_file))
      if (entry.is_regular_file()) files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());  // pool order must not depend on the file system
    if (files.empty()) throw DatasetFileError(in.input_file + ": the random_pool directory has no files");
  } else {
    files.push_back(in.input_file);
  }
  std::vector<std::vector<proto::Turn>> pools;
  for (const std::string& file : files) {
    auto& pool = pools.emplace_back();
    const TurnFieldOptions options{false, 1.0, ""};
    for_each_json_line(file, [&](const json& object, size_t) {
      check_line_type(object, "random_pool");
      parse_turn_fields(object, options, pool.emplace_back());
    });
    if (pool.empty()) throw DatasetFileError(file + ": the random_pool file has no entries");
  }
  // Each conversation draws, with replacement, `batch_size` entries from every pool.
  for (uint64_t c = 0; c < conversations; ++c) {
    proto::Conversation conv;
    conv.set_session_id(util::uuid4(rng));
    proto::Turn* turn = conv.add_turns();
    for (const auto& pool : pools) {
      std::uniform_int_distribution<size_t> pick(0, pool.size() - 1);
      for (uint32_t b = 0; b < std::max<uint32_t>(1, in.batch_size); ++b) {
        const proto::Turn& entry = pool[pick(rng)];
        if (turn->role().empty()) turn->set_role(entry.role());
        merge_batches(entry.texts(), *turn->mutable_texts());
        merge_batches(entry.images(), *turn->mutable_images());
        merge_batches(entry.audios(), *turn->mutable_audios());
        merge_batches(entry.videos(), *turn->mutable_videos());
      }
    }
    out.conversations.push_back(std::move(conv));
  }
  out.default_sampling = "shuffle";
}

void load_mooncake(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng) {
  const uint32_t block = trace_block_size(in);
  std::unordered_map<std::string, size_t> sessions;  // session_id -> conversation index
  std::vector<std::vector<json>> lines;              // kept lines per conversation (synthesis)
  for_each_json_line(in.input_file, [&](const json& object, size_t) {
    check_line_type(object, "mooncake_trace");
    std::optional<PendingPrompt> pending;
    proto::Turn turn = parse_mooncake_line(object, block, in.turn_delay_ratio, pending);
    if (outside_fixed_schedule(in, turn) || over_synthesis_max_isl(in, object)) return;
    size_t index = out.conversations.size();
    if (auto id = object.find("session_id"); id != object.end() && !id->is_null()) {
      const std::string sid = session_id_field(object, rng);
      auto [it, fresh] = sessions.emplace(sid, index);
      if (fresh) out.conversations.emplace_back().set_session_id(sid);
      index = it->second;
    } else {
      out.conversations.emplace_back().set_session_id(util::uuid4(rng));
    }
    proto::Conversation& conv = out.conversations[index];
    if (pending) {
      pending->conversation = index;
      pending->turn = conv.turns_size();
      out.pending.push_back(std::move(*pending));
    }
    *conv.add_turns() = std::move(turn);
    if (in.synthesis.transforms()) {  // the synthesizer reads whole lines, grouped as the conversations
      lines.resize(out.conversations.size());
      lines[index].push_back(object);
    }
  });
  apply_mooncake_synthesis(in, block, lines, out);
  out.default_sampling = "sequential";
}

// Which formats recognise `object` when the file does not name its type.
std::vector<CustomDatasetType> recognising_types(const json& object) {
  std::vector<CustomDatasetType> types;
  // Bailian lines also carry input_length; their chat_id tells them apart.
  if (object.contains("chat_id")) return {CustomDatasetType::kBailianTrace};
  // Baseten rows carry their recorded start time (AIPerf detects the column in the schema).
  if (object.contains("timestamp_start_unix_ms")) return {CustomDatasetType::kBasetenTrace};
  // A one-line inputs.json ({"data": [{"payloads": ...}]}).
  if (looks_like_inputs_json(object)) return {CustomDatasetType::kInputsJson};
  if (looks_like_sagemaker_capture(object)) return {CustomDatasetType::kSagemakerDataCapture};
  if (object.contains("input_length") || object.contains("text_input") || object.contains("messages"))
    types.push_back(CustomDatasetType::kMooncakeTrace);
  // DAG turns carry chat messages (or branches), which no multi_turn turn has.
  if (looks_like_dag_jsonl(object)) types.push_back(CustomDatasetType::kDagJsonl);
  else if (object.contains("turns")) types.push_back(CustomDatasetType::kMultiTurn);
  if (has_turn_content(object)) types.push_back(CustomDatasetType::kSingleTurn);
  // A bare {"messages": [...]} fits mooncake_trace too: AIPerf calls that ambiguous as well.
  if (looks_like_raw_payload(object)) types.push_back(CustomDatasetType::kRawPayload);
  return types;
}

}  // namespace

// Fixed-schedule offsets: entries stamped outside [start, end] are not part of the run.
bool outside_fixed_schedule(const config::InputConfig& in, const proto::Turn& turn) {
  if (!in.fixed_schedule || !turn.has_timestamp_ms()) return false;
  const double ts = turn.timestamp_ms();
  if (in.fixed_schedule_start_offset && ts < static_cast<double>(*in.fixed_schedule_start_offset)) return true;
  return in.fixed_schedule_end_offset && ts > static_cast<double>(*in.fixed_schedule_end_offset);
}

size_t apply_output_lengths(std::vector<proto::Conversation>& conversations, const config::InputConfig& in,
                            std::mt19937_64& rng) {
  // AIPerf takes int() of the OSL mean and std-dev; a mean below 1 sets nothing.
  const double mean = in.osl_mean ? std::trunc(*in.osl_mean) : 0;
  const double stddev = std::trunc(in.osl_stddev);
  size_t clamped = 0;
  for (auto& conv : conversations) {
    for (auto& turn : *conv.mutable_turns()) {
      if (turn.has_max_tokens()) {
        if (turn.max_tokens() <= 0) {
          turn.set_max_tokens(1);
          ++clamped;
        }
      } else if (mean >= 1) {
        turn.set_max_tokens(sample_positive_normal_int(mean, stddev, rng));
      }
    }
  }
  return clamped;
}

uint32_t trace_block_size(const config::InputConfig& in) {
  if (in.isl_block_size) return *in.isl_block_size;
  return in.custom_dataset_type == CustomDatasetType::kBailianTrace ? kBailianBlockSize : kMooncakeBlockSize;
}

CustomDatasetType detect_custom_dataset_type(const std::string& path) {
  // A Weka trace is one JSON object per .json file (or a directory of them), not JSONL.
  if (is_weka_trace_path(path)) return CustomDatasetType::kWekaTrace;
  if (fs::is_directory(path)) {
    if (dir_has_sagemaker_capture(path)) return CustomDatasetType::kSagemakerDataCapture;
    return dir_has_raw_payload_jsonl(path) ? CustomDatasetType::kRawPayload : CustomDatasetType::kRandomPool;
  }
  // TraceLab rows (possibly gzipped) carry their own distinctive keys.
  if (is_tracelab_file(path)) return CustomDatasetType::kTracelab;
  // Files whose first line is not JSON are recognised by name and content (AIPerf does the same).
  if (is_inputs_json_file(path)) return CustomDatasetType::kInputsJson;
  if (is_burst_gpt_csv(path)) return CustomDatasetType::kBurstGptTrace;
  // Arrow IPC and Parquet files are Baseten traces (the only columnar format AIPerf detects).
  if (is_columnar_trace_file(path) || is_parquet_file(path)) return CustomDatasetType::kBasetenTrace;
  CustomDatasetType detected = CustomDatasetType::kNone;
  try {
    for_each_json_line(path, [&](const json& object, size_t) {
      if (detected != CustomDatasetType::kNone) return;
      if (auto type = object.find("type"); type != object.end() && type->is_string()) {
        if (const auto known = known_type(type->get<std::string>())) {
          detected = *known;
          return;
        }
      }
      // SPEED-Bench rows: AIPerf claims them for no other format, and detects no speed_bench_* type
      // either (a split file fits the split and each of its categories).
      if (has_speed_bench_keys(object)) {
        std::string names;
        for (const auto t : speed_bench_types_for_file(path))
          names += (names.empty() ? "" : ", ") + config::to_string(t);
        throw FieldError{"", names.empty() ? std::string("a SPEED-Bench row (question_id, category, messages): its "
                                                         "split and category are not detected")
                                           : "the line fits several dataset types (" + names + ")"};
      }
      const auto types = recognising_types(object);
      if (types.size() == 1) {
        detected = types[0];
        return;
      }
      std::string names;
      for (const auto t : types) names += (names.empty() ? "" : ", ") + config::to_string(t);
      throw FieldError{"", types.empty() ? std::string("cannot detect the dataset type from this line")
                                         : "the line fits several dataset types (" + names + ")"};
    });
  } catch (const DatasetFileError& e) {
    throw DatasetFileError(std::string(e.what()) + "; set --custom-dataset-type (" + kCustomDatasetTypes + ")");
  }
  if (detected == CustomDatasetType::kNone) throw DatasetFileError(path + ": the input file has no entries");
  return detected;
}

CustomDataset load_custom_dataset(const config::InputConfig& in, uint64_t pool_conversations,
                                  std::mt19937_64& rng) {
  CustomDataset out;
  if (speed_bench_variant(in.custom_dataset_type)) load_speed_bench(in, out);
  switch (in.custom_dataset_type) {
    case CustomDatasetType::kSingleTurn:
      load_single_turn(in, out, rng);
      break;
    case CustomDatasetType::kMultiTurn:
      load_multi_turn(in, out, rng);
      break;
    case CustomDatasetType::kRandomPool:
      load_random_pool(in, pool_conversations, out, rng);
      break;
    case CustomDatasetType::kMooncakeTrace:
      load_mooncake(in, out, rng);
      break;
    case CustomDatasetType::kBailianTrace:
      load_bailian_trace(in, out);
      break;
    case CustomDatasetType::kBurstGptTrace:
      load_burst_gpt_trace(in, out, rng);
      break;
    case CustomDatasetType::kRawPayload:
      load_raw_payload(in, out, rng);
      break;
    case CustomDatasetType::kInputsJson:
      load_inputs_json(in, out);
      break;
    case CustomDatasetType::kSagemakerDataCapture:
      load_sagemaker_capture(in, out, rng);
      break;
    case CustomDatasetType::kBasetenTrace:
      load_baseten_trace(in, out, rng);
      break;
    case CustomDatasetType::kWekaTrace:
      load_weka_trace(in, out);
      break;
    case CustomDatasetType::kDagJsonl:
      load_dag_jsonl(in, out);
      break;
    case CustomDatasetType::kTracelab:
      load_tracelab(in, out);
      break;
    case CustomDatasetType::kNone:  // the caller detects the type first (cli/options_input.cpp)
      throw DatasetFileError(std::string("no dataset type; valid: ") + kCustomDatasetTypes);
    default:  // speed_bench_*, loaded above
      break;
  }
  // --inter-turn-delay-cap-seconds: AIPerf clamps the recorded delays of its trace loaders and
  // multi_turn files (baseten_trace clamps its think times itself).
  if (const auto cap = in.trace_replay.inter_turn_delay_cap_seconds;
      cap && (in.custom_dataset_type == CustomDatasetType::kMooncakeTrace ||
              in.custom_dataset_type == CustomDatasetType::kBailianTrace ||
              in.custom_dataset_type == CustomDatasetType::kMultiTurn ||
              in.custom_dataset_type == CustomDatasetType::kDagJsonl)) {
    for (auto& conv : out.conversations)
      for (auto& turn : *conv.mutable_turns())
        if (turn.has_delay_ms() && turn.delay_ms() > *cap * 1000.0) turn.set_delay_ms(*cap * 1000.0);
  }
  if (out.conversations.empty())
    throw DatasetFileError(in.input_file + ": no entries" +
                           (in.fixed_schedule ? " within the fixed-schedule offsets" : std::string()));
  for (const auto& conv : out.conversations)
    for (const auto& turn : conv.turns()) out.has_timestamps |= turn.has_timestamp_ms();
  return out;
}

}  // namespace aiperf::dataset
