#include "accuracy_dataset.h"

#include "accuracy/problems.h"
#include "endpoints/endpoint.h"

namespace aiperf::dataset {

std::vector<proto::Conversation> accuracy_conversations(const config::RunConfig& config) {
  const std::vector<accuracy::Problem> problems = accuracy::build_problems(config.accuracy);
  const endpoints::EndpointInfo* ep = endpoints::find_endpoint(config.endpoint.type);
  const bool chat = ep && ep->chat_messages;
  std::vector<proto::Conversation> out;
  out.reserve(problems.size());
  for (size_t i = 0; i < problems.size(); ++i) {
    const accuracy::Problem& p = problems[i];
    proto::Conversation conv;
    conv.set_session_id(accuracy::problem_conversation_id(config.benchmark_id, config.input.random_seed, i));
    proto::Turn& turn = *conv.add_turns();
    // The messages for endpoints that send role messages; completions-style ones send (and count)
    // the flat prompt, as AIPerf's do.
    if (chat) turn.set_raw_messages(p.messages.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    turn.add_texts()->add_contents(p.prompt);
    turn.set_max_tokens(p.generation_size);
    if (!p.stop.empty()) turn.set_extra_body(nlohmann::ordered_json{{"stop", p.stop}}.dump());
    out.push_back(std::move(conv));
  }
  return out;
}

}  // namespace aiperf::dataset
