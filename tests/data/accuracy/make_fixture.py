"""Builds tests/data/accuracy/hub: a tiny HuggingFace Hub cache holding openai/gsm8k,
lighteval/mmlu, TIGER-Lab/MMLU-Pro, Maxwell-Jia/AIME_2024, HuggingFaceH4/aime_2024,
yentinglin/aime_2025, HuggingFaceH4/MATH-500 and Idavidrein/gpqa in the Hub's own layouts
(README.md card with or without `configs:`; Parquet, JSON Lines or CSV data files), and
reply_rules.jsonl, the mock's scripted answers for the e2e tests and the compat scenarios.

Run with a Python that has pyarrow (the reference's venv):
  ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/data/accuracy/make_fixture.py
"""
import json
import os
import shutil

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
HUB = os.path.join(HERE, "hub")
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def snapshot(repo):
    root = os.path.join(HUB, "datasets--" + repo.replace("/", "--"))
    os.makedirs(os.path.join(root, "refs"), exist_ok=True)
    with open(os.path.join(root, "refs", "main"), "w") as f:
        f.write(COMMIT)
    snap = os.path.join(root, "snapshots", COMMIT)
    os.makedirs(snap, exist_ok=True)
    return snap


def write(snap, rel, rows, schema):
    path = os.path.join(snap, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)


def card(snap, configs):
    lines = ["---", "configs:"]
    for name, splits in configs:
        lines.append(f"- config_name: {name}")
        lines.append("  data_files:")
        for split in splits:
            lines += [f"  - split: {split}", f"    path: {name}/{split}-*"]
    lines += ["---", "", "Test fixture (aiperf C++), not the real dataset.", ""]
    with open(os.path.join(snap, "README.md"), "w") as f:
        f.write("\n".join(lines))


shutil.rmtree(HUB, ignore_errors=True)

# openai/gsm8k: config main (train, test), the answer ending in "#### <number>".
gsm = snapshot("openai/gsm8k")
gsm_schema = pa.schema([("question", pa.string()), ("answer", pa.string())])
gsm_test = [
    {"question": "Tom has 3 apples and buys 2 more. How many apples does he have?", "answer": "3+2=5\n#### 5"},
    {"question": "A box holds 12 eggs. How many eggs are in 3 boxes?", "answer": "12*3=36\n#### 36"},
    {"question": "Sara had 1,000 dollars and spent 250. How much is left?", "answer": "1000-250=750\n#### 750"},
    {"question": "What is 7 minus 10?", "answer": "7-10=-3\n#### -3"},
]
write(gsm, "main/test-00000-of-00001.parquet", gsm_test, gsm_schema)
write(gsm, "main/train-00000-of-00001.parquet", [{"question": "Train only?", "answer": "#### 1"}], gsm_schema)
card(gsm, [("main", ["train", "test"])])

# lighteval/mmlu: one config per subject with test, dev (few-shot source) and validation.
mmlu = snapshot("lighteval/mmlu")
mmlu_schema = pa.schema([("question", pa.string()), ("subject", pa.string()),
                         ("choices", pa.list_(pa.string())), ("answer", pa.int64())])


def rows(subject, prefix, answers):
    return [{"question": f"{prefix}{i} question about {subject.replace('_', ' ')}?", "subject": subject,
             "choices": [f"{prefix}{i} choice {c}" for c in "ABCD"], "answer": a} for i, a in enumerate(answers)]


subjects = {"abstract_algebra": ([1, 0, 3], [0, 1, 1, 2, 3, 0]), "anatomy": ([0, 2, 2], [3, 3, 2, 1, 0, 1])}
for subject, (test_answers, dev_answers) in subjects.items():
    tag = "AA" if subject == "abstract_algebra" else "AN"
    write(mmlu, f"{subject}/test-00000-of-00001.parquet", rows(subject, f"Q{tag}", test_answers), mmlu_schema)
    write(mmlu, f"{subject}/dev-00000-of-00001.parquet", rows(subject, f"D{tag}", dev_answers), mmlu_schema)
    write(mmlu, f"{subject}/validation-00000-of-00001.parquet", rows(subject, f"V{tag}", [0]), mmlu_schema)
card(mmlu, [(s, ["test", "dev", "validation"]) for s in subjects])

# TIGER-Lab/MMLU-Pro: the default config (test, validation), 10 options with "N/A" padding,
# letter answers, CoT examples in the validation split; two categories, one with a space.
pro = snapshot("TIGER-Lab/MMLU-Pro")
pro_schema = pa.schema([("question_id", pa.int64()), ("question", pa.string()), ("options", pa.list_(pa.string())),
                        ("answer", pa.string()), ("answer_index", pa.int64()), ("cot_content", pa.string()),
                        ("category", pa.string()), ("src", pa.string())])


def pro_rows(prefix, category, answers, cot):
    out = []
    for i, a in enumerate(answers):
        opts = [f"{prefix}{i} option {c}" for c in "ABCDEFG"] + ["N/A", "N/A", "N/A"]
        out.append({"question_id": i, "question": f"{prefix}{i} question in {category}?", "options": opts,
                    "answer": "ABCDEFG"[a], "answer_index": a,
                    "cot_content": f"A: Let's think step by step. It is {'ABCDEFG'[a]}. The answer is ({'ABCDEFG'[a]})."
                    if cot else "", "category": category, "src": "fixture"})
    return out


write(pro, "data/test-00000-of-00001.parquet",
      pro_rows("PMA", "math", [2, 6], False) + pro_rows("PCS", "computer science", [0, 3], False), pro_schema)
write(pro, "data/validation-00000-of-00001.parquet",
      pro_rows("VMA", "math", [1, 4, 0], True) + pro_rows("VCS", "computer science", [5], True), pro_schema)
with open(os.path.join(pro, "README.md"), "w") as f:
    f.write("---\nconfigs:\n- config_name: default\n  data_files:\n  - split: test\n    path: data/test-*\n"
            "  - split: validation\n    path: data/validation-*\n---\n\nTest fixture (aiperf C++).\n")

# Maxwell-Jia/AIME_2024: one Parquet file at the root, no split in its name (`datasets` makes it
# "train"); Answer is an int64.
aime = snapshot("Maxwell-Jia/AIME_2024")
aime_schema = pa.schema([("ID", pa.string()), ("Problem", pa.string()), ("Solution", pa.string()),
                         ("Answer", pa.int64())])
write(aime, "aime_2024_problems.parquet", [
    {"ID": "2024-I-1", "Problem": "AIMEFX1 Find the value of $x$ when $x+4=208$.", "Solution": "Subtract 4: $204$.",
     "Answer": 204},
    {"ID": "2024-I-2", "Problem": "AIMEFX2 How many squares fit in a $5\\times 5$ grid of unit squares?",
     "Solution": "There are $5^2=25$.", "Answer": 25},
    {"ID": "2024-I-3", "Problem": "AIMEFX3 Compute $\\frac{14}{2}$.", "Solution": "It is $7$.", "Answer": 7},
], aime_schema)
with open(os.path.join(aime, "README.md"), "w") as f:
    f.write("---\nlicense: mit\n---\n\nTest fixture (aiperf C++), not the real dataset.\n")

# HuggingFaceH4/aime_2024: data/train-*.parquet under a default config; answer is a string.
h4 = snapshot("HuggingFaceH4/aime_2024")
h4_schema = pa.schema([("id", pa.int64()), ("problem", pa.string()), ("solution", pa.string()),
                       ("answer", pa.string()), ("url", pa.string()), ("year", pa.string())])
write(h4, "data/train-00000-of-00001.parquet", [
    {"id": 60, "problem": "AIME24FX1 What is $6\\cdot 7$?", "solution": "$42$", "answer": "42", "url": "u", "year": "2024"},
    {"id": 61, "problem": "AIME24FX2 What is half of $9$?", "solution": "$4.5$", "answer": "4.5", "url": "u", "year": "2024"},
], h4_schema)
with open(os.path.join(h4, "README.md"), "w") as f:
    f.write("---\nconfigs:\n- config_name: default\n  data_files:\n  - split: train\n    path: data/train-*\n---\n\n"
            "Test fixture (aiperf C++).\n")

# yentinglin/aime_2025: one JSON Lines file at the root; answer an integer.
y25 = snapshot("yentinglin/aime_2025")
with open(os.path.join(y25, "aime2025.jsonl"), "w") as f:
    for row in [{"id": "I-1", "problem": "AIME25FX1 Find $70$.", "answer": 70},
                {"id": "I-2", "problem": "AIME25FX2 Find $588$.", "answer": 588}]:
        f.write(json.dumps(row) + "\n")
with open(os.path.join(y25, "README.md"), "w") as f:
    f.write("---\nlicense: mit\n---\n\nTest fixture (aiperf C++).\n")

# HuggingFaceH4/MATH-500: test.jsonl at the root; the gold is the whole solution; one row
# without a subject (the task falls back to math_500).
m500 = snapshot("HuggingFaceH4/MATH-500")
with open(os.path.join(m500, "test.jsonl"), "w") as f:
    for row in [
        {"problem": "MATHFX1 Simplify $\\frac{2}{4}$.", "solution": "Divide: $\\boxed{\\frac{1}{2}}$.",
         "answer": "\\frac{1}{2}", "subject": "Algebra", "level": 1, "unique_id": "test/algebra/1.json"},
        {"problem": "MATHFX2 What is $3+4$?", "solution": "7", "answer": "7", "subject": "Prealgebra", "level": 1,
         "unique_id": "test/prealgebra/2.json"},
        {"problem": "MATHFX3 What is $2^3$?", "solution": "\\boxed{8}", "answer": "8", "subject": "", "level": 2,
         "unique_id": "test/x/3.json"},
    ]:
        f.write(json.dumps(row) + "\n")

# Idavidrein/gpqa: CSV files per config named by the card (data_files a single path: "train");
# quoted fields with commas, quotes and a newline, a numeric column, an empty cell.
gpqa = snapshot("Idavidrein/gpqa")
header = ["Pre-Revision Question", "Question", "Correct Answer", "Incorrect Answer 1", "Incorrect Answer 2",
          "Incorrect Answer 3", "Explanation", "Subdomain", "High-level domain", "Self-reported time"]
diamond = [
    ["old", "GPQAFX1 Which particle carries the electromagnetic force?", "Photon", "Gluon", "W boson",
     "Graviton", "", "Particle physics", "Physics", "12"],
    ["old", "GPQAFX2 Which molecule, at room temperature, is a \"noble\" gas?", "Argon", "Nitrogen, N2",
     "Oxygen\nO2", "Chlorine", "Group 18.", "Chemistry (general)", "Chemistry", "7.5"],
    ["old", "GPQAFX3 Which organelle makes ATP?", "Mitochondrion", "Ribosome", "Golgi apparatus", "Lysosome",
     "Respiration.", "Molecular Biology", "Biology", "3"],
]
import csv
for name, rows_ in [("gpqa_diamond", diamond), ("gpqa_main", diamond[:1])]:
    with open(os.path.join(gpqa, name + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows_)
with open(os.path.join(gpqa, "README.md"), "w") as f:
    f.write("---\nlicense: cc-by-4.0\nconfigs:\n- config_name: gpqa_main\n  data_files: gpqa_main.csv\n"
            "- config_name: gpqa_diamond\n  data_files: gpqa_diamond.csv\n---\n\nTest fixture (aiperf C++).\n")

# The mock's answers (services/mock_server/reply_rules.h): matched in the request body.
rules = [
    # gsm8k: right with "####", right by the last-number fallback, wrong, no number.
    {"match": "buys 2 more", "reply": "He has 3+2 = 5 apples.\n#### 5"},
    {"match": "in 3 boxes", "reply": "There are 36 eggs."},
    {"match": "spent 250", "reply": "#### 700"},
    {"match": "7 minus 10", "reply": "I do not know."},
    # mmlu (gold: QAA0 B, QAA1 A, QAA2 D, QAN0 A, QAN1 C, QAN2 C).
    {"match": "QAA0 question", "reply": " B"},
    {"match": "QAA1 question", "reply": "The answer is (C)"},
    {"match": "QAA2 question", "reply": "D"},
    {"match": "QAN0 question", "reply": "A\nbecause"},
    {"match": "QAN1 question", "reply": "no idea"},
    {"match": "QAN2 question", "reply": "Let me see. Answer: C"},
    # mmlu_pro (gold: PMA0 C, PMA1 G, PCS0 A, PCS1 D).
    {"match": "PMA0 question", "reply": "Step one... The answer is (C)."},
    {"match": "PMA1 question", "reply": "The answer is (B)"},
    {"match": "PCS0 question", "reply": "A"},
    {"match": "PCS1 question", "reply": "I pick D"},
    # aime (default grader math; gold 204, 25, 7): the test problem is the one followed by the
    # empty "**Answer**: " (every prompt shows all three as examples), as JSON escapes it.
    {"match": "x+4=208$.\\n**Answer**: \\n", "reply": "So $x = \\boxed{204}$."},
    {"match": "unit squares?\\n**Answer**: \\n", "reply": "The final answer is 25."},
    {"match": "frac{14}{2}$.\\n**Answer**: \\n", "reply": "\\boxed{\\frac{14}{3}}"},
    # aime24 / aime25 / math_500 (graded with --accuracy-grader math).
    {"match": "AIME24FX1", "reply": "\\boxed{42}"},
    {"match": "AIME24FX2", "reply": "\\boxed{\\frac{9}{2}}"},
    {"match": "AIME25FX1", "reply": "I think 71"},
    {"match": "AIME25FX2", "reply": "\\boxed{588}"},
    {"match": "MATHFX1", "reply": "\\boxed{\\frac{1}{2}}"},
    {"match": "MATHFX2", "reply": "It is 7"},
    {"match": "MATHFX3", "reply": "\\boxed{8}"},
    # gpqa_diamond (graded with --accuracy-grader multiple_choice; the letters follow the shuffle).
    {"match": "GPQAFX1", "reply": "Reasoning...\nAnswer: B"},
    {"match": "GPQAFX2", "reply": "Answer: A"},
    {"match": "GPQAFX3", "reply": "D"},
]
with open(os.path.join(HERE, "reply_rules.jsonl"), "w") as f:
    for r in rules:
        f.write(json.dumps(r) + "\n")
