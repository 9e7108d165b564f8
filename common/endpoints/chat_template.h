// HuggingFace chat templates (--apply-chat-template): the template a tokenizer ships in its
// tokenizer_config.json ("chat_template", a string or a list of {name, template}) or in
// chat_template.jinja, rendered as transformers' apply_chat_template renders it: Jinja2 with
// trim_blocks and lstrip_blocks, no autoescape, the special tokens of tokenizer_config.json as
// variables, tools=None, raise_exception(), and transformers' tojson (json.dumps, non-ASCII
// kept). The rendered text is then encoded without added BOS/EOS by the caller.
//
// The Jinja interpreter here is separate from jinja_subset.h (payload templates), whose
// autoescaping and deliberately small surface stay as they are. It covers what Hub chat
// templates use: if/elif/else, for (loop.*, else, `if` filter, tuple targets, break/continue),
// set (names, namespace attributes, blocks), generation blocks, the Python operators, slices,
// list/dict literals, conditional expressions, the common filters, tests, string and dict
// methods, namespace(), range(), raise_exception(). Macros and call blocks are not supported:
// such templates fail to compile (ChatTemplateError) and the caller falls back to bare text.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace aiperf::endpoints {

// A template outside the supported language, or one that failed while rendering (including
// raise_exception(), undefined operands, type errors): the message says which.
class ChatTemplateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ChatTemplate {
 public:
  // `special_tokens`: name -> text (bos_token, eos_token, ...), visible to the template.
  // Throws ChatTemplateError when the source is not valid in the supported language.
  ChatTemplate(std::string_view source, std::map<std::string, std::string> special_tokens = {});
  ~ChatTemplate();
  ChatTemplate(ChatTemplate&&) noexcept;
  ChatTemplate& operator=(ChatTemplate&&) noexcept;

  // apply_chat_template(messages, tokenize=False, add_generation_prompt): `messages` is an array
  // of objects (keys whose value is null are dropped first, as transformers does). Throws
  // ChatTemplateError when the template raises or fails.
  std::string render(const nlohmann::ordered_json& messages, bool add_generation_prompt) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The chat template of the tokenizer at `tokenizer_path` (a tokenizer.json file or the directory
// holding it): tokenizer_config.json's "chat_template" beside it (a list picks the entry named
// "default"), else chat_template.jinja beside it; with the special-token strings of
// tokenizer_config.json. nullopt when there is none (tiktoken, SentencePiece models, a
// tokenizer_config.json without a template). Throws ChatTemplateError when the template exists
// but does not compile.
std::optional<ChatTemplate> load_chat_template(const std::string& tokenizer_path);

// The special-token strings of the tokenizer_config.json beside `tokenizer_path` (bos_token,
// eos_token, unk_token, sep_token, pad_token, cls_token, mask_token: those set), as transformers
// passes them to the template.
std::map<std::string, std::string> load_special_tokens(const std::string& tokenizer_path);

}  // namespace aiperf::endpoints
