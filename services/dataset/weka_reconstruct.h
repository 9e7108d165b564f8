// The message layout of a Weka agentic trace (AIPerf 0.13's LCP-driven reconstruction): each
// recorded request gives only its hash_ids (KV-cache blocks of block_size tokens), its input and
// output token counts. The conversation is rebuilt as role-tagged segments whose tokens total
// exactly the recorded input length: turn 0 is a system segment (the declared tool + system
// tokens, rounded up to whole blocks) and a user segment; each later turn truncates the buffer at
// the longest common prefix of the previous and current hash_ids, then appends the new blocks,
// ceil(previous output / block_size) of them as an assistant segment and the rest (plus the
// synthesized tail: the partial last block and any blocks the recording did not hash) as a user
// segment. A given hash id always stands for the same tokens, so a replay shares prefixes exactly
// where the recording did.
//
// Pure bookkeeping: segments hold block ids and tail sizes, never tokens; the dataset service
// turns them into text with the run's tokenizer (weka_prompts.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aiperf::dataset {

struct WekaSegment {
  std::string role;             // system | user | assistant
  std::vector<int64_t> blocks;  // hash ids, block_size tokens each
  uint32_t tail = 0;            // synthesized tokens after the blocks (only a trailing segment has any)
  std::string tail_seed;        // what the tail's tokens are drawn from (position-keyed)
  bool operator==(const WekaSegment&) const = default;
};

class WekaReconstructor {
 public:
  explicit WekaReconstructor(uint32_t block_size) : block_size_(block_size) {}

  // Turn 0. Throws std::invalid_argument when the hash_ids cannot even cover the declared
  // tool + system prefix (synthesizing it would fake the cached prefix the trace measures).
  void init_turn_0(const std::vector<int64_t>& hash_ids, int64_t in_tokens, int64_t tool_tokens, int64_t system_tokens,
                   const std::string& seed);
  // Turn k > 0. `max_asst_blocks` is the planner's cap for this turn (weka_asst_block_caps).
  void advance_turn(const std::vector<int64_t>& prev_hash_ids, int64_t prev_out_tokens,
                    const std::vector<int64_t>& curr_hash_ids, int64_t curr_in_tokens, const std::string& seed,
                    std::optional<int64_t> max_asst_blocks);

  // The whole context of the last turn, in order (what its request sends).
  const std::vector<WekaSegment>& segments() const { return segments_; }
  // Tokens of the segments: sum of blocks * block_size + tails.
  int64_t token_count() const;

 private:
  void truncate_at_block(int64_t target_blocks);

  uint32_t block_size_;
  std::vector<WekaSegment> segments_;
};

// Per-turn upper bounds on assistant blocks (none for turn 0), from each turn's (hash_ids,
// input tokens): chosen so that a later turn which only pulls the context back onto a block
// boundary lands on a user block, not an assistant one (its request must end with a user
// message).
std::vector<std::optional<int64_t>> weka_asst_block_caps(
    const std::vector<std::pair<std::vector<int64_t>, int64_t>>& turns, uint32_t block_size);

}  // namespace aiperf::dataset

namespace aiperf::dataset {

// One turn of a weka_trace conversation whose messages the dataset service still has to write
// with the tokenizer: `segments` (weka_reconstruct) become chat messages, blocks drawn once per
// (scope, hash id) so a hash id reads the same wherever it recurs within its trace.
struct WekaPendingTurn {
  size_t conversation = 0;
  int turn = 0;
  std::string scope;  // the root trace id (hash ids are local to one trace file)
  uint32_t block_size = 0;
  std::vector<WekaSegment> segments;
};

}  // namespace aiperf::dataset
