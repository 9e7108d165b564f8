#!/usr/bin/env python3
"""Option coverage: which of the references' options and choice values our `aiperf` accepts.

  python3 tests/compat/options.py [--aiperf build/bin/aiperf]            # prints the summary
  python3 tests/compat/options.py --write-doc docs/compatibility.md      # regenerates the doc
  python3 tests/compat/options.py --check-doc docs/compatibility.md      # exit 1 if it is stale

1. The references' own help is read mechanically (ref_help.py): `aiperf profile` and every other
   AIPerf 0.13 command, `genai-perf profile` and GenAI-Perf 0.0.16's other subcommands.
2. For every option of `aiperf profile`, every spelling (long, short, --no- negative) gets a sample
   command line: a base (model, URL, the bundled gpt2 tokenizer), the companion options the option
   needs (SAMPLES below) and the option with a sample value. Every listed choice value gets one in
   each spelling tried: as listed, with underscores, with hyphens (and, when the reference takes
   none of these, with "gsm8-k" joined back to "gsm8k" and "multipart-form-data" as
   "multipart/form-data").
3. The reference must accept each sample: ref_parse.py parses and validates it in-process in the
   reference's own interpreter, running nothing. A sample it rejects is reported, never counted
   against us; only the choice spellings the reference accepts are asked of ours.
4. Ours runs each sample as its own process with `--dry-run` (parse and validate exactly as a run
   would, start and write nothing) and each result is classified: accepted, unknown option, choice
   value rejected, or another validation error (with its message).
5. Other commands: ours mostly has none; an option counts when our `<command> --help` lists every
   spelling of it (and its choices, when the reference lists some); a missing command counts 0 of N.
   `genai-perf profile` is checked like `aiperf profile`, against the command given by
   --genai-perf-ours (default: our `aiperf profile`, until we have a genai-perf entry point).

The output is sorted and carries no timestamps or temporary paths, so the doc is reproducible.
Stdlib only (python3 >= 3.9).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import ref_help  # noqa: E402

CACHE = ref_help.CACHE
TOKENIZER = os.path.join(REPO, "common", "tokenizer", "data", "gpt2")
REF_AIPERF_PYTHON = os.path.join(CACHE, "aiperf-0.13.0", "bin", "python")
REF_GENAI_PERF_PYTHON = os.path.join(CACHE, "genai-perf-0.0.16", "bin", "python")

# ------------------------------------------------------------------------------------------------
# Samples. "{tmp}" is the directory holding the sample input files (SAMPLE_FILES).
#
# SAMPLES[primary] = (value tokens, companion options). The value replaces the default guess
# (the option's first choice, else its listed default, else "1"); companions go before the
# option. An entry is here because the reference rejects the option without it, or because the
# option's help says it only works with them (a rankings endpoint, a trace file, streaming); never
# to suit ours.
_SEARCH = {"--search-space": ["phases.profiling.concurrency:1,8:int"], "--search-metric": ["output_token_throughput"],
           "--search-direction": ["maximize"], "--search-max-iterations": ["6"]}


def _search(option: str, value: list[str] | None = None, more: list[str] | None = None):
    """An adaptive-search option: the other search options it cannot go without, plus `more`."""
    needs = [t for k, v in _SEARCH.items() if k != option for t in [k] + v]
    return (value if value is not None else _SEARCH.get(option), needs + (more or []))


_ACCURACY = ["--accuracy-benchmark", "mmlu"]
_AGENTX = ["--input-file", "{tmp}/weka.jsonl", "--custom-dataset-type", "weka_trace", "--unsafe-override"]
_BASETEN = ["--input-file", "{tmp}/baseten.jsonl", "--custom-dataset-type", "baseten_trace"]
_MULTI_RUN = ["--num-profile-runs", "3"]
_TRACE = ["--input-file", "{tmp}/mooncake.jsonl", "--custom-dataset-type", "mooncake_trace"]
_OTEL = ["--otel-url", "http://127.0.0.1:4318"]
_MLFLOW = ["--mlflow-tracking-uri", "http://127.0.0.1:5000"]
_WANDB = ["--wandb-project", "p"]

SAMPLES: dict[str, tuple[list[str] | None, list[str]]] = {
    # Endpoint, input (the base options are replaced, not repeated)
    "--model-names": (["m"], []),
    "--url": (["http://127.0.0.1:9"], []),
    "--tokenizer": ([TOKENIZER], []),
    "--custom-endpoint": (["/v1/custom"], []),
    "--endpoint-type": (["chat"], []),
    "--wait-for-model-mode": (None, ["--wait-for-model-timeout", "5"]),
    "--reset-kv-cache-path": (["/reset_prefix_cache"], ["--reset-kv-cache"]),
    "--reset-kv-cache-timeout-seconds": (["5"], ["--reset-kv-cache"]),
    "--server-profiler-start-path": (["/start_profile"], ["--server-profiler"]),
    "--server-profiler-stop-path": (["/stop_profile"], ["--server-profiler"]),
    "--server-profiler-timeout-seconds": (["5"], ["--server-profiler"]),
    "--per-chunk-usage": (None, ["--streaming", "--use-server-token-count"]),
    "--request-content-type": (["application/json"], []),
    "--session-header": (["X-Session-ID"], []),
    "--extra-inputs": (["temperature:0.5"], []),
    "--header": (["X-Test:abc"], []),
    "--input-file": (["{tmp}/single_turn.jsonl"], []),
    "--custom-dataset-type": (["single_turn"], ["--input-file", "{tmp}/single_turn.jsonl"]),
    "--dataset-filter": (["category=coding"], ["--public-dataset", "sharegpt"]),
    "--hf-subset": (["sharegpt4o"], ["--public-dataset", "mmstar"]),
    "--hf-weka-dataset": (["semianalysisai/cc-traces-weka-061526"], []),
    "--max-context-length": (["1000"], ["--input-file", "{tmp}/weka.jsonl", "--custom-dataset-type", "weka_trace"]),
    "--trace-session-sample-ratio": (["0.5"], _BASETEN),
    "--ignore-trace-delays": (None, ["--input-file", "{tmp}/mooncake.jsonl", "--custom-dataset-type", "mooncake_trace"]),
    "--use-think-time-only": (None, ["--input-file", "{tmp}/weka.jsonl", "--custom-dataset-type", "weka_trace"]),
    # The scenario refuses any other name and, on a local weka_trace, runs only with --unsafe-override
    # (a synthetic dataset it refuses outright); the cache warmup (below) needs the scenario.
    "--scenario": (["inferencex-agentx-mvp"], _AGENTX),
    # Fixed schedule: replays a trace's timestamps.
    "--fixed-schedule": (None, _TRACE),
    "--no-fixed-schedule": (None, _TRACE),
    "--fixed-schedule-auto-offset": (None, _TRACE + ["--fixed-schedule"]),
    "--fixed-schedule-start-offset": (["0"], _TRACE + ["--fixed-schedule"]),
    "--fixed-schedule-end-offset": (["10"], _TRACE + ["--fixed-schedule"]),
    "--goodput": (["request_latency:250"], []),
    # Output
    "--stream": (["metrics"], _OTEL),
    "--otel-url": (["http://127.0.0.1:4318"], []),
    "--otel-resource-attributes": (["team=perf"], _OTEL),
    "--gen-ai-provider": (["openai"], _OTEL),
    "--mlflow-tracking-uri": (["http://127.0.0.1:5000"], []),
    "--mlflow-experiment": (["e"], _MLFLOW),
    "--mlflow-run-name": (["r"], _MLFLOW),
    "--mlflow-tag": (["team:perf", "owner:me"], _MLFLOW),  # the reference insists on exactly two
    "--mlflow-parent-run-id": (["abc"], _MLFLOW),
    "--mlflow-artifact-glob": (["*.json"], _MLFLOW),
    "--wandb-project": (["p"], []),
    "--wandb-entity": (["e"], _WANDB),
    "--wandb-run-name": (["r"], _WANDB),
    "--wandb-tag": (["t"], _WANDB),
    "--slice-duration": (["1"], []),
    "--gpu-telemetry": (["node1:9400"], []),
    "--server-metrics": (["node1:8081"], []),
    "--config": (["{tmp}/config.yaml"], []),
    # Load
    "--benchmark-duration": (["10"], []),
    "--benchmark-grace-period": (["5"], ["--benchmark-duration", "10"]),
    "--concurrency": (["4"], []),
    "--prefill-concurrency": (["1"], ["--streaming", "--concurrency", "2"]),
    "--request-rate": (["5"], []),
    "--request-count": (["20"], []),
    "--arrival-pattern": (["poisson"], ["--request-rate", "5"]),
    "--concurrency-ramp-duration": (["2"], ["--concurrency", "4"]),
    "--prefill-concurrency-ramp-duration": (["2"], ["--streaming", "--concurrency", "4", "--prefill-concurrency", "2"]),
    "--arrival-smoothness": (["1.5"], ["--request-rate", "5", "--arrival-pattern", "gamma"]),
    "--request-rate-ramp-duration": (["2"], ["--request-rate", "5"]),
    "--request-rate-series": (["{tmp}/rate_series.json"], []),
    "--agentic-cache-warmup-duration": (["5"], ["--scenario", "inferencex-agentx-mvp", *_AGENTX]),
    "--warmup-arrival-pattern": (["constant"], ["--warmup-request-count", "5", "--warmup-request-rate", "2"]),
    "--warmup-grace-period": (["5"], ["--warmup-duration", "5"]),
    "--user-centric-rate": (["1"], ["--num-users", "2", "--session-turns-mean", "2"]),
    "--num-users": (["2"], ["--user-centric-rate", "1", "--session-turns-mean", "2"]),
    "--request-cancellation-delay": (["0.5"], ["--request-cancellation-rate", "10"]),
    # Prefill concurrency needs first-token times (the reference says so for --prefill-concurrency).
    "--warmup-prefill-concurrency": (["1"], ["--streaming", "--warmup-request-count", "5", "--warmup-concurrency", "2"]),
    "--warmup-prefill-concurrency-ramp-duration": (["2"], ["--streaming", "--warmup-request-count", "5",
                                                           "--warmup-concurrency", "2", "--warmup-prefill-concurrency", "1"]),
    # Conversation input (baseten_trace replay)
    "--max-idle-gap-cap-seconds": (["5"], _BASETEN),
    "--replay-speedup": (["2"], _BASETEN),
    "--open-loop-replay": (None, _BASETEN),
    "--open-loop-strict": (None, _BASETEN),
    "--omit-kv-hints": (None, _BASETEN),
    "--force-min-tokens": (None, _BASETEN),
    # ISL / OSL / prompts
    "--seq-dist": (["256,128:60;512,256:40"], []),
    "--random-range-ratio": (["0.5"], ["--osl", "100"]),
    "--prompt-output-tokens-mean": (["100"], []),
    "--prompt-output-tokens-stddev": (["5"], ["--osl", "100"]),
    "--system-prompt": (["You are terse."], []),
    "--system-prompt-file": (["{tmp}/system_prompt.txt"], []),
    "--prompt-prefix-pool-size": (["2"], ["--prefix-prompt-length", "10"]),
    "--prompt-prefix-length": (["10"], ["--prefix-prompt-pool-size", "2"]),
    "--shared-system-prompt-length": (["10"], []),
    # Its help: "Requires --num-dataset-entries to be specified."
    "--user-context-prompt-length": (["10"], ["--num-dataset-entries", "10"]),
    # Rankings options only do something on a rankings endpoint.
    **{o: (["2"], ["--endpoint-type", "nim_rankings"]) for o in (
        "--rankings-passages-mean", "--rankings-passages-prompt-token-mean", "--rankings-query-prompt-token-mean")},
    "--rankings-passages-stddev": (["1"], ["--endpoint-type", "nim_rankings", "--rankings-passages-mean", "3"]),
    "--rankings-passages-prompt-token-stddev": (["1"], ["--endpoint-type", "nim_rankings",
                                                        "--rankings-passages-prompt-token-mean", "20"]),
    "--rankings-query-prompt-token-stddev": (["1"], ["--endpoint-type", "nim_rankings",
                                                     "--rankings-query-prompt-token-mean", "20"]),
    # Media
    "--audio-length-stddev": (["0.5"], ["--audio-length-mean", "1"]),
    "--image-width-mean": (["10"], ["--image-height-mean", "10"]),
    "--image-height-mean": (["10"], ["--image-width-mean", "10"]),
    "--image-width-stddev": (["2"], ["--image-width-mean", "10", "--image-height-mean", "10"]),
    "--image-height-stddev": (["2"], ["--image-width-mean", "10", "--image-height-mean", "10"]),
    "--video-audio-codec": (None, ["--video-audio-num-channels", "1"]),
    # Service, network latency
    "--api-host": (["127.0.0.1"], ["--api-port", "9999"]),
    "--network-latency-ping-interval": (["2"], ["--network-latency-automatic"]),
    # Accuracy
    **{o: (v, _ACCURACY) for o, v in (
        ("--accuracy-tasks", ["abstract_algebra"]), ("--accuracy-n-shots", ["2"]), ("--accuracy-enable-cot", None),
        ("--accuracy-grader", None), ("--accuracy-system-prompt", ["Answer."]), ("--accuracy-verbose", None))},
    # Multi-run, sweeps, search
    "--num-profile-runs": (["3"], []),
    "--profile-run-cooldown-seconds": (["1"], _MULTI_RUN),
    "--profile-run-disable-warmup-after-first": (None, _MULTI_RUN),
    "--set-consistent-seed": (None, _MULTI_RUN),
    "--vary-seed-per-trial": (None, _MULTI_RUN),
    "--confidence-level": (["0.9"], _MULTI_RUN),
    "--convergence-metric": (["request_latency"], _MULTI_RUN),
    "--convergence-stat": (None, _MULTI_RUN + ["--convergence-metric", "request_latency"]),
    "--convergence-threshold": (["0.1"], _MULTI_RUN + ["--convergence-metric", "request_latency"]),
    "--convergence-mode": (None, _MULTI_RUN + ["--convergence-metric", "request_latency"]),
    "--parameter-sweep-cooldown-seconds": (["1"], ["--concurrency", "1,2"]),
    "--parameter-sweep-same-seed": (None, ["--concurrency", "1,2", "--random-seed", "1"]),
    "--parameter-sweep-mode": (None, ["--concurrency", "1,2"]),
    "--sweep-type": (None, ["--concurrency", "1,2"]),
    "--no-sweep-table": (None, ["--concurrency", "1,2"]),
    **{o: _search(o) for o in _SEARCH},
    "--search-max-iterations": _search("--search-max-iterations", ["6"]),
    "--search-stat": _search("--search-stat"),
    "--search-initial-points": _search("--search-initial-points", ["2"]),
    "--search-random-seed": _search("--search-random-seed", ["1"]),
    "--search-planner": _search("--search-planner"),
    "--optuna-sampler": _search("--optuna-sampler", None, ["--search-planner", "optuna"]),
    "--optuna-acquisition": _search("--optuna-acquisition", None,
                                    ["--search-planner", "optuna", "--optuna-sampler", "botorch"]),
    "--optuna-terminator": _search("--optuna-terminator", None, ["--search-planner", "optuna"]),
    "--search-percentile-pooling": _search("--search-percentile-pooling", None, ["--search-stat", "p99"]),
    "--bo-constraint-mode": _search("--bo-constraint-mode"),
    "--search-sla": _search("--search-sla", ["time_to_first_token:p95:lt:200"]),
    "--search-sla-tier": _search("--search-sla-tier", ["fast:time_to_first_token:p95:lt:200"],
                                 ["--search-sla-tier", "slow:time_to_first_token:p95:lt:2000"]),
    "--variant": (["a: concurrency=1"], ["--variant", "b: concurrency=2"]),
    "--search-recipe": (["max-throughput-ttft-sla"], ["--ttft-sla-ms", "200", "--streaming"]),
    "--error-rate-sla": (["0.05"], []),
    "--slo-attainment-fraction": (["0.9"], []),
    "--degradation-threshold": (["0.2"], []),
    "--isl-steps": (["3"], []),
    "--concurrency-steps": (["3"], []),
    "--osl-steps": (["3"], []),
    "--isl-osl-pairs": (["128/128,512/256"], []),
}

# CHOICE_NEEDS[(primary, value with underscores)] = companions for that one choice value.
# "!--x" drops --x from the base command (a choice that cannot take it).
CHOICE_NEEDS: dict[tuple[str, str], list[str]] = {
    ("--endpoint-type", "audio_transcription"): ["!--tokenizer"],
    ("--endpoint-type", "image_retrieval"): ["!--tokenizer"],
    ("--endpoint-type", "template"): ["--extra-inputs", "payload_template:{tmp}/payload_template.json"],
    # Ours refuses raw without bodies on the command line; the reference only when loading them.
    ("--endpoint-type", "raw"): ["--input-file", "{tmp}/raw_payload.jsonl", "--custom-dataset-type", "raw_payload"],
    ("--public-dataset", "weka_hf"): ["--hf-weka-dataset", "semianalysisai/cc-traces-weka-061526"],
    ("--arrival-pattern", "concurrency_burst"): ["!--request-rate", "--concurrency", "4"],
    ("--cache-bust", "warmup_isolation_system"): ["--shared-system-prompt-length", "10"],
    ("--image-source-sampling", "shuffle_cycle"): ["--image-source", "assets"],
    ("--image-source-sampling", "sequential_cycle"): ["--image-source", "assets"],
    ("--request-content-type", "multipart_form_data"): ["--endpoint-type", "image_edit"],
    # A file of the type, in place of the option's single_turn sample.
    ("--custom-dataset-type", "bailian_trace"): ["!--input-file", "--input-file", "{tmp}/bailian.jsonl"],
    ("--custom-dataset-type", "baseten_trace"): ["!--input-file", "--input-file", "{tmp}/baseten.jsonl"],
    ("--custom-dataset-type", "mooncake_trace"): ["!--input-file", "--input-file", "{tmp}/mooncake.jsonl"],
    ("--custom-dataset-type", "multi_turn"): ["!--input-file", "--input-file", "{tmp}/multi_turn.jsonl"],
    ("--custom-dataset-type", "random_pool"): ["!--input-file", "--input-file", "{tmp}/random_pool"],
    ("--custom-dataset-type", "burst_gpt_trace"): ["!--input-file", "--input-file", "{tmp}/burst_gpt.csv"],
    ("--custom-dataset-type", "raw_payload"): ["!--input-file", "--input-file", "{tmp}/raw_payload.jsonl"],
    ("--custom-dataset-type", "inputs_json"): ["!--input-file", "--input-file", "{tmp}/inputs.json"],
    ("--custom-dataset-type", "sagemaker_data_capture"): ["!--input-file", "--input-file", "{tmp}/sagemaker.jsonl"],
    ("--custom-dataset-type", "weka_trace"): ["!--input-file", "--input-file", "{tmp}/weka.jsonl"],
    ("--custom-dataset-type", "dag_jsonl"): ["!--input-file", "--input-file", "{tmp}/dag.jsonl"],
    ("--custom-dataset-type", "tracelab"): ["!--input-file", "--input-file", "{tmp}/tracelab.jsonl"],
}

# The same for GenAI-Perf's options (checked against ours with the same argv).
GP_SAMPLES: dict[str, tuple[list[str] | None, list[str]]] = {
    "--model": (["m"], []),
    "--url": (["http://127.0.0.1:9"], []),
    "--tokenizer": ([TOKENIZER], []),
    "--server-metrics-url": (["http://127.0.0.1:8002/metrics"], []),
    "--goodput": (["request_latency:250"], []),
    "--input-file": (["{tmp}/single_turn.jsonl"], []),
    "--extra-inputs": (["temperature:0.5"], []),
    "--header": (["X-Test:abc"], []),
    "--endpoint": (["/v1/custom"], []),
    "--output-tokens-mean": (["100"], []),
    "--output-tokens-mean-deterministic": (None, ["--output-tokens-mean", "100"]),
    "--output-tokens-stddev": (["5"], ["--output-tokens-mean", "100"]),
    "--concurrency": (["4"], []),
    "--request-rate": (["5"], []),
    "--request-count": (["20"], []),
    "--audio-depths": (["16"], []),
    "--audio-sample-rates": (["16"], []),
    "--fixed-schedule": (["true"], ["--input-file", "{tmp}/mooncake.jsonl"]),
}
GP_CHOICE_NEEDS: dict[tuple[str, str], list[str]] = {
    # Triton over gRPC: a URL without a scheme (ours makes it grpc://), not the base's http:// one.
    ("--endpoint-type", "kserve"): ["!--url", "!--endpoint-type", "--url", "127.0.0.1:9"],
    ("--backend", "tensorrtllm"): ["!--url", "!--endpoint-type", "--url", "127.0.0.1:9", "--endpoint-type", "kserve"],
    ("--backend", "vllm"): ["!--url", "!--endpoint-type", "--url", "127.0.0.1:9", "--endpoint-type", "kserve"],
}

SAMPLE_FILES = {
    # Ours reads baseten traces as JSON Lines or Arrow IPC (no Parquet); a dry run loads the file.
    "baseten.jsonl": '{"timestamp_start_unix_ms": 1700000000000, "prompt": "hi", "input_tokens": 1, '
                     '"output_tokens": 2, "provided_session_id": "a", "duration_e2e_ms": 10}\n',
    "config.yaml": "schemaVersion: \"2.0\"\nbenchmark:\n  model: m\n  endpoint:\n    url: http://127.0.0.1:9\n"
                   "  dataset:\n    type: synthetic\n    entries: 10\n    prompts:\n      isl: 32\n      osl: 8\n"
                   "  phases:\n    type: concurrency\n    concurrency: 2\n    requests: 10\n",
    "payload_template.json": '{"model": "{{ model }}", "prompt": "{{ text }}"}\n',
    # A Weka trace is one JSON object per file; ours loads it in a dry run, so it must fit the schema.
    "weka.jsonl": '{"id": "t", "models": ["m"], "block_size": 16, "hash_id_scope": "local", "requests": '
                  '[{"t": 0, "type": "n", "model": "m", "in": 20, "out": 2, "hash_ids": [1]}]}\n',
    "single_turn.jsonl": '{"text": "Hello there"}\n{"text": "How are you?"}\n',
    "dag.jsonl": '{"session_id": "a", "turns": [{"messages": [{"role": "user", "content": "Hi"}]}]}\n',
    "tracelab.jsonl": '{"session_id": "s", "round_index": 0, "input_tokens_total": 20, "prefix_tokens": 0, '
                      '"newly_append_tokens": 20, "output_tokens": 2, "timing_events": [{"event_type": '
                      '"user_message", "timestamp": "2025-06-01T10:00:00Z"}]}\n',
    "multi_turn.jsonl": '{"session_id": "a", "turns": [{"text": "Hi"}, {"text": "More"}]}\n',
    "mooncake.jsonl": '{"timestamp": 0, "input_length": 20, "output_length": 5, "hash_ids": [1]}\n'
                      '{"timestamp": 10, "input_length": 20, "output_length": 5, "hash_ids": [1]}\n',
    "bailian.jsonl": '{"chat_id": 1, "timestamp": 0.0, "input_length": 16, "output_length": 5, "hash_ids": [1]}\n',
    "rate_series.json": '[{"time_s": 0, "qps": 1.0}, {"time_s": 10, "qps": 2.0}]\n',
    "system_prompt.txt": "You are a helpful assistant.\n",
    "random_pool/prompts.jsonl": '{"text": "Hello"}\n',
}
# SPEED-Bench: a row of every category, so each speed_bench_* type finds its rows (ours loads the
# file in a dry run and refuses a category it lacks).
_SPEED_BENCH_CATEGORIES = ("coding", "humanities", "math", "multilingual", "qa", "rag", "reasoning", "roleplay",
                           "stem", "summarization", "writing", "low_entropy", "mixed", "high_entropy")
SAMPLE_FILES["speed_bench.jsonl"] = "".join(
    json.dumps({"question_id": f"{i:032x}", "category": c, "messages": [{"role": "user", "content": "Hi"}]}) + "\n"
    for i, c in enumerate(_SPEED_BENCH_CATEGORIES))
for _t in ["qualitative", *_SPEED_BENCH_CATEGORIES[:11],
           *(f"throughput_{isl}{tier}" for isl in ("1k", "2k", "8k", "16k", "32k")
             for tier in ("", "_low_entropy", "_mixed", "_high_entropy"))]:
    # Keyed as listed too: the reference's help splits "1k" into "1-k".
    for _key in {"speed_bench_" + _t, re.sub(r"(\d)k", r"\1_k", "speed_bench_" + _t)}:
        CHOICE_NEEDS[("--custom-dataset-type", _key)] = ["!--input-file", "--input-file", "{tmp}/speed_bench.jsonl"]
# Dataset formats whose shape is long to spell here: the repository's own fixtures.
for _name, _fixture in (("burst_gpt.csv", "burst_gpt.csv"), ("raw_payload.jsonl", "raw_payload.jsonl"),
                        ("inputs.json", "inputs_json.json"), ("sagemaker.jsonl", "sagemaker_capture.jsonl")):
    with open(os.path.join(REPO, "tests", "data", "datasets", _fixture)) as _f:
        SAMPLE_FILES[_name] = _f.read()


def spelling_candidates(value: str) -> list[str]:
    """The spellings of a listed choice value tried first: as listed, '_' for '-', '-' for '_'."""
    out = [value]
    for v in (value.replace("-", "_"), value.replace("_", "-")):
        if v not in out:
            out.append(v)
    return out


def fallback_candidates(value: str) -> list[str]:
    """Tried only when the reference takes none of spelling_candidates: cyclopts' display splits
    "gsm8k" into "gsm8-k" and shows "multipart/form-data" as "multipart-form-data"."""
    joined = re.sub(r"(\d)-([a-z])\b", r"\1\2", value)
    out = []
    for v in (joined, joined.replace("-", "_"), value.replace("-", "/", 1)):
        if v not in out and v not in spelling_candidates(value):
            out.append(v)
    return out


def underscored(value: str) -> str:
    return value.replace("-", "_")


# ------------------------------------------------------------------------------------------------
# Running things


def run_ours(argv: list[str], cwd: str, timeout: float = 60) -> dict:
    env = dict(os.environ, HF_HUB_OFFLINE="1", NO_COLOR="1")
    for k in ("AIPERF_API_SERVER_PORT", "AIPERF_API_SERVER_HOST"):
        env.pop(k, None)
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=timeout)
        return {"rc": p.returncode, "out": p.stdout, "err": p.stderr}
    except subprocess.TimeoutExpired:
        return {"rc": -1, "out": "", "err": "timed out"}


def run_ref_parse(python: str, argvs: list[list[str]], cwd: str, chunks: int = 1) -> list[dict]:
    """ref_parse.py over `argvs`, split over `chunks` processes run at once."""
    if not argvs:
        return []
    size = (len(argvs) + chunks - 1) // chunks
    parts = [argvs[i:i + size] for i in range(0, len(argvs), size)]
    env = dict(os.environ, HF_HUB_OFFLINE="1", COLUMNS="200")
    procs = []
    for part in parts:
        procs.append(subprocess.Popen([python, os.path.join(HERE, "ref_parse.py")], cwd=cwd, env=env,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True))
    results: list[dict] = []
    for proc, part in zip(procs, parts):
        out, err = proc.communicate(json.dumps(part))
        if proc.returncode != 0:
            raise RuntimeError(f"ref_parse.py failed ({proc.returncode}): {err[-3000:]}")
        results.extend(json.loads(out))
    return results


class Normalizer:
    """Makes messages reproducible: temporary and repository paths become <tmp>, <repo>."""

    def __init__(self, tmp: str):
        self.tmp = tmp

    def __call__(self, text: str) -> str:
        text = text.replace(self.tmp, "<tmp>").replace(REPO, "<repo>")
        return re.sub(r"/tmp/aiperf-[A-Za-z0-9]{6}", "<ipc>", text)


def first_error_line(err: str) -> str:
    lines = [ln.strip() for ln in err.splitlines() if ln.strip()]
    for ln in lines:
        if ln.startswith("Error:") or "not expected" in ln or ln.startswith("--"):
            return ln[len("Error:"):].strip() if ln.startswith("Error:") else ln
    return lines[-1] if lines else ""


def classify_ours(res: dict, spelling: str, names: list[str]) -> tuple[str, str]:
    """(status, message): accepted | unknown-option | choice-rejected | rejected (any other error,
    including one about a companion option)."""
    if res["rc"] == 0:
        return "accepted", ""
    msg = first_error_line(res["err"])
    # CLI11 (aiperf) says "not expected"; our genai-perf front end, as argparse, "unrecognized arguments".
    m = re.search(r"(?:not expected|unrecognized arguments): (.*)", res["err"])
    if m and spelling in m.group(1).split():
        return "unknown-option", msg
    about_it = any(msg.startswith(n + ":") or msg.startswith(n + " ") for n in names)
    if about_it and re.search(r" not in \{|invalid value|not in \[", msg):
        return "choice-rejected", msg
    return "rejected", msg


# ------------------------------------------------------------------------------------------------
# Cases


def guess_value(opt: dict) -> list[str]:
    if opt["choices"]:  # the enum's own spelling; the listed one is tried in the second round
        return [underscored(opt["choices"][0])]
    d = opt.get("default")
    if d and d not in ("[]", "None") and not d.startswith("[") and " " not in d:
        return [d]
    if d and d.startswith("[") and d not in ("[]",):
        inner = d.strip("[]").split(",")[0].strip().strip("'\"")
        if inner:
            return [inner]
    return ["1"]


def sample_for(opt: dict, samples: dict, tmp: str) -> tuple[list[str], list[str]]:
    value, needs = samples.get(opt["primary"], (None, []))
    if value is None:
        value = guess_value(opt)
    fmt = lambda xs: [x.replace("{tmp}", tmp) for x in xs]  # noqa: E731
    return fmt(value), fmt(needs)


def option_forms(opt: dict, spelling: str, value: list[str], takes_value: bool) -> list[str]:
    if spelling in opt["negatives"] or not takes_value:
        return [spelling]
    return [spelling] + value


def without(args: list[str], names: list[str]) -> list[str]:
    """`args` less the options spelled in `names` and their values: the case gives its own."""
    out, i = [], 0
    while i < len(args):
        if args[i] in names:
            i += 1
            while i < len(args) and not args[i].startswith("-"):
                i += 1
            continue
        out.append(args[i])
        i += 1
    return out


def build_cases(cmd: dict, prefix: list[str], base_all: list[str], samples: dict, choice_needs: dict, tmp: str,
                ) -> list[dict]:
    """One case per spelling of every option, one per choice value and spelling candidate."""
    cases = []
    for sec in cmd["sections"]:
        for opt in sec["options"]:
            spellings = opt["names"]
            if not spellings:
                continue
            base = without(base_all, spellings)
            value, needs = sample_for(opt, samples, tmp)
            for sp in spellings:
                cases.append({"kind": "option", "section": sec["title"], "primary": opt["primary"], "spelling": sp,
                              "needs": needs, "value": value, "takes_value": opt["takes_value"], "base": base,
                              "argv": prefix + base + needs + option_forms(opt, sp, value, opt["takes_value"]),
                              "round": 1})
            for choice in opt["choices"] or []:
                cneeds = [x.replace("{tmp}", tmp) for x in choice_needs.get((opt["primary"], underscored(choice)), [])]
                drop = [x[1:] for x in cneeds if x.startswith("!")]
                cneeds = [x for x in cneeds if not x.startswith("!")]
                cbase = without(base, drop)
                cneeds_all = without(needs, drop) + cneeds
                for cand in spelling_candidates(choice):
                    cases.append({"kind": "choice", "section": sec["title"], "primary": opt["primary"],
                                  "spelling": opt["primary"], "choice": choice, "candidate": cand,
                                  "needs": cneeds_all, "base": cbase,
                                  "argv": prefix + cbase + cneeds_all + [opt["primary"], cand], "round": 1})
    return cases


def second_round(cases: list[dict], cmd: dict, prefix: list[str]) -> list[dict]:
    """What the reference rejected in the first round, retried: an option whose first choice it
    did not take in the enum's spelling, with the listed and fallback spellings; an option whose
    value it left unused (or missed), in the other form (flag or value); a choice value none of
    whose first spellings it took, with the fallback spellings."""
    opts = {o["primary"]: o for s in cmd["sections"] for o in s["options"]}
    more = []
    for c in cases:
        if c["kind"] != "option" or c["ref_ok"] or c["spelling"] in opts[c["primary"]]["negatives"]:
            continue
        o = opts[c["primary"]]
        if o["choices"] and c["takes_value"] and c["value"] == [underscored(o["choices"][0])]:
            for cand in spelling_candidates(o["choices"][0]) + fallback_candidates(o["choices"][0]):
                if [cand] != c["value"]:
                    more.append(dict(c, value=[cand], round=2, ref_ok=None,
                                     argv=prefix + c["base"] + c["needs"] + option_forms(o, c["spelling"], [cand], True)))
        if re.search(r"Unused Tokens|requires an argument|MissingArgument", c["ref_error"]):
            tv = not c["takes_value"]
            more.append(dict(c, takes_value=tv, round=2, ref_ok=None,
                             argv=prefix + c["base"] + c["needs"] + option_forms(o, c["spelling"], c["value"], tv)))
    by_choice: dict[tuple, list[dict]] = {}
    for c in cases:
        if c["kind"] == "choice":
            by_choice.setdefault((c["primary"], c["choice"]), []).append(c)
    for (primary, choice), cs in sorted(by_choice.items()):
        if any(c["ref_ok"] for c in cs):
            continue
        for cand in fallback_candidates(choice):
            more.append(dict(cs[0], candidate=cand, round=2, ref_ok=None,
                             argv=prefix + cs[0]["base"] + cs[0]["needs"] + [primary, cand]))
    return more


def evaluate(cmd: dict, ref_python: str, ref_prefix: list[str], ours_prefix: list[str], base: list[str],
             samples: dict, choice_needs: dict, tmp: str, jobs: int, norm: Normalizer) -> list[dict]:
    """Runs every case on the reference (ref_parse.py) and on ours (--dry-run), two rounds; each
    distinct argv once per side."""
    cases = build_cases(cmd, [], base, samples, choice_needs, tmp)
    names = {o["primary"]: o["names"] for sec in cmd["sections"] for o in sec["options"]}
    work = os.path.join(tmp, "cwd")
    os.makedirs(work, exist_ok=True)

    def run_round(batch: list[dict]) -> None:
        argvs = sorted({json.dumps(c["argv"]) for c in batch})
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            ours = {a: pool.submit(run_ours, ours_prefix + json.loads(a) + ["--dry-run"], work) for a in argvs}
            ref = dict(zip(argvs, run_ref_parse(ref_python, [ref_prefix + json.loads(a) for a in argvs], work)))
            for c in batch:
                a = json.dumps(c["argv"])
                c["ref_ok"] = ref[a]["ok"]
                c["ref_error"] = norm(ref[a].get("error", ""))
                status, msg = classify_ours(ours[a].result(), c["spelling"], names[c["primary"]])
                c["ours"] = status
                c["ours_error"] = norm(msg)

    run_round(cases)
    more = second_round(cases, cmd, [])
    if more:
        run_round(more)
    left = sorted(os.listdir(work))
    if left:
        raise RuntimeError(f"ours wrote {left} in its working directory during --dry-run")
    return cases + more


# ------------------------------------------------------------------------------------------------
# Results per option and per choice value


def summarize(cmd: dict, cases: list[dict], ours_names: set[str]) -> dict:
    """{section: {"options": [...], "choices": [...]}}: per option its spellings' results, per
    choice value the spellings the reference accepts and ours' result for each. A spelling counts
    as accepted when ours takes the sample, or rejects only its choice value (the option is known;
    the value is counted with the choice values). `ours_names`: the options our --help lists."""
    by_opt: dict[str, list[dict]] = {}
    by_choice: dict[tuple, list[dict]] = {}
    for c in cases:
        if c["kind"] == "option":
            by_opt.setdefault(c["primary"], []).append(c)
        else:
            by_choice.setdefault((c["primary"], c["choice"]), []).append(c)
    known = ("accepted", "choice-rejected")
    out = {}
    for sec in cmd["sections"]:
        opts, choices = [], []
        for opt in sec["options"]:
            if not opt["names"]:
                continue
            spell = {}
            for sp in opt["names"]:
                cs = [c for c in by_opt.get(opt["primary"], []) if c["spelling"] == sp]
                ok = sorted((c for c in cs if c["ref_ok"]), key=lambda c: known.index(c["ours"])
                            if c["ours"] in known else len(known))
                pick = ok[0] if ok else cs[-1]
                spell[sp] = {"ref_ok": bool(ok), "ours": pick["ours"], "ours_error": pick["ours_error"],
                             "ref_error": pick["ref_error"] if not ok else "", "in_help": sp in ours_names,
                             "argv": pick["argv"], "takes_value": pick["takes_value"],
                             "accepted": pick["ours"] in known}
            verified = all(s["ref_ok"] for s in spell.values())
            accepted = all(s["accepted"] for s in spell.values())
            opts.append({"primary": opt["primary"], "names": opt["names"], "spellings": spell,
                         "verified": verified, "accepted": accepted,
                         "any_accepted": any(s["accepted"] for s in spell.values())})
            for choice in opt["choices"] or []:
                cs = by_choice.get((opt["primary"], choice), [])
                ref_spellings = [c for c in cs if c["ref_ok"]]
                ours = {c["candidate"]: (c["ours"], c["ours_error"]) for c in ref_spellings}
                choices.append({
                    "primary": opt["primary"], "choice": choice,
                    "verified": bool(ref_spellings),
                    "ref_spellings": [c["candidate"] for c in ref_spellings],
                    "ref_error": "" if ref_spellings else (cs[-1]["ref_error"] if cs else ""),
                    "ours": ours,
                    "accepted": bool(ref_spellings) and all(s == "accepted" for s, _ in ours.values()),
                    "any_accepted": any(s == "accepted" for s, _ in ours.values()),
                    "ours_if_unverified": {c["candidate"]: c["ours"] for c in cs} if not ref_spellings else {},
                })
        out[sec["title"]] = {"options": opts, "choices": choices}
    return out


def counts(summary: dict) -> dict:
    n = {"opt": 0, "opt_ok": 0, "sp": 0, "sp_ok": 0, "ch": 0, "ch_ok": 0, "unverified": 0}
    for sec in summary.values():
        for o in sec["options"]:
            n["opt"] += 1
            n["opt_ok"] += o["accepted"]
            n["sp"] += len(o["spellings"])
            n["sp_ok"] += sum(s["accepted"] for s in o["spellings"].values())
            n["unverified"] += not o["verified"]
        for c in sec["choices"]:
            n["ch"] += 1
            n["ch_ok"] += c["accepted"]
            n["unverified"] += not c["verified"]
    return n


# ------------------------------------------------------------------------------------------------
# Our other commands, from their --help (CLI11)


def parse_cli11_help(text: str) -> dict:
    """{"options": {name: {"choices": [...] or None}}, "subcommands": [...]} from CLI11 help."""
    options: dict[str, dict] = {}
    subs: list[str] = []
    section = None
    for ln in text.splitlines():
        if re.match(r"^[A-Z][A-Za-z ]*:\s*$", ln) or re.match(r"^\S.*:$", ln):
            section = ln.strip().rstrip(":")
            continue
        m = re.match(r"^\s+(-\S.*?)(?:\s{2,}.*)?$", ln)
        if m and ln.lstrip().startswith("-"):
            head = m.group(1)
            names = re.findall(r"(?:^|[ ,])(--?[A-Za-z0-9][\w.-]*)", head)
            ch = re.search(r":\{([^}]*)\}", head)
            for n in names:
                options[n] = {"choices": ch.group(1).split(",") if ch else None}
            continue
        if section and section.upper().startswith("SUBCOMMAND"):
            sm = re.match(r"^\s+([a-z][\w-]*)\s", ln + " ")
            if sm:
                subs.append(sm.group(1))
    return {"options": options, "subcommands": sorted(set(subs))}


def ours_help(aiperf: list[str], path: list[str]) -> dict | None:
    p = subprocess.run(aiperf + path + ["--help"], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       timeout=60, env=dict(os.environ, COLUMNS="400"))
    if p.returncode != 0:
        return None
    return parse_cli11_help(p.stdout)


def help_coverage(ref_cmd: dict, ours: dict | None) -> dict:
    opts, choices = [], []
    for sec in ref_cmd["sections"]:
        for o in sec["options"]:
            if not o["names"]:
                continue
            have = [n for n in o["names"] if ours and n in ours["options"]]
            opts.append({"primary": o["primary"], "names": o["names"], "have": have,
                         "accepted": len(have) == len(o["names"]), "positional": o.get("positional")})
            listed = None
            if ours:
                for n in have:
                    if ours["options"][n]["choices"]:
                        listed = ours["options"][n]["choices"]
            for ch in o["choices"] or []:
                ok = bool(listed) and any(c in listed for c in spelling_candidates(ch))
                choices.append({"primary": o["primary"], "choice": ch, "accepted": ok,
                                "why": "" if ok else ("option missing" if not have else
                                                      "ours lists no choices" if not listed else "not listed")})
    return {"options": opts, "choices": choices}


def leaf_commands(tool: dict) -> list[str]:
    """Commands that take options themselves (groups like `kube` only hold commands)."""
    return sorted(p for p, c in tool["commands"].items()
                  if any(o["names"] for s in c["sections"] for o in s["options"]) or not c["subcommands"])


def other_commands(tool: dict, skip: set[str], aiperf: list[str], under: list[str] = ()) -> dict:
    """Each leaf command of `tool` against ours of the same path, below `under` (GenAI-Perf's
    commands are not AIPerf's: `genai-perf config` is checked as `aiperf genai-perf config`)."""
    under = list(under)
    ours_root = ours_help(aiperf, []) or {"subcommands": []}
    out = {}
    for path in leaf_commands(tool):
        if path in skip:
            continue
        words = under + path.split()
        have = words[0] in ours_root["subcommands"]
        ours = ours_help(aiperf, words) if have else None
        cov = help_coverage(tool["commands"][path], ours)
        cov["ours"] = ours is not None
        out[path] = cov
    return out


# ------------------------------------------------------------------------------------------------
# The document


def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a // b if b else 100}%)" if b else "0/0"


def md_code(s: str) -> str:
    return "`" + s.replace("`", "'") + "`"


def short_msg(s: str, n: int = 120) -> str:
    s = " ".join(s.split()).replace("|", "\\|")
    return s if len(s) <= n else s[: n - 1] + "…"


def missing_lines(summary: dict) -> list[str]:
    lines = []
    for title, sec in summary.items():
        items = []
        for o in sec["options"]:
            if o["accepted"]:
                continue
            bad = {sp: s for sp, s in o["spellings"].items() if not s["accepted"]}
            if len(bad) == len(o["spellings"]):
                st = sorted({s["ours"] for s in bad.values()})
                msg = next(iter(bad.values()))["ours_error"]
                if st == ["unknown-option"]:
                    items.append(f"- {md_code(o['primary'])}: unknown option")
                else:
                    unknown = "" if any(s["in_help"] for s in bad.values()) else "; ours has no such option"
                    items.append(f"- {md_code(o['primary'])}: rejected: {short_msg(msg)}{unknown}")
            else:
                for sp, s in sorted(bad.items()):
                    what = "unknown spelling" if s["ours"] == "unknown-option" else f"rejected: {short_msg(s['ours_error'])}"
                    items.append(f"- {md_code(sp)} (spelling of {md_code(o['primary'])}): {what}")
        by_opt: dict[str, list[dict]] = {}
        for c in sec["choices"]:
            if not c["accepted"] and c["verified"]:
                by_opt.setdefault(c["primary"], []).append(c)
        for primary, cs in by_opt.items():
            opt_missing = any(o["primary"] == primary and not o["any_accepted"] for o in sec["options"])
            if opt_missing:
                items.append(f"- {md_code(primary)} choices (option missing): "
                             + ", ".join(md_code(c["choice"]) for c in cs))
                continue
            parts = []
            for c in cs:
                bad = sorted((sp, st, msg) for sp, (st, msg) in c["ours"].items() if st != "accepted")
                good = sorted(sp for sp, (st, _) in c["ours"].items() if st == "accepted")
                if good:
                    parts.append(f"{md_code(c['choice'])} (ours rejects the spelling "
                                 + ", ".join(md_code(b[0]) for b in bad) + ")")
                else:
                    st, msg = bad[0][1], bad[0][2]
                    parts.append(f"{md_code(c['choice'])}" + ("" if st == "choice-rejected"
                                                              else f" ({st}: {short_msg(msg, 100)})"))
            items.append(f"- {md_code(primary)} choices: " + ", ".join(parts))
        if items:
            lines.append(f"### {title}")
            lines.append("")
            lines.extend(items)
            lines.append("")
    return lines


def unverified_lines(summary: dict, label: str) -> list[str]:
    out = []
    for title, sec in summary.items():
        for o in sec["options"]:
            for sp, s in o["spellings"].items():
                if not s["ref_ok"]:
                    out.append(f"- {label} {md_code(sp)} [{title}]: the reference rejects every sample tried: "
                               f"{short_msg(s['ref_error'], 200)}")
        for c in sec["choices"]:
            if not c["verified"]:
                out.append(f"- {label} {md_code(c['primary'] + ' ' + c['choice'])} [{title}]: the reference rejects "
                           f"every spelling tried: {short_msg(c['ref_error'], 200)}")
    return out


def quirk_lines(summary: dict) -> list[str]:
    """Listed choice spellings the reference itself does not accept."""
    out = []
    for title, sec in summary.items():
        for c in sec["choices"]:
            if c["verified"] and c["choice"] not in c["ref_spellings"]:
                out.append(f"- {md_code(c['primary'])} lists {md_code(c['choice'])} but accepts "
                           + " / ".join(md_code(s) for s in c["ref_spellings"]))
    return out


def render(data: dict) -> str:
    ref = data["ref"]
    a_ver, g_ver = ref["aiperf"]["version"], ref["genai-perf"]["version"]
    prof, gp = data["profile"], data["genai_perf_profile"]
    pc, gc = counts(prof), counts(gp)
    L = []
    L += ["# Compatibility: command-line options", "",
          "<!-- Generated by `python3 tests/compat/options.py --write-doc docs/compatibility.md`; do not edit. -->", "",
          f"References: **AIPerf {a_ver}** (`aiperf`) and **GenAI-Perf {g_ver}** (`genai-perf`), installed by "
          "`tests/compat/setup.sh`. What is checked is parsing and validation: every option name and every "
          "listed choice value of the references' own `--help`, given to our `aiperf` with `--dry-run`.", "",
          "## How it is measured", "",
          "1. `tests/compat/ref_help.py` reads the references' `--help` mechanically (AIPerf: `COLUMNS=400 aiperf "
          "<command> --help` for `profile` and every other command, recursively; GenAI-Perf: every subcommand): per "
          "section (the help panel or argument group), each option's spellings (long, short, `--no-` negatives), "
          "whether it takes a value, its `[choices: ...]` / `{a,b}`.",
          "2. `tests/compat/options.py` builds one sample command per spelling and per listed choice value: "
          "`--model m --url http://127.0.0.1:9 --tokenizer <repo>/common/tokenizer/data/gpt2`, the companion "
          "options the option needs (those the reference requires, or those its help says the option only works "
          "with, e.g. a trace file for `--fixed-schedule`), then the option and a sample value. Choice values are "
          "tried as listed, with underscores and with hyphens; when the reference takes none of these, as "
          "`gsm8k` for a listed `gsm8-k` and `multipart/form-data` for a listed `multipart-form-data`.",
          "3. `tests/compat/ref_parse.py` runs in the reference's own interpreter and tells whether the reference "
          "accepts each sample: AIPerf's cyclopts parse into `CLIConfig`, `resolve_config` and "
          "`build_benchmark_plan`; GenAI-Perf's `parser.parse_args` and `CreateConfig.create`. Nothing is run. "
          "A sample the reference rejects is listed at the end and not counted; only the choice spellings the "
          "reference accepts are asked of ours.",
          "4. Ours runs each sample as its own process, `aiperf profile ... --dry-run` (parses and validates as a "
          "run would, starts and writes nothing), and the result is classified: accepted, unknown option, choice "
          "value rejected, or rejected by another check (message shown). An option counts when ours accepts "
          "every spelling of it (a sample refused only for its choice value counts: the values are counted "
          "apart); a choice value counts when ours accepts every spelling of it that the reference accepts.",
          "5. Other commands: an option counts when our `aiperf <command> --help` lists every spelling of it (and "
          "the choice values, when the reference lists some); a command we do not have counts 0 of N.", "",
          "## Reproduce", "",
          "```",
          "bash tests/compat/setup.sh                                    # the references (cached)",
          "ninja -C build aiperf",
          "python3 tests/compat/options.py                               # coverage summary (~30 s)",
          "python3 tests/compat/options.py --write-doc docs/compatibility.md",
          "python3 tests/compat/options.py --check-doc docs/compatibility.md   # exit 1 if stale (tests/compat/run.sh)",
          "python3 tests/compat/ref_help.py -o ref_help.json             # the references' help as JSON",
          "```", ""]

    # Summary
    others = data["others"]
    o_opt = sum(len(c["options"]) for c in others.values())
    o_ok = sum(sum(o["accepted"] for o in c["options"]) for c in others.values())
    o_ch = sum(len(c["choices"]) for c in others.values())
    o_chok = sum(sum(x["accepted"] for x in c["choices"]) for c in others.values())
    g_others = data["genai_perf_others"]
    go_opt = sum(len(c["options"]) for c in g_others.values())
    go_ok = sum(sum(o["accepted"] for o in c["options"]) for c in g_others.values())
    L += ["## Summary", "",
          "| command | options (ours/theirs) | spellings | choice values |", "|---|---|---|---|",
          f"| `aiperf profile` | {pct(pc['opt_ok'], pc['opt'])} | {pct(pc['sp_ok'], pc['sp'])} | "
          f"{pct(pc['ch_ok'], pc['ch'])} |",
          f"| other `aiperf` commands ({len(others)}) | {pct(o_ok, o_opt)} | | {pct(o_chok, o_ch)} |",
          f"| `genai-perf profile` (against `{data['genai_perf_ours']}`) | {pct(gc['opt_ok'], gc['opt'])} | "
          f"{pct(gc['sp_ok'], gc['sp'])} | {pct(gc['ch_ok'], gc['ch'])} |",
          f"| other `genai-perf` subcommands ({len(g_others)}) | {pct(go_ok, go_opt)} | | |", ""]

    L += ["## `aiperf profile` per section", "",
          "| section | options | spellings | choice values |", "|---|---|---|---|"]
    for title, sec in prof.items():
        c = counts({title: sec})
        L.append(f"| {title} | {pct(c['opt_ok'], c['opt'])} | {pct(c['sp_ok'], c['sp'])} | "
                 f"{pct(c['ch_ok'], c['ch']) if c['ch'] else ''} |")
    L.append("")

    L += ["## Other `aiperf` commands", "",
          "| command | ours | options | choice values |", "|---|---|---|---|"]
    for path, c in others.items():
        n_ok = sum(o["accepted"] for o in c["options"])
        ch_ok = sum(x["accepted"] for x in c["choices"])
        L.append(f"| `{path}` | {'`aiperf ' + path + '`' if c['ours'] else 'missing'} | "
                 f"{pct(n_ok, len(c['options']))} | {pct(ch_ok, len(c['choices'])) if c['choices'] else ''} |")
    L.append("")

    L += ["## `genai-perf`", "",
          f"`genai-perf profile`'s options are checked against `{data['genai_perf_ours']}` (the same front end as "
          "our `genai-perf` symlink; options.py --genai-perf-ours switches the command under test) with "
          "`--endpoint-type chat` added to every sample, since the samples' dummy server is an HTTP one (GenAI-Perf's "
          "default type, kserve, is Triton over gRPC); its other subcommands against `aiperf genai-perf <command>`.", "",
          "| `genai-perf profile` section | options | spellings | choice values |", "|---|---|---|---|"]
    for title, sec in gp.items():
        c = counts({title: sec})
        L.append(f"| {title} | {pct(c['opt_ok'], c['opt'])} | {pct(c['sp_ok'], c['sp'])} | "
                 f"{pct(c['ch_ok'], c['ch']) if c['ch'] else ''} |")
    L += ["", "| `genai-perf` subcommand | ours | options |", "|---|---|---|"]
    for path, c in g_others.items():
        n_ok = sum(o["accepted"] for o in c["options"])
        L.append(f"| `{path}` | {'`aiperf genai-perf ' + path + '`' if c['ours'] else 'missing'} | "
                 f"{pct(n_ok, len(c['options']))} |")
    L.append("")

    L += ["## Missing in `aiperf profile`", "",
          "Options ours does not accept (unknown, or parsed but rejected with the message shown), then choice "
          "values (rejected by the option's check unless a message is shown).", ""]
    L += missing_lines(prof)
    L += [f"## Missing in `genai-perf profile` (against `{data['genai_perf_ours']}`)", ""]
    L += missing_lines(gp)
    L += ["## Missing in other commands", "",
          "A command we lack misses all its options; those it shares with the `profile` command of the same "
          "tool are counted, not repeated.", ""]
    shared = {"aiperf": {n for s in ref["aiperf"]["commands"]["profile"]["sections"] for o in s["options"]
                         for n in o["names"]},
              "genai-perf": {n for s in ref["genai-perf"]["commands"]["profile"]["sections"] for o in s["options"]
                             for n in o["names"]}}
    for path, c in list(others.items()) + [("genai-perf " + p, c) for p, c in g_others.items()]:
        miss = [o for o in c["options"] if not o["accepted"]]
        miss_ch = [x for x in c["choices"] if not x["accepted"] and x["why"] != "option missing"]
        if not miss and not miss_ch:
            continue
        tool = "genai-perf" if path.startswith("genai-perf ") else "aiperf"
        prefix = "" if tool == "genai-perf" else "aiperf "
        if not c["ours"]:
            own = [o for o in miss if o["primary"] not in shared[tool]]
            n_shared = len(miss) - len(own)
            text = ", ".join(md_code(o["primary"]) for o in own)
            if n_shared:
                text += (", and " if own else "") + f"the {n_shared} options it shares with `{tool} profile`"
            L.append(f"- `{prefix}{path}` (command missing): {text}")
            continue
        parts = []
        for o in miss:
            lack = [n for n in o["names"] if n not in o["have"]]
            parts.append(md_code(o["primary"]) if not o["have"] else
                         md_code(o["primary"]) + " (spelling " + ", ".join(md_code(n) for n in lack) + ")")
        for x in miss_ch:
            parts.append(md_code(x["primary"] + " " + x["choice"]) + f" ({x['why']})")
        L.append(f"- `{prefix}{path}`: " + ", ".join(parts))
    L.append("")

    quirks = quirk_lines(prof) + [q.replace("- ", "- genai-perf: ", 1) for q in quirk_lines(gp)]
    unver = unverified_lines(prof, "aiperf profile") + unverified_lines(gp, "genai-perf profile")
    L += ["## Reference behaviour found on the way", ""]
    L += ["Choice values the reference's help lists in a spelling it does not accept itself:", ""]
    L += quirks or ["- none"]
    L += ["", "Samples the reference rejected (not counted; a sample to add in options.py):", ""]
    L += unver or ["- none"]
    L.append("")
    return "\n".join(L)


# ------------------------------------------------------------------------------------------------


def make_files(tmp: str) -> None:
    for rel, text in SAMPLE_FILES.items():
        path = os.path.join(tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--aiperf", default=os.path.join(REPO, "build", "bin", "aiperf"), help="our binary")
    ap.add_argument("--genai-perf-ours", default=None,
                    help="our command checked against `genai-perf profile` (default: '<aiperf> genai-perf profile')")
    ap.add_argument("--ref-aiperf", default=ref_help.DEFAULT_REF_AIPERF)
    ap.add_argument("--ref-genai-perf", default=ref_help.DEFAULT_REF_GENAI_PERF)
    ap.add_argument("--ref-aiperf-python", default=REF_AIPERF_PYTHON)
    ap.add_argument("--ref-genai-perf-python", default=REF_GENAI_PERF_PYTHON)
    ap.add_argument("--ref-help", help="reuse this ref_help.py JSON instead of reading the help again")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--write-doc", metavar="FILE")
    g.add_argument("--check-doc", metavar="FILE")
    ap.add_argument("--json", metavar="FILE", help="also write every case and result here")
    ap.add_argument("-j", "--jobs", type=int, default=max(2, os.cpu_count() or 2), help="our processes at once")
    args = ap.parse_args()

    t0 = time.monotonic()
    aiperf = [os.path.abspath(args.aiperf)]
    if not os.access(aiperf[0], os.X_OK):
        print(f"options.py: {aiperf[0]} is not built (ninja -C build aiperf)", file=sys.stderr)
        return 2
    gp_ours = shlex.split(args.genai_perf_ours) if args.genai_perf_ours else aiperf + ["genai-perf", "profile"]
    for tool in (args.ref_aiperf, args.ref_genai_perf, args.ref_aiperf_python, args.ref_genai_perf_python):
        if not os.access(tool, os.X_OK):
            print(f"options.py: {tool} is missing (bash tests/compat/setup.sh)", file=sys.stderr)
            return 2

    if args.ref_help:
        with open(args.ref_help, encoding="utf-8") as f:
            ref = json.load(f)
    else:
        ref = ref_help.collect(args.ref_aiperf, args.ref_genai_perf, args.ref_aiperf_python)
    t_help = time.monotonic() - t0

    tmp = tempfile.mkdtemp(prefix="aiperf-compat-options-")
    try:
        make_files(tmp)
        norm = Normalizer(tmp)
        base = ["--model", "m", "--url", "http://127.0.0.1:9", "--tokenizer", TOKENIZER]
        prof_cases = evaluate(ref["aiperf"]["commands"]["profile"], args.ref_aiperf_python, ["profile"],
                              aiperf + ["profile"], base, SAMPLES, CHOICE_NEEDS, tmp, args.jobs, norm)
        # GenAI-Perf's default endpoint type is kserve (Triton over gRPC): the samples use chat, whose
        # server the dummy URL stands for.
        gp_cases = evaluate(ref["genai-perf"]["commands"]["profile"], args.ref_genai_perf_python, ["profile"],
                            gp_ours, base + ["--endpoint-type", "chat"], GP_SAMPLES, GP_CHOICE_NEEDS, tmp,
                            args.jobs, norm)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    ours_profile = ours_help(aiperf, ["profile"]) or {"options": {}}
    ours_gp = ours_help(gp_ours, []) or {"options": {}}
    data = {
        "ref": ref,
        "profile": summarize(ref["aiperf"]["commands"]["profile"], prof_cases, set(ours_profile["options"])),
        "genai_perf_profile": summarize(ref["genai-perf"]["commands"]["profile"], gp_cases, set(ours_gp["options"])),
        "others": other_commands(ref["aiperf"], {"profile"}, aiperf),
        "genai_perf_others": other_commands(ref["genai-perf"], {"profile"}, aiperf, ["genai-perf"]),
        "genai_perf_ours": " ".join(["aiperf"] + gp_ours[1:]) if gp_ours[0] == aiperf[0] else " ".join(gp_ours),
    }
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"data": data, "cases": {"profile": prof_cases, "genai-perf profile": gp_cases}}, f,
                      indent=1, sort_keys=True)
    doc = render(data)
    elapsed = time.monotonic() - t0

    pc, gc = counts(data["profile"]), counts(data["genai_perf_profile"])
    n_runs = len(prof_cases) + len(gp_cases)
    print(f"aiperf profile: options {pct(pc['opt_ok'], pc['opt'])}, spellings {pct(pc['sp_ok'], pc['sp'])}, "
          f"choice values {pct(pc['ch_ok'], pc['ch'])}; unverified samples {pc['unverified']}")
    for title, sec in data["profile"].items():
        c = counts({title: sec})
        print(f"  {title:32} options {pct(c['opt_ok'], c['opt']):16} choices {pct(c['ch_ok'], c['ch'])}")
    for path, c in data["others"].items():
        print(f"aiperf {path:30} {'ours' if c['ours'] else 'missing':8} options "
              f"{pct(sum(o['accepted'] for o in c['options']), len(c['options']))}")
    print(f"genai-perf profile vs {data['genai_perf_ours']}: options {pct(gc['opt_ok'], gc['opt'])}, "
          f"choice values {pct(gc['ch_ok'], gc['ch'])}; unverified samples {gc['unverified']}")
    for path, c in data["genai_perf_others"].items():
        print(f"genai-perf {path:26} {'ours' if c['ours'] else 'missing':8} options "
              f"{pct(sum(o['accepted'] for o in c['options']), len(c['options']))}")
    print(f"({n_runs} samples, each run on both sides; help {t_help:.1f}s, total {elapsed:.1f}s)", file=sys.stderr)

    if args.write_doc:
        with open(args.write_doc, "w", encoding="utf-8") as f:
            f.write(doc)
        print(f"wrote {args.write_doc}")
    elif args.check_doc:
        try:
            with open(args.check_doc, encoding="utf-8") as f:
                old = f.read()
        except FileNotFoundError:
            old = ""
        if old != doc:
            diff = list(difflib.unified_diff(old.splitlines(), doc.splitlines(), args.check_doc, "generated",
                                             lineterm=""))
            print("\n".join(diff[:80]))
            print(f"{args.check_doc} is stale: python3 tests/compat/options.py --write-doc {args.check_doc}",
                  file=sys.stderr)
            return 1
        print(f"{args.check_doc} is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
