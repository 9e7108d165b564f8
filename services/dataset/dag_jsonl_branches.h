// dag_jsonl branches between conversations, checked and desugared as AIPerf 0.13's DAG loader
// does: per turn, consecutive bare-string `spawns` form one group joined on the next turn, each
// {"children": [...], "join_at": K} object a group of its own joined on turn K (K past the
// spawning turn, inside the conversation); a group on the last turn (or joined past the end) is
// fire-and-forget; `pre_session_spawns` start with the conversation. `forks` start children that
// continue the parent's context (history and answers so far) on its worker: on the last turn
// (the parent ends), or anywhere with "background": true (the parent goes on, nothing joins).
// Children must be declared, appear once per group and turn, a fork child has one parent, is not
// isolated, opens no system message and is no pre-session spawn, and the branch graph has no
// cycle. Orchestrator spines are refused.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common.pb.h"

namespace aiperf::dataset {

struct DagFork {
  std::string child;
  bool background = false;  // the parent goes on (else the fork is on its last turn)
};

struct DagSpawnGroup {
  std::vector<std::string> children;
  std::optional<int64_t> join_at;  // the authored join turn (default: the next turn)
};

// One conversation's branch declarations, as its line states them.
struct DagBranches {
  size_t line = 0;
  std::string session_id;
  uint32_t turns = 0;
  std::vector<std::vector<DagSpawnGroup>> spawns;  // per turn
  std::vector<std::vector<DagFork>> forks;         // per turn
  std::vector<std::string> pre_session_spawns;
  bool orchestrator = false;
  bool isolated = false;      // message_array_with_responses: cannot continue a parent's context
  bool turn0_system = false;  // its first turn has a system message
};

// Checks every conversation's branches (file order) and returns, per conversation, the spawns the
// timing service runs; `children` receives every spawned conversation id. Throws DatasetFileError
// "path:line: session 'a' turn 0: ..." for a bad branch, and for orchestrators.
std::vector<std::vector<proto::SpawnBranch>> resolve_dag_branches(const std::string& path,
                                                                  const std::vector<DagBranches>& conversations,
                                                                  std::set<std::string>& children);

}  // namespace aiperf::dataset
