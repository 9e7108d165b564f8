#!/usr/bin/env python3
"""Builds the WordPiece and Unigram tokenizer.json test files from our own SentencePiece model
tests/data/tokenizer/spm/spm-unigram-8k.model (trained for this project, see its TRAINING.txt).

  python3 make_models.py <spm-unigram-8k.model> <out dir>

unigram-8k/tokenizer.json: the model as transformers would convert a T5-style SentencePiece
  unigram model: Precompiled(nmt_nfkc charsmap) + Replace(" {2,}" -> " ") normalizer,
  WhitespaceSplit + Metaspace pre-tokenizer, Metaspace decoder, Unigram(unk_id 0).
wordpiece-8k/tokenizer.json: a BERT-cased-style WordPiece vocab derived from the same pieces
  ("\u2581word" -> "word", "piece" -> "##piece", every single character in both forms) with
  BertNormalizer(lowercase false), BertPreTokenizer and the WordPiece decoder.
Scores are written with 7 significant digits (their float32 precision) so that every JSON
parser reads the same doubles.
"""
import base64, json, os, struct, sys


def fields(buf):
    """Yields (field number, wire type, value) of one protobuf message."""
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            val, i = varint(buf, i)
        elif wt == 1:
            val, i = buf[i:i + 8], i + 8
        elif wt == 2:
            n, i = varint(buf, i)
            val, i = buf[i:i + n], i + n
        elif wt == 5:
            val, i = buf[i:i + 4], i + 4
        else:
            raise ValueError(f"wire type {wt}")
        yield num, wt, val


def varint(buf, i):
    shift = val = 0
    while True:
        b = buf[i]
        i += 1
        val |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return val, i


def read_model(path):
    pieces, charsmap = [], b""
    for num, _, val in fields(open(path, "rb").read()):
        if num == 1:
            piece, score, kind = "", 0.0, 1
            for n, _, v in fields(val):
                if n == 1:
                    piece = v.decode("utf-8")
                elif n == 2:
                    score = struct.unpack("<f", v)[0]
                elif n == 3:
                    kind = v
            pieces.append((piece, float(f"{score:.7g}"), kind))
        elif num == 3:
            for n, _, v in fields(val):
                if n == 2:
                    charsmap = v
    return pieces, charsmap


def added(id_, content, special):
    return {"id": id_, "content": content, "single_word": False, "lstrip": False, "rstrip": False,
            "normalized": False, "special": special}


def write(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")


def main(model_path, out):
    pieces, charsmap = read_model(model_path)
    control = {2: False, 3: True, 4: False}  # UNKNOWN, CONTROL, USER_DEFINED -> special?
    meta = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True}
    write(f"{out}/unigram-8k/tokenizer.json", {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [added(i, p, k != 4) for i, (p, _, k) in enumerate(pieces) if k in control],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(charsmap).decode()},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, meta]},
        "post_processor": None,
        "decoder": meta,
        "model": {"type": "Unigram", "unk_id": 0, "vocab": [[p, s] for p, s, _ in pieces], "byte_fallback": False},
    })

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab = {t: i for i, t in enumerate(specials)}
    def add(t):
        if t and t not in vocab:
            vocab[t] = len(vocab)
    for p, _, k in pieces:
        if k != 1:
            continue
        if p.startswith("\u2581"):
            add(p[1:])
        else:
            add("##" + p)
        if len(p) == 1 and p != "\u2581":
            add(p)
            add("##" + p)
    write(f"{out}/wordpiece-8k/tokenizer.json", {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [added(i, t, True) for i, t in enumerate(specials)],
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": False},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": None,
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": vocab},
    })


if __name__ == "__main__":
    main(*sys.argv[1:])
