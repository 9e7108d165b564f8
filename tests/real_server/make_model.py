#!/usr/bin/env python3
"""Writes a tiny random-weight llama-architecture GGUF model whose vocabulary is GPT-2's.

Why: tests against a real llama.cpp server need a model, and a real one is large and would be a binary
blob. The generated model is ~8 MB, deterministic (fixed seed), and tokenizes exactly like GPT-2, so the
server's token counts can be compared with our GPT-2 tokenizer's. Its output is random tokens, which is
all a benchmark needs (lengths are forced with ignore_eos / n_predict).

usage: make_model.py TOKENIZER_JSON OUT.gguf        (run with a Python that has the `gguf` package)
"""
import json
import sys

import numpy as np
from gguf import GGUFWriter, GGMLQuantizationType, TokenType

N_EMBD, N_HEAD, N_LAYER, N_FF, N_CTX = 64, 4, 2, 128, 4096

# A small ChatML-style template; llama-server renders it with --jinja.
CHAT_TEMPLATE = (
    "{% for m in messages %}<|endoftext|>{{ m['role'] }}\n{{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|endoftext|>assistant\n{% endif %}"
)


def main(tokenizer_json: str, out: str) -> None:
    with open(tokenizer_json, encoding="utf-8") as f:
        tok = json.load(f)
    vocab = tok["model"]["vocab"]
    added = {a["content"]: a["id"] for a in tok.get("added_tokens", [])}
    n_vocab = max(list(vocab.values()) + list(added.values())) + 1
    tokens = [""] * n_vocab
    types = [TokenType.NORMAL] * n_vocab
    for text, i in vocab.items():
        tokens[i] = text
    for text, i in added.items():
        tokens[i] = text
        types[i] = TokenType.CONTROL
    merges = [m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]]
    eos = added.get("<|endoftext|>", n_vocab - 1)

    w = GGUFWriter(out, "llama")
    w.add_name("aiperf-tiny-gpt2-vocab")
    w.add_context_length(N_CTX)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD)
    w.add_rope_dimension_count(N_EMBD // N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(n_vocab)
    w.add_file_type(1)  # mostly F16
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("gpt-2")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(eos)
    w.add_eos_token_id(eos)
    w.add_add_bos_token(False)
    w.add_chat_template(CHAT_TEMPLATE)

    rng = np.random.default_rng(1234)

    def rand(*shape):  # numpy shape is ggml's ne reversed
        return (rng.standard_normal(shape) * 0.02).astype(np.float16)

    w.add_tensor("token_embd.weight", rand(n_vocab, N_EMBD))
    w.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    # No output.weight: llama.cpp then ties the output projection to token_embd (half the file).
    for b in range(N_LAYER):
        p = f"blk.{b}."
        w.add_tensor(p + "attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            w.add_tensor(p + name + ".weight", rand(N_EMBD, N_EMBD))
        w.add_tensor(p + "ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        w.add_tensor(p + "ffn_gate.weight", rand(N_FF, N_EMBD))
        w.add_tensor(p + "ffn_up.weight", rand(N_FF, N_EMBD))
        w.add_tensor(p + "ffn_down.weight", rand(N_EMBD, N_FF))

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
