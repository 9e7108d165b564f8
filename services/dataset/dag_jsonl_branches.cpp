#include "dag_jsonl_branches.h"

#include <algorithm>
#include <functional>
#include <map>

#include "dataset_error.h"

namespace aiperf::dataset {
namespace {

// Python's repr of a list of strings, as AIPerf names the known sessions.
std::string py_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", '" : "'") + items[i] + "'";
  return out + "]";
}

std::string where(const std::string& path, const DagBranches& c) { return path + ":" + std::to_string(c.line) + ": "; }

void check_groups(const std::string& path, const DagBranches& c, uint32_t turn) {
  std::set<std::string> across;
  for (const DagSpawnGroup& g : c.spawns[turn]) {
    std::set<std::string> in_group;
    for (const std::string& child : g.children)
      if (!in_group.insert(child).second)
        throw DatasetFileError(where(path, c) + "session '" + c.session_id + "' turn " + std::to_string(turn) +
                               ": duplicate child_conversation_id '" + child + "' in spawn group");
    for (const std::string& child : in_group)  // sorted: AIPerf names the first in order
      if (across.count(child))
        throw DatasetFileError(where(path, c) + "session '" + c.session_id + "' turn " + std::to_string(turn) +
                               ": duplicate child_conversation_id '" + child + "' across spawn groups");
    across.insert(in_group.begin(), in_group.end());
    if (g.join_at && *g.join_at <= static_cast<int64_t>(turn))
      throw DatasetFileError(where(path, c) + "session '" + c.session_id + "' turn " + std::to_string(turn) +
                             ": spawn join_at=" + std::to_string(*g.join_at) +
                             " must be strictly greater than the spawning turn index");
    if (g.join_at && *g.join_at >= static_cast<int64_t>(c.turns))
      throw DatasetFileError(where(path, c) + "session '" + c.session_id + "' turn " + std::to_string(turn) +
                             ": spawn join_at=" + std::to_string(*g.join_at) + " is out of range (conversation has " +
                             std::to_string(c.turns) + " turns)");
  }
}

// Orchestrator spines (request-less turns with sampled think times) are not run yet.
void refuse_unsupported(const std::string& path, const DagBranches& c) {
  if (!c.orchestrator) return;
  throw DatasetFileError(where(path, c) + "session '" + c.session_id +
                         "': an orchestrator conversation: dag_jsonl orchestrator spines are not supported yet "
                         "(spawns, forks, pre_session_spawns and joins are)");
}

// A turn's forks: each child once; a foreground fork only on the last turn. Foreground and
// background forks become separate branches, as in AIPerf.
void add_forks(const std::string& path, const DagBranches& c, uint32_t turn, std::vector<proto::SpawnBranch>& out) {
  std::set<std::string> seen;
  for (const DagFork& f : c.forks[turn])
    if (!seen.insert(f.child).second)
      throw DatasetFileError(where(path, c) + "session '" + c.session_id + "' turn " + std::to_string(turn) +
                             ": duplicate child_conversation_id '" + f.child + "' in fork entries");
  for (const bool background : {false, true}) {
    proto::SpawnBranch b;
    b.set_after_turn(turn);
    b.set_fork(true);
    for (const DagFork& f : c.forks[turn])
      if (f.background == background) b.add_children(f.child);
    if (b.children_size() == 0) continue;
    if (!background && turn + 1 < c.turns)
      throw DatasetFileError(where(path, c) + "session '" + c.session_id + "' turn " + std::to_string(turn) +
                             " has foreground FORK branches but is not the last turn and no join is declared (use "
                             "``background=True`` on the fork entry to keep the parent running, or move the forks to "
                             "the final turn)");
    out.push_back(std::move(b));
  }
}

}  // namespace

std::vector<std::vector<proto::SpawnBranch>> resolve_dag_branches(const std::string& path,
                                                                  const std::vector<DagBranches>& conversations,
                                                                  std::set<std::string>& children) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < conversations.size(); ++i) index.emplace(conversations[i].session_id, i);
  std::vector<std::vector<proto::SpawnBranch>> out(conversations.size());
  for (size_t i = 0; i < conversations.size(); ++i) {
    const DagBranches& c = conversations[i];
    std::set<std::string> pre;
    for (const std::string& child : c.pre_session_spawns)
      if (!pre.insert(child).second)
        throw DatasetFileError(where(path, c) + "session '" + c.session_id + "' duplicate child_conversation_id '" +
                               child + "' in pre_session_spawns");
    if (!c.pre_session_spawns.empty()) {
      proto::SpawnBranch& b = out[i].emplace_back();
      b.set_pre_session(true);
      for (const std::string& child : c.pre_session_spawns) b.add_children(child);
    }
    for (uint32_t turn = 0; turn < c.spawns.size(); ++turn) {
      if (turn < c.forks.size()) add_forks(path, c, turn, out[i]);
      check_groups(path, c, turn);
      for (const DagSpawnGroup& g : c.spawns[turn]) {
        proto::SpawnBranch& b = out[i].emplace_back();
        b.set_after_turn(turn);
        for (const std::string& child : g.children) b.add_children(child);
        // The default join is the next turn; none past the last one (fire-and-forget).
        const int64_t join = g.join_at.value_or(static_cast<int64_t>(turn) + 1);
        if (join < static_cast<int64_t>(c.turns)) b.set_join_turn(static_cast<uint32_t>(join));
      }
    }
  }
  // Every target declared.
  for (size_t i = 0; i < conversations.size(); ++i) {
    for (const proto::SpawnBranch& b : out[i]) {
      for (const std::string& child : b.children()) {
        if (index.count(child)) {
          children.insert(child);
          continue;
        }
        std::vector<std::string> known;
        for (const auto& [id, _] : index) {
          if (known.size() == 10) break;
          known.push_back(id);
        }
        throw DatasetFileError(where(path, conversations[i]) + "session '" + conversations[i].session_id + "' turn " +
                               std::to_string(b.after_turn()) + ": branch target '" + child +
                               "' not declared. Known sessions: " + py_list(known));
      }
    }
  }
  // A fork child continues one parent's context: one parent, not isolated, no system message of its
  // own, not started before its parent's first turn.
  std::map<std::string, std::pair<std::string, uint32_t>> fork_parent;
  for (size_t i = 0; i < conversations.size(); ++i)
    for (const proto::SpawnBranch& b : out[i]) {
      if (!b.fork()) continue;
      for (const std::string& child : b.children()) {
        if (auto [it, fresh] = fork_parent.try_emplace(child, conversations[i].session_id, b.after_turn()); !fresh)
          throw DatasetFileError(where(path, conversations[i]) + "session '" + child + "' forked by both '" +
                                 it->second.first + "' turn " + std::to_string(it->second.second) + " and '" +
                                 conversations[i].session_id + "' turn " + std::to_string(b.after_turn()) +
                                 "; FORK-mode children require a single parent");
      }
    }
  for (const DagBranches& c : conversations)
    for (const std::string& child : c.pre_session_spawns)
      if (fork_parent.count(child))
        throw DatasetFileError(where(path, c) + "session '" + child + "' is referenced by '" + c.session_id +
                               "' pre_session_spawns but is also a FORK target; pre-session children must be "
                               "SPAWN-mode (no parent context to inherit)");
  for (const DagBranches& c : conversations) {
    if (!fork_parent.count(c.session_id)) continue;
    if (c.turn0_system && !c.isolated)
      throw DatasetFileError(where(path, c) + "session '" + c.session_id +
                             "' turn 0: non-root turns may not contain a 'system' message. Place the single system "
                             "prompt at the root turn only; popular chat templates (e.g. Qwen3-VL) ignore system "
                             "messages after index 0.");
    if (c.isolated)
      throw DatasetFileError(where(path, c) + "session '" + c.session_id +
                             "' is a FORK target with context_mode 'message_array_with_responses'; payload isolation "
                             "drops the inherited parent context and is only valid on fresh-context SPAWN branches");
  }
  // Pre-session spawns run before a session's first credit: only a root has one (AIPerf's
  // orchestrator check).
  for (const DagBranches& c : conversations)
    if (!c.pre_session_spawns.empty() && children.count(c.session_id))
      throw DatasetFileError(where(path, c) + "conversation '" + c.session_id + "' branch '" + c.session_id +
                             ":pre': pre-session dispatch requires a root conversation (is_root=True, "
                             "agent_depth=0), got is_root=False agent_depth=0");
  // No cycle (depth first in file order, children in branch order).
  std::vector<int> state(conversations.size(), 0);  // 0 new, 1 on the path, 2 done
  std::vector<std::string> stack;
  std::function<void(size_t)> visit = [&](size_t node) {
    if (state[node] == 2) return;
    if (state[node] == 1) {
      const auto from = std::find(stack.begin(), stack.end(), conversations[node].session_id);
      std::string cycle;
      for (auto it = from; it != stack.end(); ++it) cycle += *it + " -> ";
      throw DatasetFileError(path + ": cycle detected: " + cycle + conversations[node].session_id);
    }
    state[node] = 1;
    stack.push_back(conversations[node].session_id);
    for (const proto::SpawnBranch& b : out[node])
      for (const std::string& child : b.children()) visit(index.at(child));
    stack.pop_back();
    state[node] = 2;
  };
  for (size_t i = 0; i < conversations.size(); ++i) visit(i);
  for (const DagBranches& c : conversations) refuse_unsupported(path, c);
  return out;
}

}  // namespace aiperf::dataset
