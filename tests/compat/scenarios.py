#!/usr/bin/env python3
"""Files, keys and numbers: the reference AIPerf and ours, same scenarios, same mock server.

For each scenario this starts our mock server (fixed TTFT/ITL, exact output lengths), runs the
reference and ours with identical arguments, each in its own empty working directory and without
--artifact-dir (so each picks its default artifacts/<name>/ directory and the naming is compared
too), then compares:

  dir     artifact-directory names
  file    the relative file set (logs included)
  log     the log line format
  key     key trees (keys, nesting, JSON types) of every .json file both wrote (summary JSON,
          inputs.json, ...), lists merged over their elements
  csv     CSV sections (blank-row separated): header rows and row labels
  jsonl   record key trees of every .jsonl both wrote (union over records)
  value   metric values both report in the summary JSON: counts, ISL and OSL exactly (every
          statistic); latencies within 1 % or 0.2 ms and throughputs within 2 % (avg, p50, sum);
          the sweep-line metrics (effective_*, active_*, tokens_in_flight) within 2 % (avg);
          a scenario whose only unlisted differences are values runs up to twice more, and only
          those seen every time count
  value-tail  the other statistics of timings (min, max, p1..p99 but p50, std): reported only
  value-sweep a sweep-line average in a scenario that gives no truth for it: reported only
  value-noise a timing mean off by more than the tolerance but by less than three standard errors
          of the difference (from each tool's own std and count): reported only
  unit    metric units both report
  served  every request the run asked for succeeded and is counted (both tools)
  energy  (scenario gpu_telemetry) each tool's GPU energy-efficiency metrics (nvidia_*) follow
          AIPerf 0.13's formulas on its own totals (tokens per joule = total_osl / energy, ...);
          their values are compared within 25 % (energy measures each tool's own window on the
          mock's simulated GPU)
  timeslice  (scenarios with --slice-duration) each tool's timeslice files follow AIPerf 0.13's
          slicing rule on its own records (grid from the first start, slice of each start, empty
          slices dropped, last slice cut at the run's end) and both files list the same windows;
          the timeslice CSV's rows are compared by Metric/Stat
  server-metrics  (scenarios writing server_metrics_export.jsonl) each tool's histogram quantile
          estimates are AIPerf 0.13's own estimator (run under --ref-python) on that tool's scrapes
  run     exit status

Every difference has an id `SCENARIO:KIND:FILE:DETAIL`. Differences matching a pattern listed in
tests/compat/known_differences.md are accepted; the rest fail the run (exit 1). Patterns that
matched nothing are reported as stale.

  python3 tests/compat/scenarios.py --aiperf build/bin/aiperf --mock build/bin/aiperf-mock-server \
      [--ref ~/.cache/aiperf-compat/bin/ref-aiperf] [--scenario NAME ...] [--keep DIR] [-v]

Standard library only.
"""

import argparse
import csv
import fnmatch
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DATA = HERE / "data"
TOKENIZER = REPO / "common" / "tokenizer" / "data" / "gpt2"
TIKTOKEN = REPO / "common" / "tokenizer" / "data" / "tiktoken"
KNOWN = HERE / "known_differences.md"
DEFAULT_REF = Path.home() / ".cache" / "aiperf-compat" / "bin" / "ref-aiperf"
DEFAULT_REF_PYTHON = Path.home() / ".cache" / "aiperf-compat" / "aiperf-0.13.0" / "bin" / "python"

# The deterministic server: every answer's first token after TTFT_MS, the next ones ITL_MS apart.
# Long enough that a client's fixed cost per request (a fraction of a millisecond, more on a loaded
# machine) stays well inside the tolerances: 0.2 ms is 1 % of ITL_MS.
TTFT_MS = 200
ITL_MS = 20
EMBED_MS = 200
ISL = 50
OSL = 10
RUN_TIMEOUT_S = 240

# Arguments both tools get in every scenario. ignore_eos makes the mock answer exactly max_tokens
# tokens (under the shared tokenizer), so both tools see OSL tokens per request.
COMMON = [
    "--model", "m",
    "--tokenizer", str(TOKENIZER),
    "--random-seed", "42",
    "--ui", "none",
]
SYNTHETIC = [
    "--synthetic-input-tokens-mean", str(ISL), "--synthetic-input-tokens-stddev", "0",
    "--output-tokens-mean", str(OSL), "--output-tokens-stddev", "0",
]
EXACT_OSL = ["--extra-inputs", "ignore_eos:true"]

LAT_MS = TTFT_MS + (OSL - 1) * ITL_MS  # one request's latency at the server


def streaming_truth(isl=ISL, prefill=True):
    t = {"time_to_first_token": TTFT_MS, "time_to_first_output_token": TTFT_MS,
         "time_to_second_token": ITL_MS, "inter_token_latency": ITL_MS, "inter_chunk_latency": ITL_MS,
         "request_latency": LAT_MS, "output_token_throughput_per_user": 1000.0 / ITL_MS}
    if prefill:
        t["prefill_throughput_per_user"] = isl / (TTFT_MS / 1000.0)
    return t


def concurrency_truth(concurrency, requests, latency_ms, isl=ISL, osl=OSL):
    """Throughputs of back-to-back rounds of `concurrency` requests of `latency_ms` each."""
    rounds = requests / concurrency
    duration = rounds * latency_ms / 1000.0
    t = {"benchmark_duration": duration, "request_throughput": requests / duration,
         "effective_concurrency": {"avg": concurrency}}
    if osl:
        t["output_token_throughput"] = requests * osl / duration
        t["total_token_throughput"] = requests * (isl + osl) / duration
    return t


def sweep_truth(concurrency, isl=ISL, osl=OSL):
    """AIPerf 0.13's sweep-line averages for back-to-back rounds of `concurrency` streaming requests in
    lock step, each a TTFT_MS prefill of isl tokens then osl - 1 chunks ITL_MS apart (time-weighted over
    the run, whose every instant has a request in flight). Only the averages the server fixes: integrals
    over the run (tokens, request-seconds) and per-user rates while a phase runs. Not the ones that
    divide by, or weigh, the time some request is in a phase (active_prefill/decode_throughput,
    effective_*_per_user): that time grows by however far a tool's requests drift apart within a round
    (a few ms on a loaded host)."""
    c, lat, pre, dec = concurrency, LAT_MS / 1000.0, TTFT_MS / 1000.0, (LAT_MS - TTFT_MS) / 1000.0
    if isl is None:  # prompts of different lengths: only what does not depend on them
        t = {"effective_concurrency": c,
             "effective_prefill_concurrency": c * pre / lat, "effective_decode_concurrency": c * dec / lat,
             "effective_decode_throughput": c * (osl - 1) / lat, "active_decode_throughput_per_user": (osl - 1) / dec}
        return {tag: {"avg": v} for tag, v in t.items()}
    t = {"effective_concurrency": c,
         "effective_prefill_concurrency": c * pre / lat, "effective_decode_concurrency": c * dec / lat,
         "effective_prefill_throughput": c * isl / lat, "effective_decode_throughput": c * (osl - 1) / lat,
         "effective_total_throughput": c * (isl + osl - 1) / lat,
         "active_prefill_throughput_per_user": isl / pre, "active_decode_throughput_per_user": (osl - 1) / dec,
         "active_total_throughput": c * (isl + osl - 1) / lat,
         # The input from the start, then one token at the first and one per chunk after it: on
         # average over the decode isl + osl / 2.
         "tokens_in_flight": c * (isl + osl / 2 * dec / lat)}
    # Only the sweep averages are held to the tolerance (SWEEP_TAGS); effective_latency's truth is the
    # request latency's (compare_values).
    return {tag: {"avg": v} for tag, v in t.items()}


# "truth": what a client measures against the deterministic server, per metric in its display unit
# (the network adds a fraction of a millisecond). A value difference where one tool agrees with the
# truth and the other does not gets the suffix :ref-off or :ours-off in its id; :ref-further when
# neither does but ours is the closer and within LOADED_SCALE tolerances (compare_values).
SCENARIOS = {
    "chat_stream": {
        "about": "streaming chat, concurrency 2",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "20",
                 *SYNTHETIC, *EXACT_OSL],
        "requests": 20,
        "truth": {**streaming_truth(), **concurrency_truth(2, 20, LAT_MS), **sweep_truth(2)},
    },
    "chat_stream_goodput": {
        "about": "streaming chat with --goodput SLOs every request meets (good_request_count, goodput, "
                 "good_request_fraction)",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "10",
                 *SYNTHETIC, *EXACT_OSL, "--goodput", "time_to_first_token:5000 request_latency:10000"],
        "requests": 10,
        # Every request meets the SLOs: goodput is the request throughput.
        "truth": {**streaming_truth(), **concurrency_truth(2, 10, LAT_MS), **sweep_truth(2),
                  "goodput": concurrency_truth(2, 10, LAT_MS)["request_throughput"]},
    },
    "timeslices": {
        "about": "streaming chat, concurrency 2, --slice-duration 1 (timeslice CSV/JSON layout and "
                 "AIPerf 0.13's slicing rule, checked on each tool's own records; ten rounds of ~0.38 s, "
                 "so the last slice is cut short: is_complete)",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "20",
                 *SYNTHETIC, *EXACT_OSL, "--slice-duration", "1"],
        "requests": 20,
        "slice_duration": 1.0,
        "truth": {**streaming_truth(), **concurrency_truth(2, 20, LAT_MS), **sweep_truth(2)},
    },
    "server_metrics": {
        "about": "streaming chat, concurrency 2, --server-metrics-formats json csv jsonl (the per-scrape "
                 "file; each tool's histogram quantile estimates checked against AIPerf 0.13's own "
                 "estimator on that tool's scrapes)",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "20",
                 *SYNTHETIC, *EXACT_OSL, "--server-metrics-formats", "json", "csv", "jsonl"],
        "requests": 20,
        "truth": {**streaming_truth(), **concurrency_truth(2, 20, LAT_MS), **sweep_truth(2)},
    },
    "chat": {
        "about": "non-streaming chat, concurrency 2",
        "args": ["--endpoint-type", "chat", "--concurrency", "2", "--request-count", "20",
                 *SYNTHETIC, *EXACT_OSL],
        "requests": 20,
        "truth": {"request_latency": LAT_MS, **concurrency_truth(2, 20, LAT_MS)},
    },
    "completions": {
        "about": "streaming completions, concurrency 2",
        "args": ["--endpoint-type", "completions", "--streaming", "--concurrency", "2", "--request-count", "20",
                 *SYNTHETIC, *EXACT_OSL],
        "requests": 20,
        "truth": {**streaming_truth(), **concurrency_truth(2, 20, LAT_MS), **sweep_truth(2)},
    },
    "embeddings": {
        "about": "embeddings, concurrency 2",
        "args": ["--endpoint-type", "embeddings", "--concurrency", "2", "--request-count", "20",
                 "--synthetic-input-tokens-mean", str(ISL), "--synthetic-input-tokens-stddev", "0"],
        "requests": 20,
        "truth": {"request_latency": EMBED_MS, **concurrency_truth(2, 20, EMBED_MS, osl=0)},
    },
    "video_generation": {
        "about": "video jobs (/v1/videos): submit, one in_progress poll, completed, download",
        "args": ["--endpoint-type", "video_generation", "--concurrency", "1", "--request-count", "4",
                 "--synthetic-input-tokens-mean", str(ISL), "--synthetic-input-tokens-stddev", "0",
                 "--download-video-content", "--extra-inputs", "size:64x32", "--extra-inputs", "seconds:8",
                 "--extra-inputs", "mock_polls:1"],
        "requests": 4,
        # Both tools wait one poll interval (0.1 s) before the poll that sees the job completed (the
        # mock answers at once); the mock's figures: seconds / 8 = 1 s, 64 x 32 / 1024 = 2 MB.
        "truth": {"request_latency": 100.0, "video_inference_time": 1000.0, "video_peak_memory": 2.0,
                  **concurrency_truth(1, 4, 100.0, osl=0)},
    },
    "messages_stream": {
        "about": "streaming Anthropic Messages API (/v1/messages), concurrency 2",
        "args": ["--endpoint-type", "messages", "--streaming", "--concurrency", "2", "--request-count", "20",
                 *SYNTHETIC, *EXACT_OSL],
        "requests": 20,
        "truth": {**streaming_truth(), **concurrency_truth(2, 20, LAT_MS), **sweep_truth(2)},
    },
    "messages": {
        "about": "non-streaming Anthropic Messages API (/v1/messages), concurrency 2",
        "args": ["--endpoint-type", "messages", "--concurrency", "2", "--request-count", "20",
                 *SYNTHETIC, *EXACT_OSL],
        "requests": 20,
        "truth": {"request_latency": LAT_MS, **concurrency_truth(2, 20, LAT_MS)},
    },
    "raw": {
        "about": "--endpoint-type raw: raw_payload bodies sent verbatim to /v1/chat/completions, concurrency 2",
        "args": ["--endpoint-type", "raw", "--endpoint", "/v1/chat/completions",
                 "--input-file", str(DATA / "raw_payload.jsonl"), "--custom-dataset-type", "raw_payload",
                 "--dataset-sampling-strategy", "sequential", "--concurrency", "2", "--request-count", "8"],
        "requests": 8,
        # Every body asks max_tokens 10 with ignore_eos: 4 rounds of OSL tokens.
        "truth": {"request_latency": LAT_MS, "benchmark_duration": 4 * LAT_MS / 1000.0,
                  "request_throughput": 8 / (4 * LAT_MS / 1000.0),
                  "output_token_throughput": 8 * OSL / (4 * LAT_MS / 1000.0)},
    },
    "network_latency_mean": {
        "about": "streaming chat, concurrency 2, --network-latency-mean 5 (network_rtt, network_adjusted_*)",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "20",
                 "--network-latency-mean", "5", *SYNTHETIC, *EXACT_OSL],
        "requests": 20,
        "truth": {**streaming_truth(), **concurrency_truth(2, 20, LAT_MS), **sweep_truth(2), "network_rtt": 5.0,
                  "network_adjusted_time_to_first_token": TTFT_MS - 5.0,
                  "network_adjusted_time_to_first_output_token": TTFT_MS - 5.0,
                  "network_adjusted_request_latency": LAT_MS - 5.0},
    },
    "network_latency_automatic": {
        "about": "streaming chat, concurrency 2, --network-latency-automatic (probes, their JSONL, network_adjusted_*)",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "20",
                 "--network-latency-automatic", "--network-latency-ping-interval", "0.5", *SYNTHETIC, *EXACT_OSL],
        "requests": 20,
        # A loopback RTT is well under the tolerance (1 % of 200 ms): the adjusted figures' truth is the raw one.
        "truth": {**streaming_truth(), **concurrency_truth(2, 20, LAT_MS), **sweep_truth(2),
                  "network_adjusted_time_to_first_token": TTFT_MS,
                  "network_adjusted_time_to_first_output_token": TTFT_MS,
                  "network_adjusted_request_latency": LAT_MS},
    },
    "poisson": {
        "about": "streaming chat, Poisson arrivals at 20 req/s",
        "args": ["--endpoint-type", "chat", "--streaming", "--request-rate", "20", "--arrival-pattern", "poisson",
                 "--request-count", "20", *SYNTHETIC, *EXACT_OSL],
        "requests": 20,
        "truth": streaming_truth(),
    },
    "multi_turn": {
        "about": "streaming chat, multi-turn input file (4 sessions x 3 turns)",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2",
                 "--input-file", str(DATA / "multi_turn.jsonl"), "--custom-dataset-type", "multi_turn",
                 "--conversation-num", "4", "--output-tokens-mean", str(OSL), "--output-tokens-stddev", "0",
                 *EXACT_OSL],
        "requests": 12,
        # 4 sessions of 3 turns at concurrency 2: 6 rounds, each turn waits for the one before.
        "truth": {**streaming_truth(prefill=False), **sweep_truth(2, isl=None), "benchmark_duration": 6 * LAT_MS / 1000.0,
                  "request_throughput": 12 / (6 * LAT_MS / 1000.0),
                  "output_token_throughput": 12 * OSL / (6 * LAT_MS / 1000.0)},
    },
    "speed_bench": {
        "about": "streaming chat, SPEED-Bench qualitative JSONL filtered to one category (speed_bench_math: "
                 "2 questions of 1 and 3 turns, sampled sequentially)",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "1",
                 "--input-file", str(REPO / "tests" / "data" / "datasets" / "speed_bench" / "qualitative.jsonl"),
                 "--custom-dataset-type", "speed-bench-math", "--request-count", "8",
                 "--output-tokens-mean", str(OSL), "--output-tokens-stddev", "0", *EXACT_OSL],
        "requests": 8,
        # One request at a time, each LAT_MS at the server.
        "truth": {**streaming_truth(prefill=False), **sweep_truth(1, isl=None),
                  **concurrency_truth(1, 8, LAT_MS, isl=None, osl=None),
                  "output_token_throughput": 8 * OSL / (8 * LAT_MS / 1000.0)},
    },
    "dag_jsonl": {
        "about": "streaming chat, a linear dag_jsonl file (3 root sessions x 2 turns: accumulated deltas with the "
                 "answers threaded in, an isolated message array, tools, extra, a 50 ms turn delay), no bound: each "
                 "root once, sequentially",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "1",
                 "--input-file", str(DATA / "dag_jsonl.jsonl"), "--custom-dataset-type", "dag_jsonl",
                 "--dataset-sampling-strategy", "sequential", "--osl", str(OSL), *EXACT_OSL],
        "requests": 6,
        # One request at a time, 6 x LAT_MS plus the 50 ms turn delay; the prompts are the file's
        # (ISL 11, 27, 12, 27, 3, 8 under gpt2, answers included): per-user prefill p50 = 57.5 / s.
        "truth": {**streaming_truth(prefill=False), "benchmark_duration": (6 * LAT_MS + 50) / 1000.0,
                  "request_throughput": 6 / ((6 * LAT_MS + 50) / 1000.0),
                  "output_token_throughput": 6 * OSL / ((6 * LAT_MS + 50) / 1000.0),
                  "prefill_throughput_per_user": {"p50": (11 + 12) / 2 / (TTFT_MS / 1000.0)}},
    },
    "dag_jsonl_spawn": {
        "about": "streaming chat, a dag_jsonl tree of spawns (one root of 3 turns: a pre-session spawn, 2 children "
                 "after turn 0 joined on turns 1 and 2, one after the last turn): 8 requests, parent turns held "
                 "by their joins",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "1",
                 "--input-file", str(REPO / "tests" / "data" / "datasets" / "dag_jsonl" / "spawn.jsonl"),
                 "--custom-dataset-type", "dag_jsonl", *EXACT_OSL],
        "requests": 8,
        # Every answer 4 tokens (LAT4 = TTFT + 3 ITL); the tree's critical path is 5 of them: root 0
        # (beside w4), w1 and w2 0, root 1 (beside w2 1), root 2, then w3.
        "truth": {"time_to_first_token": TTFT_MS, "time_to_first_output_token": TTFT_MS,
                  "inter_token_latency": ITL_MS, "request_latency": TTFT_MS + 3 * ITL_MS,
                  "effective_latency": TTFT_MS + 3 * ITL_MS,
                  "benchmark_duration": 5 * (TTFT_MS + 3 * ITL_MS) / 1000.0,
                  "request_throughput": 8 / (5 * (TTFT_MS + 3 * ITL_MS) / 1000.0),
                  "output_token_throughput": 8 * 4 / (5 * (TTFT_MS + 3 * ITL_MS) / 1000.0)},
    },
    "dag_jsonl_fork": {
        "about": "streaming chat, a dag_jsonl tree with a fork (root spawns 2 children after turn 0, joined on its "
                 "last turn, which forks a child that continues root's context with both answers): 6 requests",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "1",
                 "--input-file", str(REPO / "tests" / "data" / "datasets" / "dag_jsonl" / "branch.jsonl"),
                 "--custom-dataset-type", "dag_jsonl", *EXACT_OSL],
        "requests": 6,
        # 4-token answers; the critical path is 5 of them: root 0, w1 and w2 0, w2 1, root 1, f1.
        "truth": {"time_to_first_token": TTFT_MS, "time_to_first_output_token": TTFT_MS,
                  "inter_token_latency": ITL_MS, "request_latency": TTFT_MS + 3 * ITL_MS,
                  "effective_latency": TTFT_MS + 3 * ITL_MS,
                  "benchmark_duration": 5 * (TTFT_MS + 3 * ITL_MS) / 1000.0,
                  "request_throughput": 6 / (5 * (TTFT_MS + 3 * ITL_MS) / 1000.0),
                  "output_token_throughput": 6 * 4 / (5 * (TTFT_MS + 3 * ITL_MS) / 1000.0)},
    },
    "tracelab": {
        "about": "streaming chat, a TraceLab corpus (2 sessions and a subagent joined into the first: 7 rounds) "
                 "without its timestamps or waits, one request at a time",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "1",
                 "--input-file", str(REPO / "tests" / "data" / "datasets" / "tracelab" / "trace.jsonl"),
                 "--custom-dataset-type", "tracelab", "--no-fixed-schedule", "--ignore-trace-delays",
                 "--request-count", "7", *EXACT_OSL],
        "requests": 7,
        # One at a time: 7 TTFTs and (20 + 15 + 8 + 12 + 6 + 4 + 9) - 7 = 67 ITLs (max tokens = the rounds' out).
        "truth": {"time_to_first_token": TTFT_MS, "time_to_first_output_token": TTFT_MS,
                  "inter_token_latency": ITL_MS, "benchmark_duration": (7 * TTFT_MS + 67 * ITL_MS) / 1000.0,
                  "request_throughput": 7 / ((7 * TTFT_MS + 67 * ITL_MS) / 1000.0),
                  "output_token_throughput": 74 / ((7 * TTFT_MS + 67 * ITL_MS) / 1000.0)},
    },
    "agentic_replay": {
        "about": "--scenario inferencex-agentx-mvp --unsafe-override on two weka traces (tests/data/datasets/"
                 "weka_agentic), t* halfway through each: warmup primes one turn per lane (aligned on t*), profiling "
                 "resumes each lane after t*, finished lanes recycle; 3.5 s",
        "args": ["--endpoint-type", "chat", "--input-file", str(REPO / "tests" / "data" / "datasets" / "weka_agentic"),
                 "--custom-dataset-type", "weka_trace", "--scenario", "inferencex-agentx-mvp", "--unsafe-override",
                 "--concurrency", "2", "--trajectory-start-min-ratio", "0.5", "--trajectory-start-max-ratio", "0.5",
                 "--benchmark-duration", "3.5"],
        # Answers of 2 tokens (the traces' out, ignore_eos auto-filled): 220 ms. Profiling: p turn 2 at
        # 0.5 s, its turn 3 0.9 s after the answer, then p's lane recycles (turn 0, turn 1 0.9 s later);
        # q turn 1 at 2 s, then q's lane recycles (turn 0; turn 1 and p's next turn fall past 3.5 s).
        "requests": 6,
        "truth": {"time_to_first_token": TTFT_MS, "request_latency": TTFT_MS + ITL_MS},
        "schedule_ms": 50,  # the same sends in the same order, each within 50 ms of the reference's
    },
    "outputs_json": {
        "about": "streaming chat with --export-outputs-json (outputs.json beside the usual files)",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "10",
                 "--export-outputs-json", *SYNTHETIC, *EXACT_OSL],
        "requests": 10,
        "truth": {**streaming_truth(), **concurrency_truth(2, 10, LAT_MS), **sweep_truth(2)},
    },
    "fixed_schedule": {
        "about": "streaming chat, mooncake trace replayed on its timestamps",
        "args": ["--endpoint-type", "chat", "--streaming",
                 "--input-file", str(DATA / "fixed_schedule.jsonl"), "--custom-dataset-type", "mooncake_trace",
                 "--fixed-schedule", *EXACT_OSL],
        "requests": 12,
        # The last of 12 requests is sent at 1100 ms.
        "truth": {**streaming_truth(), "benchmark_duration": (1100 + LAT_MS) / 1000.0,
                  "request_throughput": 12 / ((1100 + LAT_MS) / 1000.0)},
    },
    "trace_detected": {
        "about": "streaming chat, a timestamped mooncake trace whose type is detected: no fixed schedule, "
                 "the default load (concurrency 1, 10 requests)",
        "args": ["--endpoint-type", "chat", "--streaming",
                 "--input-file", str(DATA / "fixed_schedule.jsonl"), *EXACT_OSL],
        "requests": 10,
        "truth": {**streaming_truth(), **concurrency_truth(1, 10, LAT_MS), **sweep_truth(1)},
    },
    "burst_gpt": {
        "about": "streaming chat, a BurstGPT CSV (detected) replayed with --fixed-schedule",
        "args": ["--endpoint-type", "chat", "--streaming", "--input-file", str(DATA / "burst_gpt.csv"),
                 "--fixed-schedule", *EXACT_OSL],
        "requests": 6,
        # The last of 6 rows is stamped 0.8 s.
        "truth": {**streaming_truth(prefill=False), "benchmark_duration": (800 + LAT_MS) / 1000.0,
                  "request_throughput": 6 / ((800 + LAT_MS) / 1000.0)},
    },
    "synthesis": {
        "about": "streaming chat, a mooncake trace reshaped by --synthesis-* (prompt x2, output x0.5, speedup 2)",
        "args": ["--endpoint-type", "chat", "--streaming", "--input-file", str(DATA / "synthesis.jsonl"),
                 "--custom-dataset-type", "mooncake_trace", "--isl-block-size", "16",
                 "--synthesis-prompt-len-multiplier", "2", "--synthesis-output-len-multiplier", "0.5",
                 "--synthesis-speedup-ratio", "2", *EXACT_OSL],
        "requests": 6,
        # Blocks 1, 2 shared (32 tokens) + 2 x 8 prompt tokens = ISL 48; OSL 20 x 0.5 = 10; the last
        # of 6 lines (500 ms) is sent at 250 ms.
        "truth": {**streaming_truth(isl=48), "benchmark_duration": (250 + LAT_MS) / 1000.0,
                  "request_throughput": 6 / ((250 + LAT_MS) / 1000.0)},
    },
    "sagemaker": {
        "about": "streaming chat, a SageMaker Data Capture file (detected) replayed with --fixed-schedule",
        "args": ["--endpoint-type", "chat", "--streaming", "--input-file",
                 str(REPO / "tests" / "data" / "datasets" / "sagemaker_capture.jsonl"), "--fixed-schedule",
                 "--osl", str(OSL), *EXACT_OSL],
        "requests": 3,
        # Captured max tokens 3 and 4, then --osl: only the server's pace is known. ISL 4, 3, 5.
        "truth": {"time_to_first_token": TTFT_MS, "inter_token_latency": ITL_MS,
                  "prefill_throughput_per_user": {"p50": 4 / (TTFT_MS / 1000.0), "min": 3 / (TTFT_MS / 1000.0),
                                                  "max": 5 / (TTFT_MS / 1000.0)}},
    },
    "inputs_json": {
        "about": "non-streaming chat, an inputs.json replayed verbatim (detected), 4 sessions twice",
        "args": ["--endpoint-type", "chat", "--input-file", str(DATA / "inputs_json.json"),
                 "--concurrency", "2", "--request-count", "8"],
        "requests": 8,
        "truth": {"request_latency": LAT_MS, "benchmark_duration": 4 * LAT_MS / 1000.0,
                  "request_throughput": 8 / (4 * LAT_MS / 1000.0),
                  "output_token_throughput": 8 * OSL / (4 * LAT_MS / 1000.0)},
    },
    "video_input": {
        "about": "non-streaming chat, --video-* (2 noise clips per request, 64x48, 4 fps, 1 s, mp4 with a stereo "
                 "audio track): every clip of inputs.json probed with ffprobe (container, codecs, size, frame "
                 "rate, frames, duration, audio rate and channels identical), sizes comparable, and the decoded "
                 "frames identical (NumPy's noise stream under the same seed, the same ffmpeg)",
        "args": ["--endpoint-type", "chat", "--concurrency", "1", "--request-count", "3", "--num-dataset-entries",
                 "3", *SYNTHETIC, *EXACT_OSL, "--video-width", "64", "--video-height", "48", "--video-fps", "4",
                 "--video-duration", "1", "--video-synth-type", "noise", "--video-format", "mp4",
                 "--video-audio-num-channels", "2", "--video-batch-size", "2"],
        "requests": 3,
        "video": {"frames_identical": True},
        "truth": {"request_latency": LAT_MS, **concurrency_truth(1, 3, LAT_MS)},
    },
    "builtin_tokenizer": {
        "about": "non-streaming chat, --tokenizer builtin (o200k_base) for both tools and the mock",
        "args": ["--endpoint-type", "chat", "--concurrency", "2", "--request-count", "10",
                 *SYNTHETIC, *EXACT_OSL],
        "tokenizer": "builtin",
        "mock": ["--tokenizer", "builtin"],
        "requests": 10,
        "truth": {"request_latency": LAT_MS, **concurrency_truth(2, 10, LAT_MS)},
    },
    "gpu_telemetry": {
        "about": "streaming chat, concurrency 2, --gpu-telemetry on the mock's fake DCGM exporter (one GPU): "
                 "telemetry_data, the CSV's GPU section, gpu_telemetry_export.jsonl, profile_export_console.txt, "
                 "the GPU energy-efficiency metrics",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "10",
                 "--gpu-telemetry", "{url}/dcgm1/metrics", *SYNTHETIC, *EXACT_OSL],
        "mock": ["--dcgm-num-gpus", "1", "--dcgm-seed", "3"],
        "requests": 10,
        "energy_concurrency": 2,  # the GPU energy-efficiency metrics, per user = energy / 2
        "truth": {**streaming_truth(), **concurrency_truth(2, 10, LAT_MS), **sweep_truth(2)},
    },
    "chat_template": {
        "about": "non-streaming chat, --apply-chat-template with the Qwen3 test tokenizer (synthetic prompts "
                 "shortened by the template's 3 + 5 tokens by both tools)",
        "args": ["--endpoint-type", "chat", "--concurrency", "2", "--request-count", "10", "--apply-chat-template",
                 *SYNTHETIC, *EXACT_OSL],
        "tokenizer": str(REPO / "tests" / "data" / "tokenizer" / "qwen3"),
        "mock": ["--tokenizer", str(REPO / "tests" / "data" / "tokenizer" / "qwen3")],
        "requests": 10,
        "truth": {"request_latency": LAT_MS, **concurrency_truth(2, 10, LAT_MS)},
    },
    # Accuracy benchmarks on the fixture datasets (tests/data/accuracy): both tools read them from
    # ./<org>/<name> in their working directory (`datasets` loads a local directory named like the
    # repo before the Hub), and the mock answers each problem as reply_rules.jsonl scripts.
    "accuracy_mmlu": {
        "about": "streaming chat, --accuracy-benchmark mmlu (abstract_algebra, anatomy; 5 balanced shots), the "
                 "mock's scripted answers: the graded records, accuracy_results.csv, the accuracy.* results",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "6",
                 "--accuracy-benchmark", "mmlu", "--accuracy-tasks", "abstract_algebra,anatomy",
                 "--extra-inputs", "temperature:0"],
        "mock": ["--reply-rules", str(REPO / "tests" / "data" / "accuracy" / "reply_rules.jsonl")],
        "datasets": ["lighteval/mmlu"],
        "requests": 6,
        "accuracy": True,
        # Every scripted answer is one token, sent after TTFT_MS.
        "truth": {"request_latency": TTFT_MS, "time_to_first_token": TTFT_MS, "time_to_first_output_token": TTFT_MS,
                  **concurrency_truth(2, 6, TTFT_MS, osl=None)},
    },
    "accuracy_mmlu_pro": {
        "about": "non-streaming chat, --accuracy-benchmark mmlu_pro (math and computer science; 5 CoT shots from "
                 "validation), the mock's scripted answers graded by the A-J cascade",
        "args": ["--endpoint-type", "chat", "--concurrency", "1", "--request-count", "4",
                 "--accuracy-benchmark", "mmlu_pro", "--accuracy-tasks", "math,computer science",
                 "--extra-inputs", "temperature:0"],
        "mock": ["--reply-rules", str(REPO / "tests" / "data" / "accuracy" / "reply_rules.jsonl")],
        "datasets": ["TIGER-Lab/MMLU-Pro"],
        "requests": 4,
        "accuracy": True,
        "truth": {"request_latency": TTFT_MS, **concurrency_truth(1, 4, TTFT_MS, osl=None)},
    },
    "accuracy_gsm8k": {
        "about": "non-streaming completions, --accuracy-benchmark gsm8k with --accuracy-system-prompt, 8 requests "
                 "over the 4 problems (sequential wrap), the mock's scripted answers",
        "args": ["--endpoint-type", "completions", "--concurrency", "1", "--request-count", "8",
                 "--accuracy-benchmark", "gsm8k", "--accuracy-system-prompt", "Be brief.",
                 "--extra-inputs", "temperature:0"],
        "mock": ["--reply-rules", str(REPO / "tests" / "data" / "accuracy" / "reply_rules.jsonl")],
        "datasets": ["openai/gsm8k"],
        "requests": 8,
        "accuracy": True,
        "truth": {"request_latency": TTFT_MS, **concurrency_truth(1, 8, TTFT_MS, osl=None)},
    },
    "accuracy_aime": {
        "about": "non-streaming chat, --accuracy-benchmark aime (Maxwell-Jia/AIME_2024's lone Parquet file; the recipe's "
                 "template with 8 shots, the default system prompt), graded by the math grader (AIPerf's stdlib "
                 "comparison): a boxed answer, an answer phrase, a wrong fraction",
        "args": ["--endpoint-type", "chat", "--concurrency", "1", "--request-count", "3",
                 "--accuracy-benchmark", "aime", "--extra-inputs", "temperature:0"],
        "mock": ["--reply-rules", str(REPO / "tests" / "data" / "accuracy" / "reply_rules.jsonl")],
        "datasets": ["Maxwell-Jia/AIME_2024"],
        "requests": 3,
        "accuracy": True,
        "truth": {"request_latency": TTFT_MS, **concurrency_truth(1, 3, TTFT_MS, osl=None)},
    },
    "accuracy_math_500": {
        "about": "non-streaming completions, --accuracy-benchmark math_500 (test.jsonl; the gold is the whole "
                 "solution, the task the subject) with --accuracy-grader math",
        "args": ["--endpoint-type", "completions", "--concurrency", "1", "--request-count", "3",
                 "--accuracy-benchmark", "math_500", "--accuracy-grader", "math", "--extra-inputs", "temperature:0"],
        "mock": ["--reply-rules", str(REPO / "tests" / "data" / "accuracy" / "reply_rules.jsonl")],
        "datasets": ["HuggingFaceH4/MATH-500"],
        "requests": 3,
        "accuracy": True,
        "truth": {"request_latency": TTFT_MS, **concurrency_truth(1, 3, TTFT_MS, osl=None)},
    },
    "accuracy_gpqa_diamond": {
        "about": "non-streaming chat, --accuracy-benchmark gpqa_diamond (Idavidrein/gpqa's gpqa_diamond.csv; answers "
                 "shuffled by the question's SHA-256) with --accuracy-grader multiple_choice",
        "args": ["--endpoint-type", "chat", "--concurrency", "1", "--request-count", "3",
                 "--accuracy-benchmark", "gpqa_diamond", "--accuracy-grader", "multiple_choice",
                 "--extra-inputs", "temperature:0"],
        "mock": ["--reply-rules", str(REPO / "tests" / "data" / "accuracy" / "reply_rules.jsonl")],
        "datasets": ["Idavidrein/gpqa"],
        "requests": 3,
        "accuracy": True,
        "truth": {"request_latency": TTFT_MS, **concurrency_truth(1, 3, TTFT_MS, osl=None)},
    },
    # Public datasets (issue 16) on the fixtures of tests/data/public_datasets: both tools read the
    # HuggingFace ones from ./<org>/<name> (a link to the fixture's snapshot), Spec-Bench from AIPerf's
    # download cache; inputs.json must be identical value by value.
    "public_dataset_aimo": {
        "about": "non-streaming chat, --public-dataset aimo (AI-MO/NuminaMath-TIR, train split, a blank problem "
                 "skipped), 5 requests over 3 rows (sequential wrap), --output-tokens-mean 3",
        "args": ["--endpoint-type", "chat", "--concurrency", "1", "--request-count", "5",
                 "--public-dataset", "aimo", "--output-tokens-mean", "3", *EXACT_OSL],
        "datasets": ["AI-MO/NuminaMath-TIR"],
        "requests": 5,
        "truth": {"request_latency": TTFT_MS + 2 * ITL_MS, "output_token_throughput": 5 * 3 / (5 * 0.24),
                  "e2e_output_token_throughput": 3 / 0.24,
                  **concurrency_truth(1, 5, TTFT_MS + 2 * ITL_MS, osl=None)},
        "inputs_equal": True,
    },
    "public_dataset_mtbench": {
        "about": "streaming chat, --public-dataset spec-al-mtbench (two-turn rows, an empty row skipped): "
                 "3 requests, the second turn carrying the live reply",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "1", "--request-count", "3",
                 "--public-dataset", "spec-al-mtbench", "--output-tokens-mean", "4", *EXACT_OSL],
        "datasets": ["HuggingFaceH4/mt_bench_prompts"],
        "requests": 3,
        "truth": {"request_latency": TTFT_MS + 3 * ITL_MS, "output_token_throughput": 3 * 4 / (3 * 0.26),
                  "time_to_first_token": TTFT_MS, "time_to_first_output_token": TTFT_MS,
                  "e2e_output_token_throughput": 4 / 0.26,
                  **concurrency_truth(1, 3, TTFT_MS + 3 * ITL_MS, osl=None)},
        "inputs_equal": True,
    },
    "public_dataset_blazedit": {
        "about": "completions, --public-dataset blazedit_5k (the code-edit prompt template over code and "
                 "change_request)",
        "args": ["--endpoint-type", "completions", "--concurrency", "1", "--request-count", "2",
                 "--public-dataset", "blazedit_5k", "--output-tokens-mean", "4", *EXACT_OSL],
        "datasets": ["vdaita/edit_5k_char"],
        "requests": 2,
        "truth": {"request_latency": TTFT_MS + 3 * ITL_MS, "output_token_throughput": 2 * 4 / (2 * 0.26),
                  "e2e_output_token_throughput": 4 / 0.26,
                  **concurrency_truth(1, 2, TTFT_MS + 3 * ITL_MS, osl=None)},
        "inputs_equal": True,
    },
    "public_dataset_mbpp_subset": {
        "about": "chat, --public-dataset spec_al_mbpp --hf-subset full (a README card with two configs; "
                 "the test split only)",
        "args": ["--endpoint-type", "chat", "--concurrency", "1", "--request-count", "2",
                 "--public-dataset", "spec_al_mbpp", "--hf-subset", "full", "--output-tokens-mean", "4", *EXACT_OSL],
        "datasets": ["google-research-datasets/mbpp"],
        "requests": 2,
        "truth": {"request_latency": TTFT_MS + 3 * ITL_MS, "output_token_throughput": 2 * 4 / (2 * 0.26),
                  "e2e_output_token_throughput": 4 / 0.26,
                  **concurrency_truth(1, 2, TTFT_MS + 3 * ITL_MS, osl=None)},
        "inputs_equal": True,
    },
    "public_dataset_spec_bench": {
        "about": "chat, --public-dataset spec_bench from AIPerf's cache (.cache/aiperf/datasets/spec_bench.jsonl): "
                 "each row's first turn, stripped",
        "args": ["--endpoint-type", "chat", "--concurrency", "1", "--request-count", "2",
                 "--public-dataset", "spec_bench", "--output-tokens-mean", "4", *EXACT_OSL],
        "cache_files": {".cache/aiperf/datasets/spec_bench.jsonl":
                        REPO / "tests" / "data" / "public_datasets" / "spec_bench" / "question.jsonl"},
        "requests": 2,
        "truth": {"request_latency": TTFT_MS + 3 * ITL_MS, "output_token_throughput": 2 * 4 / (2 * 0.26),
                  "e2e_output_token_throughput": 4 / 0.26,
                  **concurrency_truth(1, 2, TTFT_MS + 3 * ITL_MS, osl=None)},
        "inputs_equal": True,
    },
    "usage_cache_spec_decode": {
        "about": "streaming chat, concurrency 2, the mock scripting prompt-cache usage (cached_tokens 16, "
                 "Anthropic's cache_creation_input_tokens 4, DeepSeek's prompt_cache_miss_tokens 7) and vLLM's "
                 "per-request spec-decode stats (k 3, steps accepting 2, 0, 3 drafts): the usage cache and "
                 "spec-decode metrics, the pooled histogram, each record's spec_decode_acceptance; "
                 "AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD 99 for both (no request is that far off: 0 "
                 "discrepancies, where the default threshold counts what each tool's own prompt text gives)",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "10",
                 *SYNTHETIC, *EXACT_OSL],
        "mock": ["--usage-cached-tokens", "16",
                 "--usage-fields", '{"cache_creation_input_tokens":4,"prompt_cache_miss_tokens":7}',
                 "--spec-decode", "3:2,0,3"],
        "env": {"AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD": "99"},
        "requests": 10,
        # Every request: 16 / 4 / 7 cache tokens; 10 tokens = the prefill's + steps of 3, 1, 4, 1 tokens
        # (2, 0, 3, then 0 of 3 drafts accepted): 4 steps, 5 of 12 drafts.
        "truth": {**streaming_truth(), **concurrency_truth(2, 10, LAT_MS), **sweep_truth(2),
                  "usage_prompt_cache_read_tokens": 16, "total_usage_prompt_cache_read_tokens": 160,
                  "total_usage_prompt_cache_write_tokens": 40, "total_usage_prompt_cache_miss_tokens": 70,
                  "spec_decode_steps": 4, "total_spec_decode_steps": 40, "total_draft_tokens": 120,
                  "spec_decode_acceptance_length": 2.25, "spec_decode_token_weighted_acceptance_length": 2.25,
                  "usage_discrepancy_count": 0},
    },
    "bo_search": {
        "about": "adaptive search with the default planner (bayesian) against the mock's engine (4 slots): "
                 "maximize output_token_throughput over concurrency 1..8 under p95 TTFT < 25 ms, 4 iterations, "
                 "2 random initial points, seed 7; the search files and keys compared, each tool's verdicts "
                 "checked against its own runs (the points differ: ours runs a GP, the reference without "
                 "BoTorch falls back to TPE, and the random streams differ)",
        "args": ["--endpoint-type", "chat", "--streaming", "--concurrency", "1", "--request-count", "16",
                 *SYNTHETIC, *EXACT_OSL, "--artifact-dir", "art",
                 "--search-space", "phases.profiling.concurrency:1,8:int",
                 "--search-metric", "output_token_throughput", "--search-direction", "maximize",
                 "--search-max-iterations", "4", "--search-initial-points", "2", "--search-random-seed", "7",
                 "--search-sla", "time_to_first_token:p95:lt:25"],
        "mock": ["--engine-slots", "4", "--engine-prefill-tokens-per-s", "20000", "--engine-step-ms", "5",
                 "--engine-step-per-seq-ms", "0"],
        "search": {"path": "phases.profiling.concurrency", "lo": 1, "hi": 8, "iterations": 4,
                   "sla": ("time_to_first_token", "p95", 25.0), "objective": ("output_token_throughput", "avg")},
    },
}

LOG_LINE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} - \S+ - (DEBUG|INFO|NOTICE|WARNING|"
                      r"SUCCESS|ERROR|CRITICAL|TRACE) - ")


# ------------------------------------------------------------------------------------------------
# known_differences.md


def load_known(path):
    """Patterns from lines `- `PATTERN` reason`; returns [(pattern, line number, text)]."""
    known = []
    if not path.exists():
        return known
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = re.match(r"^\s*[-*]\s+`([^`]+)`\s*(.*)$", line)
        if m:
            known.append((m.group(1), n, m.group(2).strip()))
    return known


def pattern_scenarios(pattern):
    """The scenario field of a pattern: `{a,b}:...` names several scenarios, anything else one."""
    head = pattern.split(":", 1)[0]
    return head[1:-1].split(",") if head.startswith("{") and head.endswith("}") else [head]


def matches(did, pattern):
    """Glob match where only `*` and `?` are wild; brackets are literal (ids contain `[]`); a
    leading `{a,b,...}` field matches any of those scenarios."""
    _, sep, rest = pattern.partition(":")
    return any(fnmatch.fnmatchcase(did, (h + sep + rest).replace("[", "[[]")) for h in pattern_scenarios(pattern))



# ------------------------------------------------------------------------------------------------
# processes


def tiktoken_cache(dest):
    """tiktoken's disk cache (one file per encoding, named sha1 of its blob URL) seeded with our
    bundled encodings, so the reference's `--tokenizer builtin` loads without the network."""
    import hashlib
    dest.mkdir(parents=True, exist_ok=True)
    for enc in ("o200k_base", "cl100k_base", "r50k_base"):
        url = f"https://openaipublic.blob.core.windows.net/encodings/{enc}.tiktoken"
        shutil.copyfile(TIKTOKEN / f"{enc}.tiktoken", dest / hashlib.sha1(url.encode()).hexdigest())
    return dest


class Mock:
    def __init__(self, binary, extra):
        cmd = [str(binary), "--port", "0", "--ttft", str(TTFT_MS), "--itl", str(ITL_MS),
               "--embedding-base-latency", str(EMBED_MS), "--embedding-per-input-latency", "0", *extra]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.url = None
        deadline = time.time() + 30
        lines = []
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            m = re.search(r"listening on (http://\S+)", line)
            if m:
                self.url = m.group(1)
                break
        if not self.url:
            self.stop()
            raise RuntimeError("mock server did not start: " + "".join(lines))
        # Keep draining its output so it never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def run_tool(binary, args, cwd, env):
    cwd.mkdir(parents=True, exist_ok=True)
    start = time.time()
    with open(cwd.parent / (cwd.name + ".out"), "w") as out:
        try:
            proc = subprocess.run([str(binary), "profile", *args], cwd=cwd, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT_S)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    return rc, time.time() - start


# ------------------------------------------------------------------------------------------------
# structure


def json_type(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if v is None:
        return "null"
    if isinstance(v, list):
        return "array"
    return "object"


def key_tree(v, prefix="", out=None):
    """{path: set(types)}; list elements are merged under `path[]`."""
    if out is None:
        out = {}
    if prefix:
        out.setdefault(prefix, set()).add(json_type(v))
    if isinstance(v, dict):
        for k, child in v.items():
            key_tree(child, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(v, list):
        for child in v:
            key_tree(child, prefix + "[]", out)
    return out


def parent_paths(path):
    """Proper ancestors of a key path ('a.b[].c' -> 'a', 'a.b', 'a.b[]')."""
    out = []
    for i, ch in enumerate(path):
        if ch in ".[" and i:
            out.append(path[:i])
        if ch == "]":
            out.append(path[:i + 1])
    return [p for p in out if p != path]


def compare_trees(ref, ours, emit, where):
    """Reports the topmost paths present on one side only, and type differences."""
    for side, a, b in (("only-ref", ref, ours), ("only-ours", ours, ref)):
        for path in sorted(a):
            if path in b:
                continue
            if any(p in a and p not in b for p in parent_paths(path)):
                continue  # an ancestor is reported already
            emit(f"key:{where}:{path}:{side}", f"{where}: key {path} ({'/'.join(sorted(a[path]))}) {side}")
    for path in sorted(set(ref) & set(ours)):
        if ref[path] != ours[path]:
            emit(f"key:{where}:{path}:type",
                 f"{where}: key {path}: ref {'/'.join(sorted(ref[path]))}, ours {'/'.join(sorted(ours[path]))}")


def csv_sections(text):
    rows = list(csv.reader(io.StringIO(text)))
    sections, cur = [], []
    for row in rows:
        if not row or all(c == "" for c in row):
            if cur:
                sections.append(cur)
                cur = []
            continue
        cur.append(row)
    if cur:
        sections.append(cur)
    return sections


def label_of(cell):
    """A row label without run-specific values: the server's host:port, `# key: value` comments."""
    cell = re.sub(r"(localhost|127\.0\.0\.1):\d+", "<server>", cell)
    m = re.match(r"^(#\s*[\w ]+):\s", cell)
    return m.group(1) + ":" if m else cell


def row_label(header, row):
    """A row's label: its first cell; in a tidy timeslice CSV (Timeslice,...,Metric,...,Stat,Value)
    the metric and statistic, since the first cell is just the slice's index."""
    if header and header[0] == "Timeslice" and "Metric" in header and "Stat" in header:
        mi, si = header.index("Metric"), header.index("Stat")
        if len(row) > max(mi, si):
            return f"{row[mi]}/{row[si]}"
    # The GPU telemetry section (Endpoint,GPU_Index,...,Metric,...): its metric, since the first
    # cell is the exporter's host:port.
    if header and header[:2] == ["Endpoint", "GPU_Index"] and "Metric" in header:
        mi = header.index("Metric")
        if len(row) > mi:
            return row[mi]
    return label_of(row[0])


def compare_csv(ref_text, our_text, emit, where):
    rs, os_ = csv_sections(ref_text), csv_sections(our_text)
    # Sections are matched by their header row's first cells (e.g. Metric,avg / Metric,Value).
    def ident(sec):
        return ",".join(sec[0][:2])
    rmap = {ident(s): s for s in rs}
    omap = {ident(s): s for s in os_}
    for side, a, b in (("only-ref", rmap, omap), ("only-ours", omap, rmap)):
        for k in a:
            if k not in b:
                emit(f"csv:{where}:section[{k}]:{side}", f"{where}: section with header {','.join(a[k][0])} {side}")
    for k in rmap:
        if k not in omap:
            continue
        rh, oh = rmap[k][0], omap[k][0]
        if rh != oh:
            emit(f"csv:{where}:section[{k}]:header",
                 f"{where}: section [{k}] header: ref {','.join(rh)} | ours {','.join(oh)}")
        # Each label once (a tidy timeslice CSV repeats its Metric/Stat labels in every slice).
        rl = list(dict.fromkeys(row_label(rh, r) for r in rmap[k][1:]))
        ol = list(dict.fromkeys(row_label(oh, r) for r in omap[k][1:]))
        for side, a, b in (("only-ref", rl, ol), ("only-ours", ol, rl)):
            for label in a:
                if label not in b:
                    emit(f"csv:{where}:section[{k}]:row:{label}:{side}", f"{where}: [{k}] row '{label}' {side}")


def read_jsonl(path):
    out = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line:
            out.append(json.loads(line))
    return out


# ------------------------------------------------------------------------------------------------
# numbers

STATS = ("avg", "min", "max", "sum", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "std")


def metric_objects(summary):
    return {k: v for k, v in summary.items() if isinstance(v, dict) and "unit" in v and "avg" in v}


# The GPU energy-efficiency metrics (AIPerf 0.13's EnergyEfficiencyAnalyzer, docs/metrics.md): power
# and energy of the mock's simulated GPU over each tool's own profiling window, which differ by the
# tools' start-up and scrape timing; 25 % still catches a wrong unit or formula (a factor 1000 or 2).
ENERGY_PREFIXES = ("nvidia_", "amd_")
ENERGY_TOLERANCE = 0.25


# AIPerf 0.13's sweep-line metrics (docs/metrics.md): time-weighted statistics of step functions over
# each tool's own timeline. Their average is an integral (tokens or request-seconds over the window),
# held to 2 % like a throughput whatever the unit; the rest (min, max, p50..p99, std) describes the
# curve's shape, which depends on how each tool's concurrent requests happened to line up (two
# requests prefilling in lock step put p50 of the prefill throughput at twice what the same two
# staggered by a millisecond do), so those are reported as value-tail.
SWEEP_TAGS = {f"effective_{k}" for k in ("concurrency", "decode_throughput", "prefill_throughput",
                                         "decode_concurrency", "prefill_concurrency", "total_throughput",
                                         "decode_throughput_per_user", "prefill_throughput_per_user")} | {
    f"active_{k}" for k in ("decode_throughput", "prefill_throughput", "decode_throughput_per_user",
                            "prefill_throughput_per_user", "total_throughput")} | {"tokens_in_flight"}
# Every client should send a credit the moment it is issued (AIPerf 0.13's credit_to_start_latency):
# its truth in every scenario.
DEFAULT_TRUTH = {"credit_to_start_latency": 0.0}


def tolerance_class(unit, tag=""):
    if tag.startswith(ENERGY_PREFIXES):
        return "energy"
    if tag in SWEEP_TAGS:
        return "sweep"
    if unit in ("ms", "sec", "ns", "us"):
        return "latency"
    if "/sec" in unit:
        return "throughput"
    return "exact"


def to_ms(v, unit):
    return v * {"ms": 1.0, "sec": 1e3, "ns": 1e-6, "us": 1e-3}[unit]


def within(a, b, unit, cls):
    """Is b within the tolerance of a (the reference value)?"""
    if cls == "latency":
        ams, bms = to_ms(a, unit), to_ms(b, unit)
        return abs(ams - bms) <= max(0.01 * abs(ams), 0.2)
    if cls in ("throughput", "sweep"):
        return abs(a - b) <= 0.02 * abs(a)
    if cls == "energy":
        return abs(a - b) <= ENERGY_TOLERANCE * abs(a)
    return abs(a - b) <= 1e-9 * max(1.0, abs(a))


def within_scaled(t, b, unit, cls, k):
    """Is b within k times the tolerance of the truth t?"""
    if cls == "latency":
        tms, bms = to_ms(t, unit), to_ms(b, unit)
        return abs(tms - bms) <= k * max(0.01 * abs(tms), 0.2)
    return abs(t - b) <= k * 0.02 * abs(t)


# How far past the truth ours may be, in tolerances, when the reference is further still.
LOADED_SCALE = 3

RULES = {"latency": "1 % or 0.2 ms", "throughput": "2 %", "sweep": "2 %", "energy": "25 %", "exact": "exact"}

# Timing statistics held to the tolerances: the centre of each distribution. The tails (min, max,
# low and high percentiles) and the spread (std) of a timing measure whichever client or server
# process the shared 2-core machine descheduled for a moment, not the tool; they are compared and
# reported as `value-tail:` differences, accepted by one entry of known_differences.md. Token
# counts and other exact metrics are held exactly in every statistic.
GATED_TIMING_STATS = ("avg", "p50", "sum")
# A scenario whose only unlisted differences are values runs up to this many times in all; a value
# difference counts when it is seen in every run.
VALUE_RUNS = 3


def truth_of(truth, tag, stat):
    if tag not in truth or stat == "count":
        return None
    if isinstance(truth[tag], dict):  # per statistic, where the records differ (e.g. their ISL)
        return truth[tag].get(stat)
    return 0.0 if stat == "std" else truth[tag]


def mean_noise(r, o):
    """Three standard errors of the difference of the two tools' means, from each one's own std and
    sample count: two means of noisy samples cannot be expected to agree more closely than that."""
    try:
        return 3 * math.sqrt(r["std"] ** 2 / r["count"] + o["std"] ** 2 / o["count"])
    except (KeyError, TypeError, ZeroDivisionError):
        return 0.0


def token_truth(rm, om, truth):
    """Adds total_token_throughput's (and input_token_throughput's) truth where the duration is
    known and both tools counted the same tokens (those counts are held exactly on their own):
    tokens over the true duration. A truth the scenario gives is kept."""
    if "benchmark_duration" not in truth:
        return truth
    sums = {}
    for tag in ("input_sequence_length", "output_sequence_length"):
        r, o = rm.get(tag, {}).get("sum"), om.get(tag, {}).get("sum")
        if r is not None and r == o:
            sums[tag] = r
    out = dict(truth)
    if "input_sequence_length" in sums:
        out.setdefault("input_token_throughput", sums["input_sequence_length"] / truth["benchmark_duration"])
        if "output_sequence_length" in sums:
            out.setdefault("total_token_throughput", sum(sums.values()) / truth["benchmark_duration"])
    return out


def compare_values(ref_sum, our_sum, emit, truth):
    rm, om = metric_objects(ref_sum), metric_objects(our_sum)
    truth = {**DEFAULT_TRUTH, **truth}
    if not isinstance(truth.get("request_latency", {}), dict):  # no wait before the send (DEFAULT_TRUTH)
        truth.setdefault("effective_latency", truth["request_latency"])
    # While a request prefills (decodes), its rate is the server's ISL / TTFT (1 / ITL) whatever the
    # schedule: the active per-user averages have the per-record metrics' truth.
    for active, per_record in (("active_prefill_throughput_per_user", "prefill_throughput_per_user"),
                               ("active_decode_throughput_per_user", "output_token_throughput_per_user")):
        if isinstance(truth.get(per_record), (int, float)):
            truth.setdefault(active, {"avg": truth[per_record]})
    truth = token_truth(rm, om, truth)
    for tag in sorted(set(rm) & set(om)):
        r, o = rm[tag], om[tag]
        if r.get("unit") != o.get("unit"):
            emit(f"unit:{tag}", f"{tag}: unit ref {r.get('unit')!r}, ours {o.get('unit')!r}")
            continue
        unit = r["unit"]
        cls = tolerance_class(unit, tag)
        for stat in STATS:
            if stat not in r or stat not in o:
                continue
            a, b = r[stat], o[stat]
            if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
                continue
            unit_note = unit
            if stat == "sum" and r.get("count") and r.get("count") == o.get("count"):
                # A sum is count x mean: held to the tolerance of the mean it implies.
                a, b = a / r["count"], b / o["count"]
                unit_note = f"{unit} per record"
            if within(a, b, unit, cls):
                continue
            rel = f" ({(b - a) / a * 100:+.2f} %)" if a else ""
            suffix, note = "", ""
            # inter_chunk_latency's count is of chunks, not of records.
            t = truth_of(truth, tag, "avg" if stat == "sum" else stat)
            if t is not None:
                tcls = "latency" if stat == "std" and cls == "latency" else cls
                ref_ok = within(t, a, unit, tcls) if t else abs(to_ms(a, unit) if cls == "latency" else a) <= 0.2
                our_ok = within(t, b, unit, tcls) if t else abs(to_ms(b, unit) if cls == "latency" else b) <= 0.2
                note = f"; server truth {t:.6g}"
                if our_ok and not ref_ok:
                    suffix = ":ref-off"
                elif ref_ok and not our_ok:
                    suffix = ":ours-off"
                elif not ref_ok and not our_ok and t and tcls in ("latency", "throughput", "sweep") \
                        and abs(b - t) < abs(a - t) and within_scaled(t, b, unit, tcls, LOADED_SCALE):
                    # A loaded machine delays both clients past the truth: ours is the closer, and
                    # still within LOADED_SCALE tolerances of it.
                    suffix = ":ref-further"
            gated = stat == "avg" if cls == "sweep" else cls in ("exact", "energy") or stat in GATED_TIMING_STATS
            kind = "value" if gated else "value-tail"
            if kind == "value" and cls == "sweep" and t is None:
                # Without the scenario's truth (arrivals drawn by each tool's own generator, a
                # trace replayed on each tool's own clock, prompts of different lengths) a sweep
                # average integrates each tool's own timeline: reported, not held to the tolerance.
                kind = "value-sweep"
            noise = mean_noise(r, o) if cls not in ("exact", "energy") and stat in ("avg", "sum") else 0.0
            if kind == "value" and abs(a - b) <= noise:
                kind = "value-noise"
                note += f"; within 3 standard errors of the difference ({noise:.3g})"
            emit(f"{kind}:{tag}.{stat}{suffix}",
                 f"{tag}.{stat} [{unit_note}]: ref {a:.6g}, ours {b:.6g}{rel}; needs {RULES[cls]}{note}")


# ------------------------------------------------------------------------------------------------
# one tool's output


class Output:
    def __init__(self, root):
        self.root = root
        files = sorted(p for p in root.rglob("*") if p.is_file())
        self.art_dirs = sorted({p.parent.relative_to(root).as_posix() for p in files
                                if p.name.endswith(".json") and p.name.startswith("profile_export")
                                and p.parent.parent.name == "artifacts"})
        # The run's artifact directory: the one holding the summary (else none found).
        self.art = self.art_dirs[0] if self.art_dirs else None
        self.files = {}
        for p in files:
            rel = p.relative_to(root).as_posix()
            if self.art and rel.startswith(self.art + "/"):
                rel = "<artifact>/" + rel[len(self.art) + 1:]
            self.files[rel] = p

    def summary(self):
        p = self.files.get("<artifact>/profile_export_aiperf.json")
        return json.loads(p.read_text()) if p else None

    def records(self):
        p = self.files.get("<artifact>/profile_export.jsonl")
        return read_jsonl(p) if p else []


def video_urls(out):
    """Every video_url of the tool's inputs.json, in order."""
    p = out.files.get("<artifact>/inputs.json")
    if p is None:
        return []
    urls = []
    for session in json.loads(p.read_text()).get("data", []):
        for payload in session.get("payloads", []):
            for message in payload.get("messages", []):
                content = message.get("content")
                for part in content if isinstance(content, list) else []:
                    if part.get("type") == "video_url":
                        urls.append(part["video_url"]["url"])
    return urls


def ffmpeg_of_clip(url, work, name, cmd):
    """Runs `cmd` (ffprobe/ffmpeg arguments, "{file}" for the clip) on the clip of a data URL."""
    import base64
    clip = work / name
    clip.write_bytes(base64.b64decode(url.split(",", 1)[1]))
    return subprocess.run([a.replace("{file}", str(clip)) for a in cmd], capture_output=True, check=False).stdout


def video_check(ref, ours, emit, spec, work):
    """Both tools' clips decoded with ffprobe: container, codecs, size, frame rate, frame counts,
    duration, audio sample rate and channels identical; encoded sizes within a factor of 2; with
    frames_identical, the decoded video frames byte for byte."""
    rv, ov = video_urls(ref), video_urls(ours)
    if len(rv) != len(ov) or not rv:
        emit("video:count", f"video clips in inputs.json: ref {len(rv)}, ours {len(ov)}")
    probe = ["ffprobe", "-v", "error", "-show_entries",
             "stream=codec_type,codec_name,width,height,pix_fmt,r_frame_rate,nb_frames,sample_rate,channels:"
             "format=format_name,duration", "-of", "json", "{file}"]
    decode = ["ffmpeg", "-v", "error", "-i", "{file}", "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
    for i, (a, b) in enumerate(zip(rv, ov)):
        if a.split(",", 1)[0] != b.split(",", 1)[0]:
            emit(f"video:{i}:mime", f"clip {i}: ref {a.split(',', 1)[0]}, ours {b.split(',', 1)[0]}")
        pa = json.loads(ffmpeg_of_clip(a, work, "ref_clip", probe) or b"{}")
        pb = json.loads(ffmpeg_of_clip(b, work, "our_clip", probe) or b"{}")
        if pa != pb or not pa.get("streams"):
            emit(f"video:{i}:probe", f"clip {i} ffprobe:\n      ref  {pa}\n      ours {pb}")
        if not 0.5 <= len(b) / len(a) <= 2:
            emit(f"video:{i}:size", f"clip {i}: ref {len(a)} chars, ours {len(b)}")
        if spec.get("frames_identical"):
            fa = ffmpeg_of_clip(a, work, "ref_clip", decode)
            fb = ffmpeg_of_clip(b, work, "our_clip", decode)
            if fa != fb or not fa:
                emit(f"video:{i}:frames", f"clip {i}: decoded frames differ ({len(fa)} vs {len(fb)} bytes)")


def timeslice_check(out, slice_s, who, emit):
    """AIPerf 0.13's slicing rule, checked on one tool's own records: a grid anchored at the first
    profiling request start in steps of int(S * 1e9) ns (edges as float64), each record in the
    slice of its start, empty slices dropped, the last one ending at the run's last start or end
    (is_complete false when that cuts it short); both files list the same windows and the slices'
    request counts add up to the run's."""
    jp = out.files.get("<artifact>/profile_export_aiperf_timeslices.json")
    cp = out.files.get("<artifact>/profile_export_aiperf_timeslices.csv")
    if jp is None or cp is None:
        emit(f"timeslice:{who}:missing", f"{who}: no timeslice JSON/CSV")
        return
    slices = json.loads(jp.read_text()).get("timeslices", [])
    recs = [r["metadata"] for r in out.records()
            if r.get("metadata", {}).get("benchmark_phase", "profiling") == "profiling"]
    if not recs:
        emit(f"timeslice:{who}:no-records", f"{who}: no profiling records")
        return
    width = int(slice_s * 1e9)
    origin = float(min(m["request_start_ns"] for m in recs))
    last = max(float(max(m["request_start_ns"] for m in recs)), float(max(m["request_end_ns"] for m in recs)))
    n = int((last - origin) / width) + 1
    edges = [origin + float(i * width) for i in range(n + 1)]
    counts = {}
    for m in recs:
        x = float(m["request_start_ns"])
        i = max(j for j in range(n) if edges[j] <= x)
        counts[i] = counts.get(i, 0) + 1
    expected = []
    for i in sorted(counts):
        end = edges[i + 1] if edges[i + 1] <= last else last
        expected.append((int(edges[i]), int(end), edges[i + 1] <= last, counts[i]))
    got = [(s.get("start_ns"), s.get("end_ns"), s.get("is_complete", True),
            s.get("request_count", {}).get("avg", 0) + s.get("error_request_count", {}).get("avg", 0))
           for s in slices]
    if got != expected:
        emit(f"timeslice:{who}:rule", f"{who}: slices (start, end, complete, requests) {got}, expected {expected}")
    rows = list(csv.reader(io.StringIO(cp.read_text())))
    windows = sorted({(int(r[0]), int(r[1]), int(r[2])) for r in rows[1:] if r and r[0].isdigit()})
    if windows != [(i, s[0], s[1]) for i, s in enumerate(got)]:
        emit(f"timeslice:{who}:csv-windows", f"{who}: CSV windows {windows} differ from the JSON's")


ESTIMATE_KEYS = [f"p{p}_estimate" for p in (1, 5, 10, 25, 50, 75, 90, 95, 99)]


def server_metrics_estimate_check(out, who, emit, ref_python):
    """Each tool's histogram quantile estimates (server_metrics_export.json) are AIPerf 0.13's: its
    own estimator (ref_histogram_estimates.py, under the reference's interpreter) on the tool's own
    scrapes (server_metrics_export.jsonl) with the increases the tool exported. Both tools scrape
    at their own times, so their values differ; each must match 0.13 on its own history (to 1e-12
    relative), and write no estimates where 0.13 writes none."""
    jp = out.files.get("<artifact>/server_metrics_export.json")
    lp = out.files.get("<artifact>/server_metrics_export.jsonl")
    if not jp or not lp:
        return
    export = json.loads(jp.read_text())
    start_ns = export.get("summary", {}).get("phase_time_ranges", {}).get("profiling", {}).get("start_ns")
    if start_ns is None:
        emit(f"server-metrics:{who}:no-window", f"{who}: no summary.phase_time_ranges.profiling.start_ns")
        return
    scrapes = {}  # (endpoint, metric, labels) -> [[ts, sum, count, buckets]]
    for rec in read_jsonl(lp):
        for name, samples in rec.get("metrics", {}).items():
            for smp in samples:
                if "buckets" not in smp:
                    continue
                key = (rec["endpoint_url"], name, tuple(sorted((smp.get("labels") or {}).items())))
                scrapes.setdefault(key, []).append(
                    [rec["timestamp_ns"], smp.get("sum") or 0.0, smp.get("count") or 0.0, smp["buckets"]])
    cases, ids = [], []
    for name, fam in export.get("metrics", {}).items():
        if fam.get("type") != "histogram":
            continue
        for ser in fam.get("series", []):
            key = (ser.get("endpoint_url"), name, tuple(sorted((ser.get("labels") or {}).items())))
            label = name + ("{" + ",".join(f"{k}={v}" for k, v in key[2]) + "}" if key[2] else "")
            if key not in scrapes:
                emit(f"server-metrics:{who}:no-scrapes:{label}", f"{who}: {label} not in the jsonl")
                continue
            st = ser.get("stats", {})
            ids.append((label, {k: st[k] for k in ESTIMATE_KEYS if k in st}))
            cases.append({"scrapes": sorted(scrapes[key], key=lambda r: r[0]), "start_ns": start_ns,
                          "buckets": ser.get("buckets"), "sum": st.get("sum", 0.0), "count": st.get("count", 0)})
    if not cases:
        emit(f"server-metrics:{who}:no-histograms", f"{who}: no histogram series to check")
        return
    proc = subprocess.run([str(ref_python), str(HERE / "ref_histogram_estimates.py")], input=json.dumps(cases),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        emit(f"server-metrics:{who}:ref-failed", f"ref_histogram_estimates.py failed: {proc.stderr[-2000:]}")
        return
    for (label, got), want in zip(ids, json.loads(proc.stdout)):
        want = want or {}
        for k in ESTIMATE_KEYS:
            g, w = got.get(k), want.get(k)
            if g is None and w is None:
                continue
            if g is None or w is None or not math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-15):
                emit(f"server-metrics:{who}:estimate:{label}:{k}", f"{who}: {label} {k} {g}, AIPerf 0.13 on its scrapes: {w}")


def energy_check(out, concurrency, who, emit):
    """AIPerf 0.13's GPU energy-efficiency formulas (energy_efficiency_analyzer.py), checked on one
    tool's own summary: every nvidia_* metric is there with its unit and equals its formula over that
    tool's total energy E, average power P and run totals."""
    s = out.summary()
    if s is None:
        return
    units = {"total_gpu_power": "W", "average_gpu_power": "W", "total_gpu_energy": "J",
             "output_tokens_per_joule": "tokens/J", "energy_per_output_token": "mJ/token",
             "energy_per_total_token": "mJ/token", "energy_per_request": "joules/request",
             "energy_per_user": "joules/user", "energy_delay_product": "J*s",
             "performance_per_watt": "requests/sec/W", "output_tps_per_watt": "tokens/sec/W"}
    got = {}
    for name, unit in units.items():
        m = s.get("nvidia_" + name)
        if not isinstance(m, dict) or not isinstance(m.get("avg"), (int, float)):
            emit(f"energy:{who}:missing:nvidia_{name}", f"{who}: no nvidia_{name}")
            return
        if m.get("unit") != unit:
            emit(f"energy:{who}:unit:nvidia_{name}", f"{who}: nvidia_{name} unit {m.get('unit')!r}, expected {unit!r}")
        got[name] = m["avg"]

    def avg(tag):
        return s.get(tag, {}).get("avg", 0.0)

    e, p = got["total_gpu_energy"], got["average_gpu_power"]
    osl, isl, n, lat = avg("total_osl"), avg("total_isl"), avg("request_count"), avg("request_latency")
    if e <= 0 or p <= 0 or osl <= 0 or n <= 0:
        emit(f"energy:{who}:inputs", f"{who}: energy {e} J, power {p} W, {osl} output tokens, {n} requests")
        return
    expected = {"output_tokens_per_joule": osl / e, "energy_per_output_token": e * 1000 / osl,
                "energy_per_total_token": e * 1000 / (isl + osl), "energy_per_request": e / n,
                "energy_per_user": e / concurrency, "energy_delay_product": e / n * lat / 1000,
                "performance_per_watt": avg("request_throughput") / p,
                "output_tps_per_watt": avg("output_token_throughput") / p}
    for name, want in expected.items():
        if abs(got[name] - want) > 1e-9 * max(1.0, abs(want)):
            emit(f"energy:{who}:formula:nvidia_{name}", f"{who}: nvidia_{name} {got[name]!r}, formula gives {want!r}")


def schedule_check(ref, ours, tolerance_ms, emit):
    """Both tools sent the same profiling requests in the same order (conversation, turn; the same
    session where one tool's turns share one), each at the same offset from the first within
    `tolerance_ms`: AGENTIC_REPLAY's resumes, waits and recycled sessions."""
    def sends(out):
        recs = [r["metadata"] for r in out.records() if r["metadata"].get("benchmark_phase", "profiling") == "profiling"]
        recs.sort(key=lambda m: m["request_start_ns"])
        t0 = recs[0]["request_start_ns"] if recs else 0
        sessions = {}
        return [(m["conversation_id"], m["turn_index"], sessions.setdefault(m["x_correlation_id"], len(sessions)),
                 (m["request_start_ns"] - t0) / 1e6) for m in recs]
    r, o = sends(ref), sends(ours)
    if [x[:3] for x in r] != [x[:3] for x in o]:
        emit("schedule:order", f"sends (conversation, turn, session): ref {[x[:3] for x in r]}, ours {[x[:3] for x in o]}")
        return
    for (conv, turn, _, rt), (_, _, _, ot) in zip(r, o):
        if abs(rt - ot) > tolerance_ms:
            emit(f"schedule:{conv}:{turn}", f"{conv} turn {turn} sent at ref {rt:.1f} ms, ours {ot:.1f} ms "
                 f"(from the first send; needs {tolerance_ms} ms)")


def served_check(out, expected, who, emit):
    s = out.summary()
    if s is None:
        emit(f"served:{who}:no-summary", f"{who}: no profile_export_aiperf.json")
        return
    count = s.get("request_count", {}).get("avg")
    errors = s.get("error_request_count", {}).get("avg", 0)
    if count != expected or errors:
        emit(f"served:{who}:count", f"{who}: request_count {count}, error_request_count {errors}, expected {expected}")
    recs = [r for r in out.records() if r.get("metadata", {}).get("benchmark_phase", "profiling") == "profiling"]
    bad = [r for r in recs if "error" in r]
    if len(recs) != expected or bad:
        emit(f"served:{who}:records", f"{who}: {len(recs)} profiling records ({len(bad)} with error), expected {expected}")


def compare_outputs(ref, ours, emit, truth):
    if ref.art != ours.art:
        emit(f"dir:{ref.art}:{ours.art}", f"artifact directory: ref {ref.art}, ours {ours.art}")
    for side, a, b in (("only-ref", ref.files, ours.files), ("only-ours", ours.files, ref.files)):
        for rel in sorted(a):
            if rel not in b:
                emit(f"file:{rel}:{side}", f"file {rel} {side}")
    for rel in sorted(set(ref.files) & set(ours.files)):
        rp, op = ref.files[rel], ours.files[rel]
        if rel.endswith(".json"):
            try:
                rj, oj = json.loads(rp.read_text()), json.loads(op.read_text())
            except ValueError as e:
                emit(f"key:{rel}:unparsable", f"{rel}: not JSON: {e}")
                continue
            compare_trees(key_tree(rj), key_tree(oj), emit, rel)
        elif rel.endswith(".jsonl"):
            rt, ot = {}, {}
            for rec in read_jsonl(rp):
                key_tree(rec, "", rt)
            for rec in read_jsonl(op):
                key_tree(rec, "", ot)
            compare_trees(rt, ot, emit, rel)
        elif rel.endswith(".csv"):
            compare_csv(rp.read_text(), op.read_text(), emit, rel)
        elif rel.endswith(".log"):
            for who, p in (("ref", rp), ("ours", op)):
                lines = [l for l in p.read_text(errors="replace").splitlines() if l.strip()]
                heads = [l for l in lines if re.match(r"^\d{4}-\d{2}-\d{2} ", l)]
                badl = [l for l in heads if not LOG_LINE.match(l)]
                if not heads or badl:
                    emit(f"log:{rel}:{who}:format",
                         f"{rel} ({who}): {len(heads)} lines, {len(badl)} not 'YYYY-MM-DD HH:MM:SS.mmm - name - LEVEL - msg'"
                         + (f", e.g. {badl[0][:100]!r}" if badl else ""))
    rs, os_ = ref.summary(), ours.summary()
    if rs is not None and os_ is not None:
        compare_values(rs, os_, emit, truth)


# ------------------------------------------------------------------------------------------------


ACCURACY_FIELDS = ("task", "grader_name", "passed", "unparsed", "confidence", "expected", "actual", "explanation",
                   "model_output", "model_thinking", "benchmark_phase")


def inputs_equal_check(ref, ours, emit):
    """inputs.json value by value (session ids included): what each tool will send, from the same
    dataset and seed."""
    rp, op = ref.files.get("<artifact>/inputs.json"), ours.files.get("<artifact>/inputs.json")
    if rp is None or op is None:
        return  # the file check reports a missing file
    rd, od = json.loads(rp.read_text())["data"], json.loads(op.read_text())["data"]
    if len(rd) != len(od):
        emit("inputs:count", f"inputs.json sessions: ref {len(rd)}, ours {len(od)}")
    for i, (r, o) in enumerate(zip(rd, od)):
        if r != o:
            emit(f"inputs:session{i}", f"inputs.json session {i} differs:\n      ref  {json.dumps(r)[:400]}\n"
                                       f"      ours {json.dumps(o)[:400]}")


def accuracy_check(ref, ours, emit):
    """The accuracy files value by value: accuracy_results.csv byte for byte, each graded record's
    grade and texts (by session_num), and the accuracy.* results of the summary."""
    def text(out, rel):
        p = out.files.get(rel)
        return p.read_bytes() if p else None

    rc, oc = text(ref, "<artifact>/accuracy_results.csv"), text(ours, "<artifact>/accuracy_results.csv")
    if rc != oc:
        emit("accuracy:results_csv", f"accuracy_results.csv differs:\n      ref  {rc!r}\n      ours {oc!r}")
    recs = {}
    for who, out in (("ref", ref), ("ours", ours)):
        p = out.files.get("<artifact>/accuracy_export.jsonl")
        recs[who] = {r["session_num"]: r for r in read_jsonl(p)} if p else {}
    if sorted(recs["ref"]) != sorted(recs["ours"]):
        emit("accuracy:sessions", f"graded sessions: ref {sorted(recs['ref'])}, ours {sorted(recs['ours'])}")
    for n in sorted(set(recs["ref"]) & set(recs["ours"])):
        for f in ACCURACY_FIELDS:
            rv, ov = recs["ref"][n].get(f), recs["ours"][n].get(f)
            if rv != ov:
                emit(f"accuracy:record:{f}", f"session {n} {f}: ref {rv!r}, ours {ov!r}")
    rs, os_ = ref.summary() or {}, ours.summary() or {}
    for tag in sorted({k for k in (*rs, *os_) if k.startswith("accuracy.")}):
        if rs.get(tag) != os_.get(tag):
            emit(f"accuracy:summary:{tag}", f"{tag}: ref {rs.get(tag)}, ours {os_.get(tag)}")


def run_scenario(name, spec, args, tmp, known):
    diffs = []

    def emit(did, msg):
        diffs.append((f"{name}:{did}", msg))

    work = tmp / name
    work.mkdir(parents=True)
    mock = Mock(args.mock, spec.get("mock", []))
    times = {}
    try:
        common = [spec.get("tokenizer", a) if a == str(TOKENIZER) else a for a in COMMON]
        # "{url}" in a scenario's arguments is the mock's base URL (e.g. its DCGM exporter pages).
        tool_args = ["--url", mock.url, *common, *(a.replace("{url}", mock.url) for a in spec["args"])]
        ref_env = {**os.environ, **spec.get("env", {})}
        if "tokenizer" in spec:
            ref_env["TIKTOKEN_CACHE_DIR"] = str(tiktoken_cache(work / "tiktoken-cache"))
        # AIPerf 0.13 in offline mode looks a tokenizer path up as a Hub cache entry and fails on a
        # local directory; online it loads the directory without touching the network.
        ref_env.pop("HF_HUB_OFFLINE", None)
        ref_env.pop("TRANSFORMERS_OFFLINE", None)
        # A benchmark's datasets as ./<org>/<name> links to the fixture's snapshots, in both working
        # directories; the reference gets a fresh HF_HOME (`datasets` caches what it prepared by name).
        for repo in spec.get("datasets", []):
            hub = REPO / "tests" / "data" / "accuracy" / "hub" / ("datasets--" + repo.replace("/", "--"))
            if not hub.exists():  # the --public-dataset fixtures
                hub = REPO / "tests" / "data" / "public_datasets" / "hub" / ("datasets--" + repo.replace("/", "--"))
            snap = hub / "snapshots" / (hub / "refs" / "main").read_text().strip()
            for who in ("ref", "ours"):
                (work / who / repo).parent.mkdir(parents=True, exist_ok=True)
                (work / who / repo).symlink_to(snap, target_is_directory=True)
        for rel, src in spec.get("cache_files", {}).items():  # a public dataset's download cache
            for who in ("ref", "ours"):
                (work / who / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, work / who / rel)
        if spec.get("datasets"):
            ref_env["HF_HOME"] = str(work / "ref-hf-home")
            ref_env["HF_DATASETS_OFFLINE"] = "1"
        rc_ref, times["ref"] = run_tool(args.ref, tool_args, work / "ref", ref_env)
        rc_ours, times["ours"] = run_tool(args.aiperf, tool_args, work / "ours", {**os.environ, **spec.get("env", {})})
    finally:
        mock.stop()
    for who, rc in (("ref", rc_ref), ("ours", rc_ours)):
        if rc != 0:
            tail = (work / f"{who}.out").read_text(errors="replace").strip().splitlines()[-15:]
            emit(f"run:{who}:exit", f"{who} exited {rc}:\n      " + "\n      ".join(tail))
    ref, ours = Output(work / "ref"), Output(work / "ours")
    if "search" in spec:
        search_check(ref, ours, spec, emit)
        return diffs, times
    served_check(ref, spec["requests"], "ref", emit)
    served_check(ours, spec["requests"], "ours", emit)
    compare_outputs(ref, ours, emit, spec.get("truth", {}))
    if "schedule_ms" in spec:
        schedule_check(ref, ours, spec["schedule_ms"], emit)
    if spec.get("accuracy"):
        accuracy_check(ref, ours, emit)
    if spec.get("inputs_equal"):
        inputs_equal_check(ref, ours, emit)
    if "energy_concurrency" in spec:
        energy_check(ref, spec["energy_concurrency"], "ref", emit)
        energy_check(ours, spec["energy_concurrency"], "ours", emit)
    for who, out in (("ref", ref), ("ours", ours)):
        server_metrics_estimate_check(out, who, emit, args.ref_python)
    if "slice_duration" in spec:
        timeslice_check(ref, spec["slice_duration"], "ref", emit)
        timeslice_check(ours, spec["slice_duration"], "ours", emit)
    if "video" in spec:
        video_check(ref, ours, emit, spec["video"], work)
    return diffs, times


def search_files(root):
    """The search's files under art/, iteration numbers and probed values generalized
    (search_iter_*, aggregate/concurrency_*), without the per-run files (the other scenarios'
    subject) and logs."""
    out = set()
    art = root / "art"
    for p in art.rglob("*"):
        rel = p.relative_to(art).as_posix()
        if rel.startswith("logs") or "/profile_runs/run_" in rel:
            continue
        rel = re.sub(r"search_iter_\d{4}", "search_iter_*", rel)
        rel = re.sub(r"^aggregate/([a-z_]+?)_[0-9.]+(/|$)", r"aggregate/\1_*\2", rel)
        out.add(rel + ("/" if p.is_dir() else ""))
    return out


def search_check(ref, ours, spec, emit):
    """A search's files and keys on both sides; each side's history against its own runs (the
    variation's value in range, the verdict and objective from that iteration's summary, the best
    trial and boundary from the iterations); the chosen values compared, as accepted differences."""
    s = spec["search"]
    rfiles, ofiles = search_files(ref.root), search_files(ours.root)
    for path in sorted(rfiles - ofiles):
        emit(f"search-file:{path}:only-ref", f"{path} only in the reference's search")
    for path in sorted(ofiles - rfiles):
        emit(f"search-file:{path}:only-ours", f"{path} only in ours")
    docs = {}
    for who, out in (("ref", ref), ("ours", ours)):
        art = out.root / "art"
        hist = art / "search_history.json"
        if not hist.exists():
            emit(f"search:{who}:no-history", f"{who} wrote no search_history.json")
            return
        docs[who] = json.loads(hist.read_text())
        h = docs[who]
        iters = h["iterations"]
        if len(iters) != s["iterations"]:
            emit(f"search:{who}:iterations", f"{who}: {len(iters)} iterations, expected {s['iterations']}")
        metric, stat, threshold = s["sla"]
        feasible = []
        for i, it in enumerate(iters):
            v = it["variation_values"].get(s["path"])
            if not isinstance(v, int) or not s["lo"] <= v <= s["hi"]:
                emit(f"search:{who}:value-range", f"{who}: iteration {i} value {v!r} not an int in range")
            summary = json.loads((art / f"search_iter_{i:04d}" / "profile_runs" / "run_0001" /
                                  "profile_export_aiperf.json").read_text())
            ok = summary[metric][stat] < threshold
            if it["feasible"] != ok:
                emit(f"search:{who}:verdict", f"{who}: iteration {i} feasible={it['feasible']}, its run says {ok}")
            obj = summary[s["objective"][0]][s["objective"][1]]
            if not it["objective_values"] or abs(it["objective_values"][0] - obj) > 1e-9 * max(1.0, abs(obj)):
                emit(f"search:{who}:objective", f"{who}: iteration {i} objective {it['objective_values']}, run {obj}")
            if ok:
                feasible.append((it["objective_values"][0], i, v))
        best = h["best_trials"][0] if h["best_trials"] else None
        if feasible:
            want = max(feasible, key=lambda t: t[0])
            if not best or best["iteration_idx"] != want[1] or best["feasible_count"] != len(feasible):
                emit(f"search:{who}:best", f"{who}: best_trials {best}, expected iteration {want[1]}")
            fmax = (h["boundary_summary"] or {}).get("feasible_max") or {}
            if fmax.get("value") != max(t[2] for t in feasible):
                emit(f"search:{who}:boundary", f"{who}: boundary feasible_max {fmax}")
        if h["convergence_reason"] != "max_iterations":
            emit(f"search:{who}:reason", f"{who}: convergence_reason {h['convergence_reason']!r}")
    r, o = docs["ref"], docs["ours"]
    compare_trees(key_tree(r), key_tree(o), emit, "search_history.json")
    if r["config"] != o["config"]:
        emit("search:config", f"search_history.json config: ref {r['config']}, ours {o['config']}")
    for i, (a, b) in enumerate(zip(r["iterations"], o["iterations"])):
        if a["variation_values"] != b["variation_values"]:
            emit(f"search-value:iteration[{i}]", f"iteration {i}: ref {a['variation_values']}, ours {b['variation_values']}")
    for rel in ("search_checkpoint.json", "sweep_aggregate/profile_export_aiperf_sweep.json"):
        a, b = ref.root / "art" / rel, ours.root / "art" / rel
        if a.exists() and b.exists():
            compare_trees(key_tree(json.loads(a.read_text())), key_tree(json.loads(b.read_text())), emit, rel)
    for who, out in (("ref", ref), ("ours", ours)):
        aggs = sorted((out.root / "art" / "aggregate").glob("*/profile_export_aiperf_aggregate.json"))
        docs[who + "-agg"] = json.loads(aggs[0].read_text()) if aggs else {}
    compare_trees(key_tree(docs["ref-agg"]), key_tree(docs["ours-agg"]), emit, "aggregate/<point>/aggregate.json")


def classify(diffs, known, used):
    """Splits differences into (unlisted, listed); records which known entries matched."""
    unknown, accepted = [], []
    for did, msg in diffs:
        hits = [i for i, (pat, _, _) in enumerate(known) if matches(did, pat)]
        used.update(hits)
        (accepted if hits else unknown).append((did, msg))
    return unknown, accepted


def base_id(did):
    """A value difference's id without the :ref-off/:ours-off/:ref-further verdict, which may vary by run."""
    return did.removesuffix(":ref-off").removesuffix(":ours-off").removesuffix(":ref-further")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--aiperf", required=True, type=Path, help="our aiperf binary")
    ap.add_argument("--mock", required=True, type=Path, help="our aiperf-mock-server binary")
    ap.add_argument("--ref", type=Path, default=DEFAULT_REF, help="reference aiperf (default %(default)s)")
    ap.add_argument("--ref-python", type=Path, default=DEFAULT_REF_PYTHON,
                    help="the reference AIPerf's python (server-metrics estimates; default %(default)s)")
    ap.add_argument("--scenario", action="append", choices=sorted(SCENARIOS), help="run only these (repeatable)")
    ap.add_argument("--keep", type=Path, help="keep every run's working directory under this directory")
    ap.add_argument("--known", type=Path, default=KNOWN, help="accepted differences (default %(default)s)")
    ap.add_argument("-v", "--verbose", action="store_true", help="also print the accepted differences")
    args = ap.parse_args()
    for p in (args.aiperf, args.mock, args.ref):
        if not os.access(p, os.X_OK):
            print(f"scenarios: not executable: {p}", file=sys.stderr)
            return 2
    args.aiperf, args.mock = args.aiperf.resolve(), args.mock.resolve()

    for who, binary in (("reference", args.ref), ("ours", args.aiperf)):
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60)
        lines = (out.stdout or out.stderr).strip().splitlines()
        print(f"{who}: {binary}: {lines[-1] if lines else 'version unknown'}")
    known = load_known(args.known)
    used = set()
    names = args.scenario or list(SCENARIOS)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix="compat-", dir=args.keep))
    else:
        tmp = Path(tempfile.mkdtemp(prefix="aiperf-compat-"))
    start = time.time()
    results = {}
    try:
        for name in names:
            spec = SCENARIOS[name]
            print(f"--- {name}: {spec['about']}", flush=True)
            try:
                diffs, times = run_scenario(name, spec, args, tmp, known)
            except Exception as e:  # a harness failure is a failure of the scenario
                diffs, times = [(f"{name}:harness", f"harness error: {e!r}")], {}
            unknown, accepted = classify(diffs, known, used)
            for attempt in range(1, VALUE_RUNS):
                if not unknown or not all(":value:" in did for did, _ in unknown):
                    break
                # A timing value can be off in one run because the shared machine stalled a
                # process; a real difference is off in every run. Run the scenario again and keep
                # only what is off every time.
                print(f"  {len(unknown)} value differences; running {name} again", flush=True)
                again, _ = run_scenario(name, spec, args, tmp / f"again{attempt}", known)
                again_ids = {base_id(did) for did, _ in again}
                unknown = [(did, msg) for did, msg in unknown if base_id(did) in again_ids]
            results[name] = (unknown, accepted, times)
            for did, msg in unknown:
                print(f"  DIFF  {did}\n        {msg}")
            if args.verbose:
                for did, msg in accepted:
                    print(f"  known {did}\n        {msg}")
            t = " ".join(f"{k} {v:.1f}s" for k, v in times.items())
            print(f"  {name}: {'ok' if not unknown else 'FAIL'} ({len(unknown)} unlisted, {len(accepted)} listed"
                  f" differences; {t})", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)

    print("\n==== summary ====")
    for name, (unknown, accepted, _) in results.items():
        print(f"  {name:16} {'ok  ' if not unknown else 'FAIL'} {len(unknown):3} unlisted {len(accepted):4} listed")
    # A scenario-specific pattern is only stale if its scenario ran.
    stale = [(pat, n) for i, (pat, n, _) in enumerate(known)
             if i not in used and any(h in names or "*" in h or h not in SCENARIOS for h in pattern_scenarios(pat))]
    if stale:
        print(f"  stale entries in {args.known.name} (matched nothing in this run):")
        for pat, n in stale:
            print(f"    line {n}: {pat}")
    failed = any(u for u, _, _ in results.values())
    print(f"  total {time.time() - start:.0f}s; {'FAILED' if failed else 'passed'}"
          + (f"; kept in {tmp}" if args.keep else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
