#include "endpoints/chat_inputs.h"

namespace aiperf::endpoints {
namespace {

using J = nlohmann::ordered_json;

void collect_strings(const J& source, std::initializer_list<const char*> keys, std::vector<std::string>& out) {
  for (const char* key : keys) {
    auto it = source.find(key);
    if (it != source.end() && it->is_string() && !it->get_ref<const std::string&>().empty()) out.push_back(it->get<std::string>());
  }
}

// Text content parts of the chat and Responses shapes.
bool is_text_part(const J& type) {
  return type.is_string() && (type == "text" || type == "input_text" || type == "output_text");
}

void walk_item(const J& item, ChatInputs& out) {
  std::string text;
  if (auto c = item.find("content"); c != item.end()) {
    if (c->is_string()) {
      text = c->get<std::string>();
    } else if (c->is_array()) {
      for (const J& part : *c) {
        if (!part.is_object()) continue;
        auto type = part.find("type");
        auto t = part.find("text");
        if (type != part.end() && is_text_part(*type) && t != part.end() && t->is_string()) text += t->get<std::string>();
      }
    }
  }
  auto role = item.find("role");
  const bool in_messages = role != item.end() && role->is_string();
  // Responses-shape replayed calls: their text is outside the messages view.
  if (auto type = item.find("type"); type != item.end() && type->is_string()) {
    if (*type == "function_call") collect_strings(item, {"name", "arguments"}, out.tool_texts);
    else if (*type == "function_call_output") collect_strings(item, {"output"}, out.tool_texts);
  }
  if (!in_messages) {
    // tool_calls on a role-less item are tool text too.
    if (auto tc = item.find("tool_calls"); tc != item.end() && tc->is_array())
      for (const J& call : *tc)
        if (call.is_object())
          if (auto fn = call.find("function"); fn != call.end() && fn->is_object())
            collect_strings(*fn, {"name", "arguments"}, out.tool_texts);
    return;
  }
  J msg = J::object();
  msg["role"] = *role;
  msg["content"] = std::move(text);
  if (auto tc = item.find("tool_calls"); tc != item.end() && tc->is_array() && !tc->empty()) msg["tool_calls"] = *tc;
  out.messages.push_back(std::move(msg));
}

void walk_tools(const J& payload, ChatInputs& out) {
  auto tools = payload.find("tools");
  if (tools == payload.end() || !tools->is_array()) return;
  for (const J& tool : *tools) {
    if (!tool.is_object()) continue;
    const J* sources[2] = {nullptr, &tool};
    if (auto fn = tool.find("function"); fn != tool.end() && fn->is_object()) sources[0] = &*fn;
    for (const J* source : sources) {
      if (!source) continue;
      collect_strings(*source, {"name", "description"}, out.tool_texts);
      if (auto p = source->find("parameters"); p != source->end() && p->is_object()) out.tool_texts.push_back(p->dump());
    }
  }
}

}  // namespace

std::optional<ChatInputs> chat_inputs_of(std::string_view payload) {
  const J body = J::parse(payload, nullptr, false);
  if (!body.is_object()) return std::nullopt;
  ChatInputs out;
  bool found = false;
  for (const char* field : {"messages", "input"}) {
    auto items = body.find(field);
    if (items == body.end() || !items->is_array() || items->empty()) continue;
    bool shaped = false;
    for (const J& i : *items) shaped = shaped || (i.is_object() && (i.contains("role") || i.contains("type")));
    if (!shaped) continue;
    found = true;
    for (const J& i : *items)
      if (i.is_object()) walk_item(i, out);
  }
  if (!found) return std::nullopt;
  // Tool schemas are walked after the items, as in the reference, so tool_texts keeps its order.
  ChatInputs tools;
  walk_tools(body, tools);
  // Reference order: the items' function_call texts come first, then the schemas.
  out.tool_texts.insert(out.tool_texts.end(), tools.tool_texts.begin(), tools.tool_texts.end());
  return out;
}

}  // namespace aiperf::endpoints
