#!/usr/bin/env python3
"""baseten_trace replay: the reference AIPerf 0.13 and ours reading the same Parquet file (open
loop), the reference's Parquet against ours from the same rows as JSON Lines (closed loop), and
both reading the same Arrow IPC file, each against a fresh aiperf-mock-server recording the
request bodies (--record-requests).

Compares, for each case (open loop with --replay-speedup and --max-idle-gap-cap-seconds; closed
loop with --omit-kv-hints; Arrow IPC with --open-loop-strict):
  body   every body the mock received, matched by prompt: identical JSON but for the
         completions "prompt" (the reference sends one prompt as a bare string, ours as a
         one-element list: a general completions difference, not baseten's)
  order  the prompts in send order
  time   each request's send offset from the first, in profile_export.jsonl: within 15 ms
         (closed loop: the think time is taken after each tool's own answer, so the offsets
         follow the mock's latency, which is the same for both)

  python3 tests/compat/baseten_replay.py --aiperf build/bin/aiperf --mock build/bin/aiperf-mock-server

The reference's interpreter (which has pyarrow) writes the Parquet file. Exit 1 on a difference.
Standard library only.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from mock_process import running_mock, tool_env

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "data" / "datasets" / "baseten_trace.jsonl"
TOKENIZER = REPO / "common" / "tokenizer" / "data" / "gpt2"
CACHE = Path.home() / ".cache" / "aiperf-compat"
REF = CACHE / "bin" / "ref-aiperf"
REF_PYTHON = CACHE / "aiperf-0.13.0" / "bin" / "python"
COLUMNS = ["timestamp_start_unix_ms", "prompt", "input_tokens", "output_tokens", "total_hashes", "block_size",
           "provided_session_id", "duration_e2e_ms"]
ARROW = REPO / "tests" / "data" / "datasets" / "baseten_trace.arrow"
# name: (options, the reference's input, ours): "parquet" is written here, the others are fixtures.
CASES = {
    "open_loop": (["--endpoint-type", "completions", "--replay-speedup", "10", "--max-idle-gap-cap-seconds", "0.5"],
                  "parquet", "parquet"),
    "closed_loop": (["--endpoint-type", "completions", "--replay-speedup", "10", "--no-open-loop-replay",
                     "--omit-kv-hints"], "parquet", FIXTURE),
    "arrow": (["--endpoint-type", "completions", "--replay-speedup", "20", "--open-loop-strict"], ARROW, ARROW),
}
TOLERANCE_MS = 15.0


def write_parquet(dst: Path) -> None:
    code = ("import json,sys,pyarrow as pa,pyarrow.parquet as pq\n"
            "rows=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]\n"
            f"cols={COLUMNS!r}\n"
            "pq.write_table(pa.table({c:[r.get(c) for r in rows] for c in cols}), sys.argv[2])\n")
    subprocess.run([str(REF_PYTHON), "-c", code, str(FIXTURE), str(dst)], check=True)


def run(tool: list[str], mock: Path, input_file: Path, args: list[str], work: Path) -> tuple[list, list]:
    """Runs one tool against its own mock; returns (bodies in arrival order, records)."""
    rec = work / "requests.jsonl"
    with running_mock(mock, ["--record-requests", str(rec)]) as port:
        env = tool_env()
        cmd = tool + ["profile", "-m", "m", "--tokenizer", str(TOKENIZER), "--ui-type", "none", "--url",
                      f"http://127.0.0.1:{port}", "--input-file", str(input_file), "--custom-dataset-type",
                      "baseten_trace", "--artifact-dir", str(work / "artifacts")] + args
        done = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    bodies = [json.loads(l)["body"] for l in rec.read_text().splitlines() if l.strip()]
    records = [json.loads(l) for l in (work / "artifacts" / "profile_export.jsonl").read_text().splitlines()
               if l.strip()]
    return bodies, records


def prompt_of(body: dict) -> str:
    p = body["prompt"]
    return p[0] if isinstance(p, list) and len(p) == 1 else p


def offsets(records: list) -> list[float]:
    starts = sorted(r["metadata"]["request_start_ns"] for r in records)
    return [(s - starts[0]) / 1e6 for s in starts]


def compare(case: str, ref: tuple, ours: tuple) -> list[str]:
    diffs = []
    ref_bodies, ref_records = ref
    our_bodies, our_records = ours
    if [prompt_of(b) for b in ref_bodies] != [prompt_of(b) for b in our_bodies]:
        diffs.append(f"{case}:order: {[prompt_of(b) for b in ref_bodies]} vs {[prompt_of(b) for b in our_bodies]}")
    ours_by = {prompt_of(b): {**b, "prompt": prompt_of(b)} for b in our_bodies}
    for b in ref_bodies:
        mine = ours_by.get(prompt_of(b))
        theirs = {**b, "prompt": prompt_of(b)}
        if mine != theirs:
            diffs.append(f"{case}:body:{prompt_of(b)}: reference {json.dumps(theirs)} ours {json.dumps(mine)}")
    for i, (r, o) in enumerate(zip(offsets(ref_records), offsets(our_records))):
        if abs(r - o) > TOLERANCE_MS:
            diffs.append(f"{case}:time:{i}: reference {r:.1f} ms ours {o:.1f} ms")
    if len(ref_records) != len(our_records):
        diffs.append(f"{case}:count: reference {len(ref_records)} ours {len(our_records)}")
    return diffs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--aiperf", required=True, type=Path)
    ap.add_argument("--mock", required=True, type=Path)
    ap.add_argument("--ref", type=Path, default=REF)
    opts = ap.parse_args()
    diffs = []
    with tempfile.TemporaryDirectory(prefix="baseten_replay_") as tmp:
        tmp = Path(tmp)
        parquet = tmp / "trace.parquet"
        write_parquet(parquet)
        for case, (args, ref_input, our_input) in CASES.items():
            (tmp / case / "ref").mkdir(parents=True)
            (tmp / case / "ours").mkdir(parents=True)
            ref = run([str(opts.ref)], opts.mock, parquet if ref_input == "parquet" else ref_input, args,
                      tmp / case / "ref")
            ours = run([str(opts.aiperf.resolve())], opts.mock, parquet if our_input == "parquet" else our_input, args,
                       tmp / case / "ours")
            found = compare(case, ref, ours)
            print(f"{case}: {len(ref[0])} requests, reference offsets "
                  f"{[round(x, 1) for x in offsets(ref[1])]}, ours {[round(x, 1) for x in offsets(ours[1])]}: "
                  f"{'same' if not found else f'{len(found)} difference(s)'}")
            diffs += found
    for d in diffs:
        print(d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
