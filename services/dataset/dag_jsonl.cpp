#include "dag_jsonl.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "dag_jsonl_branches.h"
#include "dataset_error.h"

namespace aiperf::dataset {
// A named namespace around the anonymous one: unity builds merge every file's anonymous namespace.
namespace dag_impl {
namespace {

using nlohmann::ordered_json;

// ---- field checks (AIPerf's pydantic models: lax numbers, extra keys forbidden) ----

void only_keys(const ordered_json& o, const std::string& at, std::initializer_list<const char*> allowed) {
  for (const auto& item : o.items()) {
    const std::string& key = item.key();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; }))
      throw FieldError{at + key, "extra inputs are not permitted"};
  }
}

const ordered_json* get(const ordered_json& o, const char* name) {
  auto it = o.find(name);
  return it == o.end() ? nullptr : &*it;
}

// Present and not null.
const ordered_json* given(const ordered_json& o, const char* name) {
  const ordered_json* v = get(o, name);
  return v && !v->is_null() ? v : nullptr;
}

// An integer, or a float without a fraction; never a boolean (AIPerf rejects true/false here).
int64_t integer(const ordered_json& v, const std::string& name) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9.0e18) return static_cast<int64_t>(d);
  }
  throw FieldError{name, "must be an integer, got " + v.dump()};
}

double number(const ordered_json& v, const std::string& name) {
  if (!v.is_number() || !std::isfinite(v.get<double>())) throw FieldError{name, "must be a number, got " + v.dump()};
  return v.get<double>();
}

std::optional<double> optional_number(const ordered_json& o, const char* key, const std::string& at, double low,
                                      bool inclusive_low, std::optional<double> high = std::nullopt) {
  const ordered_json* v = given(o, key);
  if (!v) return std::nullopt;
  const double d = number(*v, at + key);
  if (inclusive_low ? d < low : d <= low) {
    char bound[64];
    std::snprintf(bound, sizeof bound, "%g", low);
    throw FieldError{at + key, std::string("must be ") + (inclusive_low ? ">= " : "> ") + bound + ", got " + v->dump()};
  }
  if (high && d > *high) {
    char bound[64];
    std::snprintf(bound, sizeof bound, "%g", *high);
    throw FieldError{at + key, std::string("must be <= ") + bound + ", got " + v->dump()};
  }
  return d;
}

bool boolean(const ordered_json& v, const std::string& name) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_integer() && (v.get<int64_t>() == 0 || v.get<int64_t>() == 1)) return v.get<int64_t>() == 1;
  throw FieldError{name, "must be a boolean, got " + v.dump()};
}

std::string non_empty_string(const ordered_json& v, const std::string& name) {
  if (!v.is_string()) throw FieldError{name, "must be a string, got " + v.dump()};
  if (v.get_ref<const std::string&>().empty()) throw FieldError{name, "must have at least 1 character"};
  return v.get<std::string>();
}

std::vector<std::string> strings(const ordered_json* v, const std::string& name) {
  std::vector<std::string> out;
  if (!v) return out;
  if (!v->is_array()) throw FieldError{name, "must be a list of strings, got " + v->dump()};
  for (size_t i = 0; i < v->size(); ++i) {
    const ordered_json& s = (*v)[i];
    if (!s.is_string()) throw FieldError{name + "." + std::to_string(i), "must be a string, got " + s.dump()};
    out.push_back(s.get<std::string>());
  }
  return out;
}

void list_of_objects(const ordered_json& v, const std::string& name) {
  if (!v.is_array()) throw FieldError{name, "must be a list of objects, got " + v.dump()};
  for (size_t i = 0; i < v.size(); ++i)
    if (!v[i].is_object()) throw FieldError{name + "." + std::to_string(i), "must be an object, got " + v[i].dump()};
}

// ---- the model ----

enum class ContextMode { kDeltasWithoutResponses, kDeltasWithResponses, kMessageArrayWithResponses };

struct Turn {
  std::string messages, tools, extra;  // JSON text as written; tools / extra: empty when absent
  std::vector<size_t> system_at;       // positions of the system messages
  std::optional<std::string> model;
  std::optional<int64_t> max_tokens;
  double delay_ms = 0;
  std::vector<DagFork> forks;
  std::vector<DagSpawnGroup> spawns;
};

struct Conversation {
  size_t line = 0;
  std::string session_id;
  std::vector<Turn> turns;
  ContextMode mode = ContextMode::kDeltasWithoutResponses;
  bool orchestrator = false;
  std::vector<std::string> pre_session_spawns;
};

// forks: a session id, or {"child": id, "background": bool}.
std::vector<DagFork> parse_forks(const ordered_json* v, const std::string& name) {
  std::vector<DagFork> forks;
  if (!v) return forks;
  if (!v->is_array()) throw FieldError{name, "must be a list, got " + v->dump()};
  for (size_t i = 0; i < v->size(); ++i) {
    const ordered_json& f = (*v)[i];
    const std::string at = name + "." + std::to_string(i);
    if (f.is_string()) {
      forks.push_back({f.get<std::string>(), false});
      continue;
    }
    if (!f.is_object()) throw FieldError{at, "must be a session id or a {child, background} object, got " + f.dump()};
    only_keys(f, at + ".", {"child", "background"});
    const ordered_json* child = get(f, "child");
    if (!child) throw FieldError{at + ".child", "field required"};
    DagFork fork{non_empty_string(*child, at + ".child"), false};
    if (const ordered_json* b = get(f, "background")) fork.background = boolean(*b, at + ".background");
    forks.push_back(std::move(fork));
  }
  return forks;
}

// spawns: a session id, or {"children": [ids, at least one], "join_at": int}. Consecutive ids form
// one group (joined on the next turn), each object a group of its own.
std::vector<DagSpawnGroup> parse_spawns(const ordered_json* v, const std::string& name) {
  std::vector<DagSpawnGroup> groups;
  if (!v) return groups;
  if (!v->is_array()) throw FieldError{name, "must be a list, got " + v->dump()};
  bool bare_open = false;  // the last group collects bare ids
  for (size_t i = 0; i < v->size(); ++i) {
    const ordered_json& s = (*v)[i];
    const std::string at = name + "." + std::to_string(i);
    if (s.is_string()) {
      if (!bare_open) groups.emplace_back();
      groups.back().children.push_back(s.get<std::string>());
      bare_open = true;
      continue;
    }
    if (!s.is_object()) throw FieldError{at, "must be a session id or a {children, join_at} object, got " + s.dump()};
    only_keys(s, at + ".", {"children", "join_at"});
    const ordered_json* children = get(s, "children");
    if (!children) throw FieldError{at + ".children", "field required"};
    DagSpawnGroup group;
    group.children = strings(children, at + ".children");
    if (group.children.empty()) throw FieldError{at + ".children", "must have at least 1 item"};
    if (const ordered_json* j = given(s, "join_at")) {
      if (j->is_boolean()) throw FieldError{at + ".join_at", "must be an integer, got " + j->dump()};
      group.join_at = integer(*j, at + ".join_at");
    }
    groups.push_back(std::move(group));
    bare_open = false;
  }
  return groups;
}

Turn parse_turn(const ordered_json& t, const std::string& at) {
  if (!t.is_object()) throw FieldError{at.substr(0, at.size() - 1), "must be an object, got " + t.dump()};
  only_keys(t, at, {"messages", "model", "max_tokens", "tools", "extra", "forks", "spawns", "delay"});
  Turn turn;
  const ordered_json* messages = get(t, "messages");
  if (!messages) throw FieldError{at + "messages", "field required"};
  list_of_objects(*messages, at + "messages");
  if (messages->empty()) throw FieldError{at + "messages", "'messages' must be a non-empty list"};
  for (size_t i = 0; i < messages->size(); ++i)
    if (!(*messages)[i].contains("role"))
      throw FieldError{at + "messages",
                       "Each message must have a 'role' key, but message at index " + std::to_string(i) + " does not"};
  turn.messages = messages->dump();
  for (size_t i = 0; i < messages->size(); ++i)
    if (const auto role = (*messages)[i].find("role"); role != (*messages)[i].end() && *role == "system")
      turn.system_at.push_back(i);
  if (const ordered_json* m = given(t, "model")) {
    if (!m->is_string()) throw FieldError{at + "model", "must be a string, got " + m->dump()};
    turn.model = m->get<std::string>();
  }
  if (const ordered_json* mt = given(t, "max_tokens")) {
    if (mt->is_boolean())
      throw FieldError{at + "max_tokens", "max_tokens must be an integer, not a boolean (got " +
                                              std::string(mt->get<bool>() ? "True" : "False") +
                                              "); check for a typo in your DAG JSONL file"};
    const int64_t n = integer(*mt, at + "max_tokens");
    if (n < 1) throw FieldError{at + "max_tokens", "must be >= 1, got " + mt->dump()};
    turn.max_tokens = n;
  }
  if (const ordered_json* tools = given(t, "tools")) {
    list_of_objects(*tools, at + "tools");
    turn.tools = tools->dump();
  }
  if (const ordered_json* extra = given(t, "extra")) {
    if (!extra->is_object()) throw FieldError{at + "extra", "must be an object, got " + extra->dump()};
    turn.extra = extra->dump();
  }
  const ordered_json* forks = get(t, "forks");
  const ordered_json* spawns = get(t, "spawns");
  turn.forks = parse_forks(forks, at + "forks");
  turn.spawns = parse_spawns(spawns, at + "spawns");
  if (const ordered_json* d = get(t, "delay")) {
    turn.delay_ms = number(*d, at + "delay");
    if (turn.delay_ms < 0) throw FieldError{at + "delay", "must be >= 0, got " + d->dump()};
  }
  return turn;
}

void check_rounds(const ordered_json& rounds, bool conversation_spawns) {
  if (rounds.is_boolean())
    throw FieldError{"rounds", "rounds / think_time_* must be numeric (or a list for 'rounds'), not a boolean"};
  if (rounds.is_array()) {
    if (rounds.empty()) throw FieldError{"rounds", "orchestrator 'rounds' list must be non-empty"};
    if (conversation_spawns)
      throw FieldError{"",
                       "with a per-round 'rounds' list, omit conversation-level 'spawns' (each round declares "
                       "its own 'spawns')"};
    std::set<std::string> seen;
    for (size_t i = 0; i < rounds.size(); ++i) {
      const std::string at = "rounds." + std::to_string(i) + ".";
      const ordered_json& r = rounds[i];
      if (!r.is_object()) throw FieldError{at.substr(0, at.size() - 1), "must be an object, got " + r.dump()};
      only_keys(r, at, {"spawns", "think_time_ms"});
      const ordered_json* spawns = get(r, "spawns");
      if (!spawns) throw FieldError{at + "spawns", "field required"};
      const auto children = strings(spawns, at + "spawns");
      if (children.empty()) throw FieldError{at + "spawns", "must have at least 1 item"};
      if (const ordered_json* tt = given(r, "think_time_ms"); tt && tt->is_boolean())
        throw FieldError{at + "think_time_ms", "think_time_ms must be numeric, not a boolean"};
      optional_number(r, "think_time_ms", at, 0, true);
      for (const auto& child : children)
        if (!seen.insert(child).second)
          throw FieldError{"", "child session id '" + child +
                                   "' is spawned by more than one round; each list-form round must own distinct "
                                   "branch sessions for unambiguous raw attribution"};
    }
    return;
  }
  if (integer(rounds, "rounds") < 1) throw FieldError{"", "'rounds' count must be >= 1"};
  if (!conversation_spawns)
    throw FieldError{"", "orchestrator conversation requires a non-empty 'spawns' (or a per-round 'rounds' list)"};
}

Conversation parse_conversation(const ordered_json& o) {
  only_keys(o, "",
            {"session_id", "turns", "orchestrator", "spawns", "think_time_ms", "think_time_sigma", "think_time_min_ms",
             "think_time_max_ms", "rounds", "context_mode", "pre_session_spawns"});
  Conversation c;
  const ordered_json* sid = get(o, "session_id");
  if (!sid) throw FieldError{"session_id", "field required"};
  c.session_id = non_empty_string(*sid, "session_id");
  if (const ordered_json* turns = get(o, "turns")) {
    if (!turns->is_array()) throw FieldError{"turns", "must be a list, got " + turns->dump()};
    for (size_t i = 0; i < turns->size(); ++i)
      c.turns.push_back(parse_turn((*turns)[i], "turns." + std::to_string(i) + "."));
  }
  if (const ordered_json* v = get(o, "orchestrator")) c.orchestrator = boolean(*v, "orchestrator");
  const auto spawns = strings(get(o, "spawns"), "spawns");
  for (const char* key : {"think_time_ms", "think_time_sigma", "think_time_min_ms", "think_time_max_ms"})
    if (const ordered_json* v = given(o, key); v && v->is_boolean())
      throw FieldError{key, "rounds / think_time_* must be numeric (or a list for 'rounds'), not a boolean (got " +
                                std::string(v->get<bool>() ? "True" : "False") +
                                "); check for a typo in your DAG JSONL file"};
  const auto think = optional_number(o, "think_time_ms", "", 0, true);
  const auto sigma = optional_number(o, "think_time_sigma", "", 0, false, 10.0);
  const auto tmin = optional_number(o, "think_time_min_ms", "", 0, true);
  const auto tmax = optional_number(o, "think_time_max_ms", "", 0, true);
  const ordered_json* rounds = given(o, "rounds");
  if (const ordered_json* m = given(o, "context_mode")) {
    if (!m->is_string()) throw FieldError{"context_mode", "must be a string, got " + m->dump()};
    std::string mode = m->get<std::string>();
    std::transform(mode.begin(), mode.end(), mode.begin(), [](unsigned char ch) { return std::tolower(ch); });
    if (mode == "deltas_without_responses") c.mode = ContextMode::kDeltasWithoutResponses;
    else if (mode == "deltas_with_responses") c.mode = ContextMode::kDeltasWithResponses;
    else if (mode == "message_array_with_responses") c.mode = ContextMode::kMessageArrayWithResponses;
    else if (mode == "message_array_without_responses")
      throw FieldError{"context_mode", "'message_array_without_responses' is reserved (not implemented by AIPerf)"};
    else
      throw FieldError{"context_mode",
                       "must be 'deltas_without_responses', 'deltas_with_responses', "
                       "'message_array_with_responses' or 'message_array_without_responses', got " +
                           m->dump()};
  }
  c.pre_session_spawns = strings(get(o, "pre_session_spawns"), "pre_session_spawns");

  // The orchestrator rules (DagConversation's model validators, in their order).
  if (!c.orchestrator) {
    if (rounds)
      throw FieldError{"", "'rounds' is only valid on an orchestrator conversation (set 'orchestrator': true)"};
    if (!spawns.empty())
      throw FieldError{"",
                       "conversation-level 'spawns' is only valid on an orchestrator conversation; a normal "
                       "conversation uses per-turn 'DagTurn.spawns' (top-level 'spawns' would be silently ignored)"};
    if (c.turns.empty()) throw FieldError{"", "'turns' must be non-empty unless 'orchestrator' is true"};
  } else {
    if (!c.turns.empty())
      throw FieldError{"",
                       "orchestrator conversation must have an empty authored 'turns' list (the loader "
                       "synthesizes its single no-op turn)"};
    if (rounds) check_rounds(*rounds, !spawns.empty());
    else if (spawns.empty())
      throw FieldError{"", "orchestrator conversation requires a non-empty 'spawns' (or a per-round 'rounds' list)"};
    if (!c.pre_session_spawns.empty())
      throw FieldError{"",
                       "orchestrator conversation must not set 'pre_session_spawns'; use conversation-level "
                       "'spawns' instead"};
  }
  const bool clamps = tmin || tmax;
  if (!c.orchestrator) {
    if (think || sigma || clamps)
      throw FieldError{"",
                       "'think_time_ms'/'think_time_sigma'/'think_time_min_ms'/'think_time_max_ms' are only valid "
                       "on an orchestrator conversation with 'rounds' set"};
  } else {
    if (think && !rounds)
      throw FieldError{"",
                       "'think_time_ms' requires 'rounds' (it is the per-round wait of the gated spine); it has "
                       "no meaning for a single fire-and-forget turn"};
    if (sigma && !think)
      throw FieldError{"", "'think_time_sigma' requires 'think_time_ms' (the lognormal median to sample around)"};
    if (clamps && !sigma)
      throw FieldError{"",
                       "'think_time_min_ms'/'think_time_max_ms' require 'think_time_sigma' (they clamp the "
                       "sampled draw; a fixed think-time has nothing to clamp)"};
    if (tmin && tmax && *tmin > *tmax) throw FieldError{"", "'think_time_min_ms' must be <= 'think_time_max_ms'"};
  }
  return c;
}

// A system message only where the context starts: turn 0, or anywhere first in an isolated turn.
void check_system_placement(const Conversation& c) {
  for (size_t t = 0; t < c.turns.size(); ++t) {
    for (const size_t m : c.turns[t].system_at) {
      if (c.mode == ContextMode::kMessageArrayWithResponses) {
        if (m != 0)
          throw FieldError{"", "session '" + c.session_id + "' turn " + std::to_string(t) +
                                   ": a 'system' message must be the first message of an isolated turn's array; later "
                                   "positions are dropped by chat templates (e.g. Qwen3-VL)."};
      } else if (t != 0) {
        throw FieldError{"", "session '" + c.session_id + "' turn " + std::to_string(t) +
                                 ": non-root turns may not contain a 'system' message. Place the single system prompt "
                                 "at the root turn only; popular chat templates (e.g. Qwen3-VL) ignore system "
                                 "messages after index 0."};
      }
    }
  }
}

std::vector<Conversation> read_conversations(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DatasetFileError(path + ": cannot open the input file");
  std::vector<Conversation> conversations;
  std::set<std::string> ids;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (number == 1 && line.rfind("\xef\xbb\xbf", 0) == 0) line.erase(0, 3);  // a UTF-8 BOM
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    ordered_json object;
    try {
      object = ordered_json::parse(line);
    } catch (const ordered_json::exception& e) {
      throw DatasetFileError(where + "invalid JSON: " + e.what());
    }
    if (!object.is_object()) throw DatasetFileError(where + "each line must be a JSON object (one conversation)");
    try {
      Conversation c = parse_conversation(object);
      if (!ids.insert(c.session_id).second) throw FieldError{"", "duplicate session_id '" + c.session_id + "'"};
      check_system_placement(c);
      c.line = number;
      conversations.push_back(std::move(c));
    } catch (const FieldError& e) {
      throw DatasetFileError(where + (e.field.empty() ? "" : "field '" + e.field + "': ") + e.message);
    }
  }
  if (in.bad()) throw DatasetFileError(path + ": read error");
  if (conversations.empty())
    throw DatasetFileError("DAG JSONL file '" + path +
                           "' is empty (no conversations parsed); supply at least one conversation line");
  return conversations;
}

}  // namespace
}  // namespace dag_impl

bool looks_like_dag_jsonl(const nlohmann::json& object) {
  if (!object.is_object()) return false;
  const auto sid = object.find("session_id");
  if (sid == object.end() || !sid->is_string()) return false;
  const auto turns = object.find("turns");
  if (turns == object.end() || !turns->is_array() || turns->empty()) return false;
  for (const auto& t : *turns) {
    if (!t.is_object()) return false;
    if (const auto m = t.find("messages"); m != t.end() && m->is_array()) return true;
    if (t.contains("forks") || t.contains("spawns")) return true;
  }
  return false;
}

uint64_t count_dag_roots(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::set<std::string> all, referenced;
  std::string line;
  auto add_children = [&](const nlohmann::json* list) {
    if (!list || !list->is_array()) return;
    for (const auto& entry : *list) {
      if (entry.is_string()) referenced.insert(entry.get<std::string>());
      else if (entry.is_object()) {
        if (const auto c = entry.find("child"); c != entry.end() && c->is_string())
          referenced.insert(c->get<std::string>());
        if (const auto cs = entry.find("children"); cs != entry.end() && cs->is_array())
          for (const auto& c : *cs)
            if (c.is_string()) referenced.insert(c.get<std::string>());
      }
    }
  };
  while (std::getline(in, line)) {
    const auto o = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!o.is_object()) continue;
    const auto sid = o.find("session_id");
    if (sid == o.end() || !sid->is_string()) continue;
    all.insert(sid->get<std::string>());
    auto find = [](const nlohmann::json& j, const char* k) -> const nlohmann::json* {
      const auto it = j.find(k);
      return it == j.end() ? nullptr : &*it;
    };
    add_children(find(o, "spawns"));
    add_children(find(o, "pre_session_spawns"));
    if (const auto* rounds = find(o, "rounds"); rounds && rounds->is_array())
      for (const auto& r : *rounds)
        if (r.is_object()) add_children(find(r, "spawns"));
    if (const auto* turns = find(o, "turns"); turns && turns->is_array())
      for (const auto& t : *turns)
        if (t.is_object()) {
          add_children(find(t, "forks"));
          add_children(find(t, "spawns"));
        }
  }
  uint64_t roots = 0;
  for (const auto& id : all) roots += referenced.count(id) == 0;
  return roots;
}

void load_dag_jsonl(const config::InputConfig& in, CustomDataset& out) {
  using dag_impl::ContextMode;
  const auto conversations = dag_impl::read_conversations(in.input_file);
  std::vector<DagBranches> declared;
  for (const auto& c : conversations) {
    DagBranches& b = declared.emplace_back();
    b.line = c.line;
    b.session_id = c.session_id;
    b.turns = static_cast<uint32_t>(c.turns.size());
    for (const auto& t : c.turns) {
      b.spawns.push_back(t.spawns);
      b.forks.push_back(t.forks);
    }
    b.pre_session_spawns = c.pre_session_spawns;
    b.isolated = c.mode == ContextMode::kMessageArrayWithResponses;
    b.turn0_system = !c.turns.empty() && !c.turns[0].system_at.empty();
    b.orchestrator = c.orchestrator;
  }
  std::set<std::string> children;
  const auto spawns = resolve_dag_branches(in.input_file, declared, children);
  for (size_t i = 0; i < conversations.size(); ++i) {
    const auto& c = conversations[i];
    proto::Conversation conv;
    conv.set_session_id(c.session_id);
    *conv.mutable_spawns() = {spawns[i].begin(), spawns[i].end()};
    conv.set_branch_child(children.count(c.session_id) > 0);
    const bool isolated = c.mode == ContextMode::kMessageArrayWithResponses;
    conv.set_self_contained_turns(isolated);
    conv.set_discard_responses(c.mode == ContextMode::kDeltasWithResponses);
    for (const auto& t : c.turns) {
      proto::Turn& turn = *conv.add_turns();
      turn.set_raw_messages(t.messages);
      turn.set_raw_messages_delta(!isolated);
      if (!t.tools.empty()) turn.set_raw_tools(t.tools);
      if (t.model) turn.set_model(*t.model);
      if (t.max_tokens) turn.set_max_tokens(*t.max_tokens);
      if (!t.extra.empty()) turn.set_extra_body(t.extra);
      if (t.delay_ms > 0) turn.set_delay_ms(t.delay_ms);
    }
    out.conversations.push_back(std::move(conv));
  }
  out.default_sampling = "random";
}

}  // namespace aiperf::dataset
