"""Regenerates golden-chat-template.jsonl: how transformers' apply_chat_template renders and
counts chat-shaped messages with the test tokenizers, the reference for our chat-template
renderer (--apply-chat-template). Run with the reference's Python (transformers + jinja2):
  ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/data/chat_template/make_goldens.py
Each line: tokenizer dir, template file (a *.jinja here replacing the tokenizer's own template,
or null), messages, add_generation_prompt, then either the rendered text and
len(apply_chat_template(tokenize=True)) or error=true when the template raises."""
import json
import os
import sys

from transformers import AutoTokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
TOK = os.path.join(HERE, "..", "tokenizer")

U1 = [{"role": "user", "content": "Hello there, how are you?"}]
SYS = [{"role": "system", "content": "You are a helpful assistant."},
       {"role": "user", "content": "Write a haiku about the sea."}]
MULTI = [{"role": "system", "content": "Be brief."},
         {"role": "user", "content": "What is 2+2?"},
         {"role": "assistant", "content": "4"},
         {"role": "user", "content": "And 3+3?"}]
NOSYS_MULTI = [{"role": "user", "content": "first question"},
               {"role": "assistant", "content": "first answer"},
               {"role": "user", "content": "second question"},
               {"role": "assistant", "content": "second answer"},
               {"role": "user", "content": "third"}]
THINK = [{"role": "user", "content": "hi"},
         {"role": "assistant", "content": "<think>\nreasoning here\n</think>\n\nHello!"},
         {"role": "user", "content": "again"},
         {"role": "assistant", "content": "<think>\nmore\n</think>\n\nDone."}]
SPECIAL = [{"role": "user", "content": "quotes \" ' <b>&amp;</b> {{ x }} {% if %} caf\u00e9 \u4f60\u597d \U0001f600\n\n  trailing  "}]
TOOLS = [{"role": "user", "content": "weather in Paris?"},
         {"role": "assistant", "content": "",
          "tool_calls": [{"id": "c1", "type": "function",
                          "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]},
         {"role": "tool", "content": "sunny, 21C"},
         {"role": "tool", "content": "humid"},
         {"role": "user", "content": "thanks"}]
TOOLS_DICT = [{"role": "user", "content": "x"},
              {"role": "assistant", "content": "calling",
               "tool_calls": [{"type": "function",
                               "function": {"name": "f", "arguments": {"b": 1, "a": [1, 2.5, None, True], "c": "\u00e9<"}}},
                              {"function": {"name": "g", "arguments": "{}"}}]}]
LATE_SYS = [{"role": "user", "content": "u"}, {"role": "system", "content": "late system"},
            {"role": "user", "content": "<tool_response>r</tool_response>"}]
EMPTY_CONTENT = [{"role": "user", "content": ""}]
BAD_ORDER = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]

CONVERSATIONS = {"single_user": U1, "system_user": SYS, "multi_turn": MULTI, "no_system_multi": NOSYS_MULTI,
                 "think": THINK, "special_chars": SPECIAL, "tool_calls": TOOLS, "tool_args_dict": TOOLS_DICT,
                 "late_system": LATE_SYS, "empty_content": EMPTY_CONTENT, "bad_order": BAD_ORDER}

# (tokenizer, template file or None, conversations)
SUITES = [
    ("qwen3", None, list(CONVERSATIONS)),
    ("mistral", "mistral.jinja", ["single_user", "system_user", "multi_turn", "no_system_multi", "special_chars",
                                  "bad_order", "empty_content"]),
    ("mistral", "llama2.jinja", ["single_user", "system_user", "multi_turn", "no_system_multi", "bad_order"]),
    ("qwen3", "features.jinja", list(CONVERSATIONS)),
]


def main():
    out = open(os.path.join(HERE, "golden-chat-template.jsonl"), "w", encoding="utf-8")
    for tok_name, template_file, names in SUITES:
        tok = AutoTokenizer.from_pretrained(os.path.join(TOK, tok_name))
        template = None
        if template_file:
            with open(os.path.join(HERE, template_file), encoding="utf-8") as f:
                template = f.read()
        for name in names:
            for agp in (True, False):
                msgs = CONVERSATIONS[name]
                row = {"tokenizer": tok_name, "template": template_file, "case": name,
                       "add_generation_prompt": agp, "messages": msgs}
                try:
                    text = tok.apply_chat_template(msgs, chat_template=template, tokenize=False,
                                                   add_generation_prompt=agp)
                    ids = tok.apply_chat_template(msgs, chat_template=template, tokenize=True,
                                                  add_generation_prompt=agp)
                    if isinstance(ids, dict) or hasattr(ids, "keys"):
                        ids = ids["input_ids"]
                    row["text"] = text
                    row["tokens"] = len(ids)
                except Exception as exc:  # the template raised (raise_exception) or failed
                    row["error"] = True
                    row["message"] = str(exc)
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    out.close()


if __name__ == "__main__":
    sys.exit(main())
