#include "bailian_trace.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "dataset_error.h"
#include "jsonl_lines.h"
#include "synthesis_mooncake.h"

namespace aiperf::dataset {
namespace {

using nlohmann::json;

struct Entry {
  int64_t chat_id = 0, parent = -1, turn = 1;
  proto::Turn proto_turn;
  PendingPrompt prompt;
};

const json* field(const json& object, const char* name, bool required) {
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) {
    if (required) throw FieldError{name, "is required"};
    return nullptr;
  }
  return &*it;
}

Entry parse_line(const json& object, uint32_t block_size, double delay_ratio) {
  Entry e;
  e.chat_id = integer_field(*field(object, "chat_id", true), "chat_id");
  if (const json* p = field(object, "parent_chat_id", false)) e.parent = integer_field(*p, "parent_chat_id", -1);
  if (const json* t = field(object, "turn", false)) e.turn = integer_field(*t, "turn", 0);
  if (const json* type = field(object, "type", false); type && !type->is_string())
    throw FieldError{"type", "must be a string (the request type, e.g. \"text\")"};
  const json& ts = *field(object, "timestamp", true);
  if (!ts.is_number() || !std::isfinite(ts.get<double>()) || ts.get<double>() < 0)
    throw FieldError{"timestamp", "must be a number of seconds >= 0, got " + ts.dump()};
  e.proto_turn.set_timestamp_ms(ts.get<double>() * 1000.0);  // the trace is in seconds
  e.prompt.input_length = static_cast<uint32_t>(integer_field(*field(object, "input_length", true), "input_length", 1));
  // Any integer: <= 0 is raised to 1 later (apply_output_lengths), as AIPerf does.
  e.proto_turn.set_max_tokens(
      integer_field(*field(object, "output_length", true), "output_length"));
  if (const json* ids = field(object, "hash_ids", false)) {
    if (!ids->is_array()) throw FieldError{"hash_ids", "must be a list of integers"};
    for (const json& id : *ids) {
      if (!id.is_number_integer()) throw FieldError{"hash_ids", "must be a list of integers, got " + id.dump()};
      e.prompt.hash_ids.push_back(id.get<int64_t>());
    }
    if (!e.prompt.hash_ids.empty()) {
      const int64_t last = static_cast<int64_t>(e.prompt.input_length) -
                           static_cast<int64_t>(e.prompt.hash_ids.size() - 1) * block_size;
      if (last < 1 || last > block_size)
        throw FieldError{"input_length", std::to_string(e.prompt.input_length) + " does not fit " +
                                             std::to_string(e.prompt.hash_ids.size()) + " hash_ids blocks of " +
                                             std::to_string(block_size) + " tokens (set --isl-block-size)"};
    }
  }
  if (const json* delay = field(object, "delay", false)) {
    if (!delay->is_number() || delay->get<double>() < 0) throw FieldError{"delay", "must be a number >= 0"};
    e.proto_turn.set_delay_ms(delay->get<double>() * delay_ratio);
  }
  return e;
}

}  // namespace

void load_bailian_trace(const config::InputConfig& in, CustomDataset& out) {
  const uint32_t block = in.isl_block_size.value_or(kBailianBlockSize);
  std::vector<Entry> entries;
  for_each_json_line(in.input_file, [&](const json& object, size_t) {
    Entry e = parse_line(object, block, in.turn_delay_ratio);
    if (outside_fixed_schedule(in, e.proto_turn) || over_synthesis_max_isl(in, e.prompt.input_length)) return;
    entries.push_back(std::move(e));
  });

  // Root of each chat: follow parent links; a missing parent or a loop ends the walk there.
  std::unordered_map<int64_t, int64_t> parent_of;
  for (const Entry& e : entries) parent_of[e.chat_id] = e.parent;
  std::unordered_map<int64_t, int64_t> root_cache;
  auto root = [&](int64_t id) {
    if (auto hit = root_cache.find(id); hit != root_cache.end()) return hit->second;
    std::vector<int64_t> path;
    std::set<int64_t> seen;
    int64_t cur = id;
    for (auto it = parent_of.find(cur); it != parent_of.end() && it->second != -1; it = parent_of.find(cur)) {
      if (!seen.insert(cur).second || it->second == cur || !parent_of.count(it->second)) break;
      path.push_back(cur);
      cur = it->second;
    }
    for (int64_t node : path) root_cache[node] = cur;
    root_cache[id] = cur;
    return cur;
  };

  // Sessions in the order their first line appears; turns ordered by `turn` (stable).
  std::vector<std::pair<int64_t, std::vector<Entry*>>> sessions;
  std::unordered_map<int64_t, size_t> session_index;
  for (Entry& e : entries) {
    const int64_t r = root(e.chat_id);
    auto [it, fresh] = session_index.emplace(r, sessions.size());
    if (fresh) sessions.push_back({r, {}});
    sessions[it->second].second.push_back(&e);
  }
  for (auto& [id, list] : sessions) {
    std::stable_sort(list.begin(), list.end(), [](const Entry* a, const Entry* b) { return a->turn < b->turn; });
    proto::Conversation& conv = out.conversations.emplace_back();
    conv.set_session_id(std::to_string(id));
    for (Entry* e : list) {
      e->prompt.conversation = out.conversations.size() - 1;
      e->prompt.turn = conv.turns_size();
      *conv.add_turns() = std::move(e->proto_turn);
      out.pending.push_back(std::move(e->prompt));
    }
  }
  apply_pending_trace_synthesis(in, block, out);
  out.default_sampling = "sequential";
}

}  // namespace aiperf::dataset
