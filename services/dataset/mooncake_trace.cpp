#include "mooncake_trace.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "dataset_error.h"
#include "jsonl_lines.h"

namespace aiperf::dataset {
namespace {

using nlohmann::json;

const json* field(const json& object, const char* name) {
  auto it = object.find(name);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

double non_negative(const json& v, const char* name) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
    throw FieldError{name, "must be a number >= 0, got " + v.dump()};
  return v.get<double>();
}

}  // namespace

proto::Turn parse_mooncake_line(const json& object, uint32_t block_size, double delay_ratio,
                                std::optional<PendingPrompt>& pending) {
  const json* input_length = field(object, "input_length");
  const json* text_input = field(object, "text_input");
  const json* messages = field(object, "messages");
  if ((input_length != nullptr) + (text_input != nullptr) + (messages != nullptr) != 1)
    throw FieldError{"", "exactly one of 'input_length', 'text_input' or 'messages' is required"};

  proto::Turn turn;
  const json* hash_ids = field(object, "hash_ids");
  if (hash_ids && !input_length) throw FieldError{"hash_ids", "only allowed with 'input_length'"};
  const json* tools = field(object, "tools");
  if (tools && !messages) throw FieldError{"tools", "only allowed with 'messages'"};

  if (input_length) {
    PendingPrompt p;
    p.input_length = static_cast<uint32_t>(integer_field(*input_length, "input_length", 1));
    if (hash_ids) {
      if (!hash_ids->is_array() || hash_ids->empty()) throw FieldError{"hash_ids", "must be a non-empty list of integers"};
      for (const json& id : *hash_ids) {
        if (!id.is_number_integer()) throw FieldError{"hash_ids", "must be a list of integers, got " + id.dump()};
        p.hash_ids.push_back(id.get<int64_t>());
      }
      // Every block but the last is full; the last holds the remainder (1..block_size tokens).
      const int64_t last = static_cast<int64_t>(p.input_length) -
                           static_cast<int64_t>(p.hash_ids.size() - 1) * block_size;
      if (last < 1 || last > block_size)
        throw FieldError{"input_length", std::to_string(p.input_length) + " does not fit " +
                                             std::to_string(p.hash_ids.size()) + " hash_ids blocks of " +
                                             std::to_string(block_size) + " tokens (the last block would have " +
                                             std::to_string(last) + "; set --isl-block-size)"};
    }
    pending = std::move(p);
  } else if (text_input) {
    if (!text_input->is_string()) throw FieldError{"text_input", "must be a string"};
    proto::Text* text = turn.add_texts();
    text->set_name("text");
    text->add_contents(text_input->get<std::string>());
  } else {
    if (!messages->is_array() || messages->empty()) throw FieldError{"messages", "must be a non-empty list of messages"};
    for (size_t i = 0; i < messages->size(); ++i)
      if (!(*messages)[i].is_object())
        throw FieldError{"messages[" + std::to_string(i) + "]", "must be a JSON object"};
    turn.set_raw_messages(messages->dump());
    if (tools) {
      if (!tools->is_array()) throw FieldError{"tools", "must be a list"};
      turn.set_raw_tools(tools->dump());
    }
  }
  // Any integer: <= 0 is raised to 1 later (apply_output_lengths), as AIPerf does.
  if (const json* out = field(object, "output_length"))
    turn.set_max_tokens(integer_field(*out, "output_length"));
  if (const json* ts = field(object, "timestamp")) turn.set_timestamp_ms(non_negative(*ts, "timestamp"));
  if (const json* delay = field(object, "delay")) turn.set_delay_ms(non_negative(*delay, "delay") * delay_ratio);
  return turn;
}

}  // namespace aiperf::dataset
