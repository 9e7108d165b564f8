// --reply-rules FILE: scripted answers for chat/completions (tests of graded runs, such as
// --accuracy-benchmark). FILE holds JSON lines {"match": "...", "reply": "..."}; a generation
// request whose body contains a rule's `match` (the first such rule, byte for byte in the JSON
// body) is answered with exactly `reply` as one output token, streaming or not. Requests no rule
// matches get the usual generated text.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::mock {

struct ReplyRule {
  std::string match;
  std::string reply_json;  // the reply as a JSON string body (escaped, no quotes)
};

// Throws std::runtime_error naming the file and line for an unreadable file or a bad line.
std::vector<ReplyRule> load_reply_rules(const std::string& path);

// The first rule whose `match` occurs in `body`; nullptr when none does.
const ReplyRule* find_reply_rule(const std::vector<ReplyRule>& rules, std::string_view body);

}  // namespace aiperf::mock
