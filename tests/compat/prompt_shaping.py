#!/usr/bin/env python3
"""Prompt shaping (issue 16): the reference AIPerf 0.13 and ours on the same command lines, each
against a fresh aiperf-mock-server recording the request bodies (--record-requests).

  random_vllm / random_sglang  --prompt-corpus random --random-range-ratio 0.5 --random-seed 7,
        each style: inputs.json prompts byte for byte and max tokens, and the ISL multiset of
        profile_export.jsonl (NumPy's streams are re-implemented bit for bit).
  random_multi_turn / random_plain  the same with second turns (offsets past the preseed), and
        --prompt-corpus random without a range ratio (AIPerf's derived corpus stream).
  range_ratio_sonnet           --random-range-ratio with the sonnet corpus: max tokens and ISLs
        (the text is ours).
  cache_bust_first_turn        --cache-bust first-turn-prefix, 2 sessions of 2 turns: every body's
        first user message starts with "[rid:<12 hex>]\\n\\n", one marker per session, the second
        turn resends the marked first message, inputs.json has none. (Digests differ by design.)
  warmup_isolation_system      --cache-bust warmup-isolation-system --system-prompt: the same
        system messages in the same order ("[warmup]\\n\\n" on the warmup requests only).
  system_suffix                --cache-bust system-suffix --system-prompt: the system message is
        the text, a blank line and "[rid:<12 hex>]" in both.

  python3 tests/compat/prompt_shaping.py --aiperf build/bin/aiperf --mock build/bin/aiperf-mock-server

Exit 1 on a difference. Standard library only.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from mock_process import running_mock, tool_env

REPO = Path(__file__).resolve().parents[2]
TOKENIZER = REPO / "common" / "tokenizer" / "data" / "gpt2"
REF = Path.home() / ".cache" / "aiperf-compat" / "bin" / "ref-aiperf"
COMMON = ["--model", "m", "--endpoint-type", "chat", "--tokenizer", str(TOKENIZER), "--ui-type", "none"]
RANDOM = ["--prompt-corpus", "random", "--random-range-ratio", "0.5", "--isl", "64", "--osl", "10",
          "--random-seed", "7", "--num-dataset-entries", "30", "--request-count", "30"]
CASES = {
    "random_vllm": RANDOM,
    "random_sglang": RANDOM + ["--random-corpus-style", "sglang"],
    # Offsets past the preseed (second turns) and plain --prompt-corpus random: the derived
    # "dataset.prompt.corpus" stream.
    "random_multi_turn": RANDOM[:-4] + ["--num-dataset-entries", "8", "--conversation-turn-mean", "2",
                                        "--conversation-num", "8", "--concurrency", "1"],
    "random_plain": ["--prompt-corpus", "random", "--isl", "48", "--osl", "10", "--random-seed", "7",
                     "--num-dataset-entries", "20", "--request-count", "20"],
    # A text corpus: ISL and OSL (not the text) from the derived "models.range_ratio.distribution".
    "range_ratio_sonnet": ["--random-range-ratio", "0.4", "--isl", "64", "--osl", "12", "--random-seed", "11",
                           "--num-dataset-entries", "20", "--request-count", "20"],
    "cache_bust_first_turn": ["--cache-bust", "first-turn-prefix", "--isl", "40", "--conversation-turn-mean", "2",
                              "--num-dataset-entries", "2", "--conversation-num", "2", "--concurrency", "1",
                              "--random-seed", "3"],
    "warmup_isolation_system": ["--cache-bust", "warmup-isolation-system", "--system-prompt", "Sys.", "--isl", "6",
                                "--warmup-request-count", "2", "--request-count", "3", "--concurrency", "1"],
    "system_suffix": ["--cache-bust", "system-suffix", "--system-prompt", "Sys.", "--isl", "6",
                      "--request-count", "3", "--num-dataset-entries", "3", "--concurrency", "1"],
}
RID_PREFIX = re.compile(r"^\[rid:[0-9a-f]{12}\]\n\n")
RID_SUFFIX = re.compile(r"\n\n\[rid:[0-9a-f]{12}\]$")


def run(tool: list[str], mock: Path, args: list[str], work: Path) -> dict:
    """Runs one tool against its own mock: bodies in arrival order, inputs.json, records."""
    work.mkdir(parents=True, exist_ok=True)
    rec = work / "requests.jsonl"
    with running_mock(mock, ["--fast", "--record-requests", str(rec)]) as port:
        env = tool_env()
        out = work / "artifacts"
        p = subprocess.run(tool + ["profile", *COMMON, "--url", f"http://127.0.0.1:{port}", "--artifact-dir",
                                   str(out), *args], env=env, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise RuntimeError(f"{tool[0]} exited {p.returncode}: {p.stderr[-2000:]}{p.stdout[-3000:]}")
    bodies = [json.loads(line)["body"] for line in rec.read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in (out / "profile_export.jsonl").read_text().splitlines() if line.strip()]
    return {"bodies": bodies, "inputs": json.loads((out / "inputs.json").read_text()), "records": records}


def first_user(messages: list) -> str:
    return next(m["content"] for m in messages if m["role"] == "user")


def check(case: str, ref: dict, ours: dict) -> list[str]:
    problems = []
    if case.startswith("random_") or case == "range_ratio_sonnet":
        def planned(r):
            return [(p["messages"][0]["content"] if case != "range_ratio_sonnet" else "",
                     p.get("max_completion_tokens")) for e in r["inputs"]["data"] for p in e["payloads"]]
        rp, op = planned(ref), planned(ours)
        same = sum(a == b for a, b in zip(rp, op))
        print(f"  {case}: {same} of {len(rp)} turns' {'max tokens' if case == 'range_ratio_sonnet' else 'prompts and max tokens'} identical")
        if same != len(rp) or len(rp) != len(op):
            problems.append(f"{case}: only {same} of {len(rp)} (prompt, max tokens) identical")
        isl = [sorted(r["metrics"]["input_sequence_length"]["value"] for r in t["records"]) for t in (ref, ours)]
        if isl[0] != isl[1]:
            problems.append(f"{case}: ISLs differ: {isl[0]} vs {isl[1]}")
    elif case == "cache_bust_first_turn":
        for name, r in (("ref", ref), ("ours", ours)):
            firsts = [first_user(b["messages"]) for b in r["bodies"]]
            marks = [RID_PREFIX.match(f).group(0) if RID_PREFIX.match(f) else None for f in firsts]
            ok = (len(marks) == 4 and None not in marks and marks[0] == marks[1] and marks[2] == marks[3]
                  and marks[0] != marks[2] and not RID_PREFIX.match(first_user(r["inputs"]["data"][0]["payloads"][0]["messages"])))
            print(f"  {case} {name}: markers {[m and m.strip() for m in marks]}")
            if not ok:
                problems.append(f"{case}: {name}'s markers are not one per session on the first user message")
    else:
        shown = []
        for r in (ref, ours):
            systems = [b["messages"][0]["content"] for b in r["bodies"]]
            if case == "system_suffix":
                systems = [RID_SUFFIX.sub("\n\n[rid]", s) for s in systems]
            shown.append(systems)
        print(f"  {case}: ref {shown[0]!r}\n  {' ' * len(case)}  ours {shown[1]!r}")
        if shown[0] != shown[1]:
            problems.append(f"{case}: system messages differ")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--aiperf", required=True, type=Path)
    ap.add_argument("--mock", required=True, type=Path)
    ap.add_argument("--ref", type=Path, default=REF)
    ap.add_argument("--case", action="append", choices=sorted(CASES))
    opts = ap.parse_args()
    problems = []
    with tempfile.TemporaryDirectory(prefix="aiperf-prompt-shaping-") as t:
        tmp = Path(t)
        for case in opts.case or CASES:
            args = CASES[case]
            ref = run([str(opts.ref)], opts.mock, args, tmp / case / "ref")
            ours = run([str(opts.aiperf.resolve())], opts.mock, args, tmp / case / "ours")
            problems += check(case, ref, ours)
    for p in problems:
        print("DIFFERENCE:", p)
    print("prompt shaping: " + ("same as the reference" if not problems else f"{len(problems)} difference(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
