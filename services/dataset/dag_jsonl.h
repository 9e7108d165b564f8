// dag_jsonl (AIPerf 0.13): one conversation per JSONL line,
//   {"session_id": "a", "context_mode": "deltas_without_responses",
//    "turns": [{"messages": [{"role": "user", "content": "..."}], "model": "m", "max_tokens": 64,
//               "tools": [...], "extra": {"temperature": 0.2}, "delay": 250,
//               "forks": [...], "spawns": [...]}, ...],
//    "pre_session_spawns": [...], "orchestrator": false, "spawns": [...], "rounds": ...,
//    "think_time_ms": ..., "think_time_sigma": ..., "think_time_min_ms": ..., "think_time_max_ms": ...}
// checked field by field as AIPerf's pydantic models check them (unknown keys refused, messages
// non-empty and each with a role, max_tokens >= 1, delay >= 0 ms, the orchestrator and
// think-time rules, a system message only on a turn that starts the context).
//
// Each turn's messages are a delta: by default (deltas_without_responses) a turn sends the
// earlier turns' messages, each followed by the server's answer, then its own;
// deltas_with_responses leaves the answers out; message_array_with_responses sends each turn's
// messages alone. The turn's model, max_tokens and tools go in the body, `extra` is merged into
// it, `delay` (ms, capped by --inter-turn-delay-cap-seconds) waits before the turn.
//
// Spawns and forks between conversations run as AIPerf runs them (dag_jsonl_branches.h, the
// timing service's phase_runner.h, the worker's fork contexts): children start when the turn
// returns, the join turn waits for them, a fork child continues its parent's context; only roots
// are sampled. Orchestrator spines are validated, then refused.
#pragma once
#include <cstdint>
#include <string>

#include "custom_dataset.h"

namespace aiperf::dataset {

// Loads `in.input_file`. Throws DatasetFileError "file:line: field 'turns.0.messages': ..." for
// the first bad line, a bad branch, and for orchestrators.
void load_dag_jsonl(const config::InputConfig& in, CustomDataset& out);

// AIPerf's detection: a string session_id and a non-empty turns list whose turns are objects,
// one of them with a messages list, forks or spawns.
bool looks_like_dag_jsonl(const nlohmann::json& object);

// The sessions no other session branches to (what a run with no other bound replays once each);
// 0 when the file cannot be read.
uint64_t count_dag_roots(const std::string& path);

}  // namespace aiperf::dataset
