// ChatTemplate: a Hub chat template compiled once (chat_template_parse.cpp) and rendered per
// conversation (chat_template_render.cpp) with the variables transformers' apply_chat_template
// passes. The interpreter's parts are listed in chat_template_internal.h.
#include "endpoints/chat_template.h"

#include "endpoints/chat_template_internal.h"

namespace aiperf::endpoints {

using chat_jinja::J;
using chat_jinja::fail;

namespace {

// Transformers' message preparation: keys whose value is None are dropped; a reasoning field
// (reasoning_content, thinking, reasoning) is copied to "thinking" (first) and
// "reasoning_content" (last).
J prepare_messages(const J& messages) {
  J out = J::array();
  if (!messages.is_array()) return out;
  for (const J& m : messages) {
    if (!m.is_object()) {
      out.push_back(m);
      continue;
    }
    J msg = J::object();
    for (const auto& [k, v] : m.items())
      if (!v.is_null()) msg[k] = v;
    const J* reasoning = nullptr;
    for (const char* key : {"reasoning_content", "thinking", "reasoning"}) {
      if (auto it = msg.find(key); it != msg.end()) {
        reasoning = &*it;
        break;
      }
    }
    if (reasoning) {
      const J r = *reasoning;
      J aliased = J::object();
      aliased["thinking"] = r;
      for (const auto& [k, v] : msg.items()) aliased[k] = v;
      aliased.erase("reasoning_content");
      aliased["reasoning_content"] = r;
      msg = std::move(aliased);
    }
    out.push_back(std::move(msg));
  }
  return out;
}

}  // namespace

struct ChatTemplate::Impl {
  chat_jinja::Body body;
  std::map<std::string, std::string> special_tokens;
};

namespace {
chat_jinja::Body compile(std::string_view source) {
  try {
    return chat_jinja::parse_template(source);
  } catch (const ChatTemplateError&) {
    throw;
  } catch (const std::exception& e) {  // number literals out of range, ...
    fail(std::string("cannot compile: ") + e.what());
  }
}
}  // namespace

ChatTemplate::ChatTemplate(std::string_view source, std::map<std::string, std::string> special_tokens)
    : impl_(std::make_unique<Impl>(Impl{compile(source), std::move(special_tokens)})) {}
ChatTemplate::~ChatTemplate() = default;
ChatTemplate::ChatTemplate(ChatTemplate&&) noexcept = default;
ChatTemplate& ChatTemplate::operator=(ChatTemplate&&) noexcept = default;

std::string ChatTemplate::render(const nlohmann::ordered_json& messages, bool add_generation_prompt) const {
  J globals = J::object();
  for (const auto& [k, v] : impl_->special_tokens) globals[k] = v;
  globals["messages"] = prepare_messages(messages);
  globals["tools"] = nullptr;
  globals["documents"] = nullptr;
  globals["add_generation_prompt"] = add_generation_prompt;
  chat_jinja::Renderer r(globals);
  std::string out;
  try {
    r.render(impl_->body, out);
  } catch (const ChatTemplateError&) {
    throw;
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("type error: ") + e.what());
  } catch (const std::exception& e) {  // out_of_range, invalid_argument, length_error, ...
    fail(std::string("error: ") + e.what());
  }
  return out;
}

}  // namespace aiperf::endpoints
