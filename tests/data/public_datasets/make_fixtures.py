"""Writes the --public-dataset fixtures: a few rows of each dataset in its real format, laid out as a
huggingface_hub cache (hub/datasets--<org>--<name>/{refs/main,snapshots/<rev>/...}), plus Spec-Bench's
question.jsonl. Run with the reference venv's Python (pyarrow):
  ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/data/public_datasets/make_fixtures.py
Small on purpose; the text is made up, the column names and types are the real datasets'."""
import json
import pathlib

import pyarrow as pa
import pyarrow.parquet as pq

HERE = pathlib.Path(__file__).resolve().parent
REV = "0123456789abcdef0123456789abcdef01234567"


def repo(name, files, readme=None):
    base = HERE / "hub" / ("datasets--" + name.replace("/", "--"))
    (base / "refs").mkdir(parents=True, exist_ok=True)
    (base / "refs" / "main").write_text(REV)
    snap = base / "snapshots" / REV
    for rel, table in files.items():
        (snap / rel).parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, snap / rel)
    if readme:
        (snap / "README.md").write_text("---\n" + readme + "---\n\nTest fixture (aiperf C++), not the real dataset.\n")


msg = pa.list_(pa.struct([("content", pa.string()), ("role", pa.string())]))

# aimo: AI-MO/NuminaMath-TIR (problem, solution, messages); one blank problem is skipped.
repo("AI-MO/NuminaMath-TIR", {
    "data/train-00000-of-00001.parquet": pa.table({
        "problem": ["What is $2+3$?", "   ", "Find $x$ if $x^2 = 49$ and $x > 0$.\n", "Compute $\\frac{6}{4}$."],
        "solution": ["5", "", "7", "3/2"],
        "messages": pa.array([[{"content": "What is $2+3$?", "role": "user"}], [], [], []], msg),
    }),
    "data/test-00000-of-00001.parquet": pa.table({
        "problem": ["A test-split problem, never sent."], "solution": ["0"],
        "messages": pa.array([[]], msg),
    }),
})

# spec_al_mtbench: HuggingFaceH4/mt_bench_prompts (prompt: list of user turns).
repo("HuggingFaceH4/mt_bench_prompts", {
    "data/train-00000-of-00001.parquet": pa.table({
        "prompt": pa.array([["Write a haiku about the sea.", "  Now make it rhyme.  "], [], ["", "Only the second."]],
                           pa.list_(pa.string())),
        "prompt_id": pa.array([81, 82, 83], pa.int64()),
        "category": ["writing", "roleplay", "reasoning"],
        "reference": pa.array([[], [], ["ref"]], pa.list_(pa.string())),
    }),
})

# blazedit_5k: vdaita/edit_5k_char (code, change_request): the prompt is AIPerf's template.
repo("vdaita/edit_5k_char", {
    "data/train-00000-of-00001.parquet": pa.table({
        "code": ["def f(x):\n    return {'x': x}\n", "print('hi')\n"],
        "change_request": ["Rename f to g.", "Print hello instead."],
        "char_count": pa.array([30, 12], pa.int64()),
    }),
})

# spec_al_mbpp: google-research-datasets/mbpp, configs full (text) and sanitized (prompt).
repo("google-research-datasets/mbpp", {
    "full/test-00000-of-00001.parquet": pa.table({
        "task_id": pa.array([11, 12], pa.int32()), "text": ["Write a function to add two numbers.",
                                                            "Write a function to reverse a list."],
        "code": ["def add(a, b):\n    return a + b", "def rev(x):\n    return x[::-1]"],
    }),
    "full/train-00000-of-00001.parquet": pa.table({
        "task_id": pa.array([1], pa.int32()), "text": ["A train-split task, never sent."], "code": ["pass"],
    }),
    "sanitized/test-00000-of-00001.parquet": pa.table({
        "task_id": pa.array([11], pa.int32()), "prompt": ["Sanitized: add two numbers."], "code": ["pass"],
    }),
}, readme="configs:\n- config_name: full\n  data_files:\n  - split: train\n    path: full/train-*\n"
          "  - split: test\n    path: full/test-*\n  default: true\n- config_name: sanitized\n  data_files:\n"
          "  - split: test\n    path: sanitized/test-*\n")

# spec_bench: Spec-Bench's question.jsonl (question_id, category, turns).
(HERE / "spec_bench").mkdir(exist_ok=True)
with open(HERE / "spec_bench" / "question.jsonl", "w") as f:
    for row in [
        {"question_id": 81, "category": "writing", "turns": ["Compose a travel blog post.", "Rewrite it."]},
        {"question_id": 82, "category": "translation", "turns": []},
        {"question_id": 83, "category": "qa", "turns": ["  Who wrote Hamlet?  "]},
    ]:
        f.write(json.dumps(row) + "\n")

# semianalysis_cc_traces_weka_062126: one Weka trace per JSON Lines row (the weka_trace fixtures,
# one with a subagent), as the SemiAnalysis corpora are published.
weka = HERE.parent / "datasets"
rows = [json.loads((weka / "weka_trace" / n).read_text()) for n in ("a.json", "b.json")]
rows.append(json.loads((weka / "weka_agentic" / "p.json").read_text()))
# `datasets` gives every row the union of the rows' columns (None where a row had none): the real
# corpora have the same top-level keys in every row, and so do these.
for r in rows:
    r.setdefault("tool_tokens", 0)
    r.setdefault("system_tokens", 0)
    r.setdefault("totals", {"requests": len(r["requests"])})
base = HERE / "hub" / "datasets--semianalysisai--cc-traces-weka-062126"
(base / "refs").mkdir(parents=True, exist_ok=True)
(base / "refs" / "main").write_text(REV)
(base / "snapshots" / REV / "data").mkdir(parents=True, exist_ok=True)
with open(base / "snapshots" / REV / "data" / "train-00000-of-00001.jsonl", "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
