// `aiperf analyze turn-messages`, the pure part: the per-turn input messages of a run made
// with --export-level raw, grouped conversation -> turn -> message as AIPerf 0.13 groups them
// (aiperf/analysis/turn_messages.py): replays of one conversation by several sessions kept
// apart, roots first then by first request time, each unique (role, body) stored once.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::cli::analyze {

class TurnMessagesError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The raw-record files of `path`: the file itself, else <dir>/raw_records/*.jsonl (sorted),
// else <dir>/profile_export_raw.jsonl; empty when there are none.
std::vector<std::string> find_raw_records(const std::string& path);

// One request of the raw export, the fields the viewer uses.
struct TurnRecord {
  std::string conv;               // conversation_id, "(none)" when absent
  nlohmann::ordered_json turn;            // turn_index (null when absent)
  int64_t depth = 0;              // agent_depth
  std::string parent_corr, x_corr;
  nlohmann::ordered_json model, max_tokens, phase;
  bool cancelled = false, error = false;
  nlohmann::ordered_json messages = nlohmann::ordered_json::array();  // payload.messages (a list, else empty)
  int64_t start_ns = 0;
  int replay = 0;  // which session replayed the conversation (0 = the first)
};

// Reads every non-blank line of `files`. A line that is not JSON, or not an object, is skipped
// as the reference skips it, and named in `skipped` ("file:line: ...").
std::vector<TurnRecord> load_turn_records(const std::vector<std::string>& files, std::vector<std::string>& skipped);

struct TurnLimits {
  int64_t content_cap = 8000;  // characters kept per unique message body
  int64_t conversations = 40;  // conversations shown
  int64_t max_turns = 60;      // turns shown per conversation
};

// The viewer's data, AIPerf's keys: {stat, legend: [[role, count]...], msgs: [{role, len, body,
// trunc}], convs: [{id, disp, kind, isRoot, parent, lane, models, nt, moreTurns, replayTag,
// turns: [{ti, phase, maxTokens, cancelled, error, ids}]}]}.
nlohmann::ordered_json build_turn_payload(std::vector<TurnRecord> records, size_t n_files, const TurnLimits& limits);

// The self-contained page: the payload as JSON and a small inline script that builds the
// conversation/turn/message tree lazily (a turn's messages only when it is opened).
std::string turn_messages_html(const nlohmann::ordered_json& payload, const std::string& title);

}  // namespace aiperf::cli::analyze
