#!/usr/bin/env python3
"""GenAI-Perf's files: the reference genai-perf 0.0.16 (driving perf_analyzer) and ours
(`genai-perf`, our aiperf binary under that name), same command lines, same mock server.

For each scenario this starts our mock server (fixed TTFT/ITL, exact output lengths), runs
`genai-perf profile <args>` with both tools, each in its own empty working directory and
without --artifact-dir (so GenAI-Perf's directory naming is compared too), then compares:

  dir     artifact directory names (artifacts/<model>-<service kind>-<type>-<load>)
  file    the relative file sets
  key     key trees (keys, nesting, JSON types) of every .json file both wrote, lists merged
          over their elements; the embedded request payload strings of profile_export.json are
          parsed and compared the same way
  config  input_config of profile_export_genai_perf.json, value for value
  csv     profile_export_genai_perf.csv: sections, header rows and row labels
  console the console table's row labels (first column) and title
  pa      profile_export.json: experiment, service_kind, endpoint, request count, responses per
          request, number of window boundaries
  value   the statistics of profile_export_genai_perf.json: counts (within COUNT_TOLERANCE for
          time-window scenarios, whose counts are measured), ISL and OSL exactly (every
          statistic); latencies (avg, p50) within 1 % or 0.3 ms (analyze CSV's p99s: 5 % or
          1 ms); throughputs (avg) within 2 %.
          A scenario whose only unaccepted differences are values (or console rows, which a wide
          value reshapes) runs up to twice more; only the metrics off every time count.
  run     exit status 0 for both (1 for both in FAILING scenarios, which must also both print
          perf_analyzer's failure lines: message)
  media   inputs.json's content parts per request (multimodal, vision, chat with media options):
          their types, each image's format and height (PNG/JPEG header), each clip's format,
          channels and bits (WAV header), compared as multisets (each tool draws its own)

`SESSIONS` scenarios (perf_analyzer's session concurrency mode, which the reference's
perf_analyzer 2.51 lacks) compare inputs.json's session rows with the reference's, check ours
sent every turn once with its history, and have the reference's process-export-files read our
run: its statistics and per-session statistics must equal ours (see SESSIONS).

`config` scenarios (CONFIGS) edit the reference's template and run `genai-perf config -f` with
it, compared as the others. `analyze` scenarios (ANALYZE) run `genai-perf analyze <args>` with both tools and compare each
sweep point's directory as above (dir, file, key, config, csv, pa, value), plus
analyze_export_genai_perf.csv (acsv): its header rows, the blank row and the GPU header, the
row names, and per row the load, ISL and dataset-entries columns exactly and the metrics within
the value tolerances. `create_template` runs `genai-perf create-template` (plain and -v) with
both tools in empty directories and compares the files byte for byte, the exit status and
what each printed (template). `process_export_files` profiles twice with the reference (6 and 4
requests), gives both tools the same two run directories and runs `genai-perf
process-export-files -d DIR` with each: the merged profile_export.json and the CSV byte for byte
(pe; the CSV's GPU rows in any order), the statistics within 1e-12 and the GPU telemetry
(pe: both runs carry DCGM-style telemetry_stats, run with -v so the GPU tables print too), the
per-session statistics (pe: the requests carry session ids, as in session runs), the
rest as a profile point (dir, file, key, config, console); then a missing directory, where both
must exit 1 and write nothing.
`process_export_files_triton` does the same with two of our kserve (Triton gRPC) profile runs,
their requests recorded as perf_analyzer records Triton's (tensors by name): the reference's
perf_analyzer cannot run against our mock's gRPC model, and 0.0.16 merges only kserve runs as
its profile writes them (it refuses the backend echoed for the other types).

`checkpoint_resume` (--enable-checkpointing): the reference sweeps concurrency 1:2; ours resumes
its checkpoint.json with 1:4 and must send only concurrency 4's 8 requests (the mock records
every request), print GenAI-Perf's "... found in checkpoint" line for the two others and keep
their CSV rows as the reference wrote them; the reference resumes the same way from its own
checkpoint (1:4): its new run config must equal ours in name, perf_analyzer command line and
GenAI-Perf parameters, the key trees of both files alike (ckpt, key); then the reference resumes
ours with 1:8 and must send only concurrency 8's requests, our three rows unchanged in its CSV.

Each difference has an id SCENARIO:KIND:FILE:DETAIL. The ones listed in KNOWN (with the reason)
are accepted; any other fails the run (exit 1).

  python3 tests/compat/genai_perf_scenarios.py --aiperf build/bin/aiperf \\
      --mock build/bin/aiperf-mock-server [--ref ~/.cache/aiperf-compat/bin/ref-genai-perf] \\
      [--scenario NAME ...] [--keep DIR] [-v]

Standard library only.
"""

import argparse
import base64
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from scenarios import Mock, TOKENIZER, ISL, OSL, TTFT_MS, ITL_MS  # noqa: E402  (the same mock and its timings)

DEFAULT_REF = Path.home() / ".cache" / "aiperf-compat" / "bin" / "ref-genai-perf"
RUN_TIMEOUT_S = 240

COMMON = ["-m", "m", "--tokenizer", str(TOKENIZER), "--random-seed", "42"]
SYNTHETIC = ["--synthetic-input-tokens-mean", str(ISL), "--synthetic-input-tokens-stddev", "0"]
OUTPUT = ["--output-tokens-mean", str(OSL), "--output-tokens-stddev", "0", "--extra-inputs", "ignore_eos:true"]

SCENARIOS = {
    "chat_stream": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "20",
                    *SYNTHETIC, *OUTPUT],
    "chat": ["--endpoint-type", "chat", "--concurrency", "2", "--request-count", "10", *SYNTHETIC, *OUTPUT],
    "completions": ["--endpoint-type", "completions", "--concurrency", "2", "--request-count", "10",
                    *SYNTHETIC, *OUTPUT],
    "completions_stream_default_count": ["--endpoint-type", "completions", "--streaming", "--concurrency", "3",
                                         *SYNTHETIC, *OUTPUT],
    "chat_stream_goodput_header_warmup": ["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count",
                                   "10", *SYNTHETIC, *OUTPUT, "--goodput", "request_latency:1000",
                                   "inter_token_latency:30", "-H", "X-Compat:1", "--warmup-request-count", "3"],
    "chat_input_file": ["--endpoint-type", "chat", "--concurrency", "1", "--request-count", "5",
                        "--input-file", "{prompts}", *OUTPUT],
    "embeddings_rate": ["--endpoint-type", "embeddings", "--request-rate", "5", "--request-count", "10",
                        *SYNTHETIC],
    # Images (two per request, jpeg, widths 32 +- 4) in multimodal requests; the same options on
    # chat make the images but send the text alone (GenAI-Perf's chat converter).
    "multimodal_image": ["--endpoint-type", "multimodal", "--concurrency", "2", "--request-count", "6",
                         "--num-dataset-entries", "3", *SYNTHETIC, *OUTPUT, "--image-width-mean", "32",
                         "--image-width-stddev", "4", "--image-height-mean", "24", "--image-format", "jpeg",
                         "--batch-size-image", "2"],
    "vision_stream_image_audio": ["--endpoint-type", "vision", "--streaming", "--concurrency", "2", "--request-count",
                                  "6", "--num-dataset-entries", "3", *SYNTHETIC, *OUTPUT, "--image-width-mean", "16",
                                  "--image-height-mean", "16", "--audio-length-mean", "0.2", "--audio-sample-rates",
                                  "8", "16", "--audio-depths", "16", "--audio-num-channels", "2"],
    "chat_media_ignored": ["--endpoint-type", "chat", "--concurrency", "1", "--request-count", "3",
                           "--num-dataset-entries", "3", *SYNTHETIC, *OUTPUT, "--image-width-mean", "16",
                           "--image-height-mean", "16", "--audio-length-mean", "0.2"],
    # perf_analyzer's time windows: 1.2 s each, the default stability percentage (999) stops at 3.
    "chat_stream_interval": ["--endpoint-type", "chat", "--streaming", "--concurrency", "4",
                             "--measurement-interval", "1000", *SYNTHETIC, *OUTPUT],
}

# Scenarios where perf_analyzer fails, and GenAI-Perf with it: both tools must exit 1, print these
# lines (perf_analyzer's, verbatim) and write inputs.json only. Here one ~200 ms request at a time
# meets 300 ms windows: they alternate 1 and 2 requests, never 3 alike within 10 %.
FAILING = {
    "chat_stream_interval_unstable": (
        ["--endpoint-type", "chat", "--streaming", "--concurrency", "1", "--measurement-interval", "250",
         "--stability-percentage", "10", *SYNTHETIC, "--output-tokens-mean", "1", "--output-tokens-stddev", "0",
         "--extra-inputs", "ignore_eos:true"],
        ["Failed to obtain stable measurement within 10 measurement windows for concurrency 1. Please try to "
         "increase the --measurement-interval.", "Failed to obtain stable measurement."]),
}

# Multi-turn sessions (perf_analyzer's session concurrency mode). The reference's perf_analyzer
# (2.51, the newest that runs on Debian 12) has no --session-concurrency: GenAI-Perf writes
# inputs.json, then perf_analyzer refuses the option and GenAI-Perf exits 1. So this scenario
# compares inputs.json (rows, sessions, turns, delays: exact with stddev 0) with the reference's,
# checks that ours exits 0 with every turn sent once and the history in each payload, and has
# the reference's own process-export-files read our run's files: its statistics and per-session
# statistics must equal ours (1e-12).
SESSIONS = {
    "chat_sessions": ["--endpoint-type", "chat", "--num-sessions", "4", "--session-concurrency", "2",
                      "--session-turns-mean", "3", "--session-turn-delay-mean", "50", *SYNTHETIC, *OUTPUT],
}
SESSION_REF_FAILURE = "perf_analyzer: unrecognized option '--session-concurrency'"

# Scenarios whose request counts are measured, not asked for: (relative, absolute) tolerance on
# request_count and on profile_export.json's request count. Time windows count the requests that
# ended within them; the two tools' first requests start a few ms apart relative to their windows,
# so a request at a window's edge may fall on either side (the number of windows is compared
# exactly).
COUNT_TOLERANCE = {
    "chat_stream_interval": (0.10, 2),
    "config_interval": (0.10, 2),
}

# `genai-perf analyze` scenarios: profile's options plus the sweep.
ANALYZE = {
    "analyze_concurrency": ["--endpoint-type", "chat", "--streaming", "--request-count", "8", *SYNTHETIC, *OUTPUT,
                            "--sweep-type", "concurrency", "--sweep-range", "1:2"],
}

# `genai-perf config -f FILE` scenarios: edits to the reference's own template (create-template),
# "{url}" and "{tokenizer}" filled in. GenAI-Perf 0.0.16 refuses its template's backend and
# output_tokens.deterministic for OpenAI types (and its stddev without a mean), so they are
# emptied (ours accepts them at the template's values).
CONFIGS = {
    "config_analyze": [("model_names: \n", "model_names: m\n"), ("type: kserve", "type: chat"),
                       ("streaming: False", "streaming: True"), ("url: localhost:8001", "url: {url}"),
                       ("backend: tensorrtllm", "backend: "), ("deterministic: False", "deterministic: "),
                       ("      mean: \n", f"      mean: {OSL}\n"),
                       ("stimulus: {'concurrency': 1}", "stimulus: {'concurrency': 2}"),
                       ("      num: \n", "      num: 8\n"), ("    name: \n", "    name: {tokenizer}\n"),
                       ("    mean: 550", f"    mean: {ISL}"), ("random_seed: 0", "random_seed: 42"),
                       ("extra: ", "extra: {ignore_eos: true}"),
                       ("  analyze:\n", "  analyze:\n    concurrency:\n      start: 1\n      stop: 2\n")],
    # perf_analyzer's time windows from the file (2.4 s each: ~12 requests, 3 windows within 80 %);
    # an integer percentage is echoed as one.
    "config_interval": [("model_names: \n", "model_names: m\n"), ("type: kserve", "type: chat"),
                        ("streaming: False", "streaming: True"), ("url: localhost:8001", "url: {url}"),
                        ("backend: tensorrtllm", "backend: "), ("deterministic: False", "deterministic: "),
                        ("      mean: \n", f"      mean: {OSL}\n"),
                        ("stimulus: {'concurrency': 1}", "stimulus: {'concurrency': 2}"),
                        ("mode: request_count", "mode: interval"), ("      num: \n", "      num: 2000\n"),
                        ("stability_percentage: 999", "stability_percentage: 80"),
                        ("    name: \n", "    name: {tokenizer}\n"), ("    mean: 550", f"    mean: {ISL}"),
                        ("random_seed: 0", "random_seed: 42"), ("extra: ", "extra: {ignore_eos: true}")],
}

# Accepted differences: id pattern -> reason.
KNOWN = {
    "*:file:logs/aiperf.log:only-ours":
        "ours keeps the engine's log under logs/ (GenAI-Perf writes no log file; perf_analyzer logs nothing)",
    "*:key:inputs.json:/data[]/payload[]/stream:only-ours":
        "non-streaming: our payload says \"stream\": false (AIPerf's payload); GenAI-Perf leaves it out",
    "*:key:profile_export.json:payload/stream:only-ours":
        "the same \"stream\": false, inside the payloads perf_analyzer records",
}


def known_pattern(d):
    """The KNOWN pattern matching id `d` ('*' is the only wildcard)."""
    for p in KNOWN:
        if re.fullmatch(".*".join(re.escape(x) for x in p.split("*")), d):
            return p
    return None


def tree(j):
    """Key tree: dicts by key, lists merged over their elements, leaves by JSON type."""
    if isinstance(j, dict):
        return {k: tree(v) for k, v in j.items()}
    if isinstance(j, list):
        merged = {}
        leaf = None
        for e in j:
            t = tree(e)
            if isinstance(t, dict):
                merged.update(t)
            else:
                leaf = t
        return ["list", merged if merged else leaf]
    if isinstance(j, bool):
        return "bool"
    if isinstance(j, (int, float)):
        return "number"
    if j is None:
        return "null"
    return type(j).__name__


def tree_diff(ref, ours, path, out):
    if isinstance(ref, dict) and isinstance(ours, dict):
        for k in list(ref) + [k for k in ours if k not in ref]:
            if k not in ours:
                out.append(f"{path}/{k}:only-ref")
            elif k not in ref:
                out.append(f"{path}/{k}:only-ours")
            else:
                tree_diff(ref[k], ours[k], f"{path}/{k}", out)
    elif isinstance(ref, list) and isinstance(ours, list):
        if ref[1] is not None and ours[1] is not None:
            tree_diff(ref[1], ours[1], path + "[]", out)
    elif ref != ours and "null" not in (ref, ours):
        out.append(f"{path}:type:{json.dumps(ref)[:40]}->{json.dumps(ours)[:40]}")


def run_tool(cmd, args, cwd, sub="profile"):
    cwd.mkdir(parents=True, exist_ok=True)
    out_path = cwd.parent / (cwd.name + ".out")
    with open(out_path, "w") as out:
        try:
            rc = subprocess.run([*cmd, sub, *args], cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT_S).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    return rc, out_path.read_text(errors="replace")


def files_of(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def console_rows(text):
    """Title and first-column labels of a rich table (wrapped labels joined)."""
    title = next((l.strip() for l in text.splitlines() if "NVIDIA GenAI-Perf" in l), None)
    labels, cur = [], []
    for line in text.splitlines():
        if line.startswith("│"):
            cells = line.split("│")
            name = cells[1].strip()
            if len(cells) > 2 and cells[2].strip():  # a row's first line has its avg value
                if cur:
                    labels.append(" ".join(cur))
                cur = [name]
            else:
                cur.append(name)
    if cur:
        labels.append(" ".join(cur))
    return title, labels


def close(metric, stat, r, o, count_tol=None):
    if metric == "request_count" and count_tol:
        return abs(r - o) <= max(count_tol[0] * abs(r), count_tol[1])
    if metric in ("request_count", "input_sequence_length", "output_sequence_length"):
        return r == o
    if metric in ("request_throughput", "request_goodput", "output_token_throughput", "output_token_throughput_per_user"):
        return abs(r - o) <= 0.02 * abs(r)
    if stat == "p99":
        # analyze_export_genai_perf.csv holds only p99s: of a point's few requests that is about
        # the slowest one, which on a loaded CI machine moves by a few ms from run to run (seen:
        # 205.94 vs 200.81 ms, three runs alike, while avg and p50 agreed within 1 %).
        return abs(r - o) <= max(0.05 * abs(r), 1.0)
    return abs(r - o) <= max(0.01 * abs(r), 0.3)


def compare(name, ref_dir, our_dir, ref_out, our_out, diffs):
    def add(kind, file, detail):
        diffs.append(f"{name}:{kind}:{file}:{detail}")

    ref_arts = sorted(p.name for p in (ref_dir / "artifacts").iterdir()) if (ref_dir / "artifacts").is_dir() else []
    our_arts = sorted(p.name for p in (our_dir / "artifacts").iterdir()) if (our_dir / "artifacts").is_dir() else []
    if ref_arts != our_arts:
        add("dir", "artifacts", f"{ref_arts}->{our_arts}")
    if not ref_arts or not our_arts:
        return
    # analyze: one directory per sweep point (the summary CSV beside them).
    for point in sorted(set(ref_arts) & set(our_arts)):
        if (ref_dir / "artifacts" / point).is_dir():
            compare_point(name if len(ref_arts) == 1 else f"{name}/{point}", ref_dir / "artifacts" / point,
                          our_dir / "artifacts" / point, diffs)
    a = "analyze_export_genai_perf.csv"
    if a in ref_arts and a in our_arts:
        compare_analyze_csv(ref_dir / "artifacts" / a, our_dir / "artifacts" / a, add)
    # Console table
    rt, rl = console_rows(ref_out)
    ot, ol = console_rows(our_out)
    if rt != ot:
        add("console", "stdout", f"title:{rt}->{ot}")
    if rl != ol:
        add("console", "stdout", f"rows:{rl}->{ol}")


ANALYZE_METRICS = {4: "time_to_first_token", 5: "inter_token_latency", 6: "request_latency",
                   7: "output_sequence_length", 8: "output_token_throughput", 9: "request_throughput"}


def compare_analyze_csv(ref_path, our_path, add):
    a = ref_path.name
    r_rows = list(csv.reader(io.StringIO(ref_path.read_bytes().decode())))
    o_rows = list(csv.reader(io.StringIO(our_path.read_bytes().decode())))
    if ref_path.read_bytes().count(b"\r\n") != our_path.read_bytes().count(b"\r\n"):
        add("acsv", a, "line endings")
    if not r_rows or not o_rows or r_rows[0] != o_rows[0]:
        add("acsv", a, f"header {r_rows[:1]}->{o_rows[:1]}")
        return
    blank_r = r_rows.index([]) if [] in r_rows else len(r_rows)
    blank_o = o_rows.index([]) if [] in o_rows else len(o_rows)
    if r_rows[blank_r:] != o_rows[blank_o:]:
        add("acsv", a, f"gpu section {r_rows[blank_r:]}->{o_rows[blank_o:]}")
    r_body = {r[0]: r for r in r_rows[1:blank_r]}
    o_body = {r[0]: r for r in o_rows[1:blank_o]}
    if sorted(r_body) != sorted(o_body):
        add("acsv", a, f"rows {sorted(r_body)}->{sorted(o_body)}")
    for row_name in sorted(set(r_body) & set(o_body)):
        r, o = r_body[row_name], o_body[row_name]
        if len(r) != len(o) or r[1:4] != o[1:4]:
            add("acsv", a, f"{row_name}:{r[1:4]}->{o[1:4]}")
            continue
        for col, metric in ANALYZE_METRICS.items():
            rv, ov = float(r[col]), float(o[col])
            if not close(metric, "p99", rv, ov):
                add("value", a, f"{row_name}.{metric}:{rv:.2f}->{ov:.2f}")


def compare_point(name, r_root, o_root, diffs):
    def add(kind, file, detail):
        diffs.append(f"{name}:{kind}:{file}:{detail}")

    count_tol = COUNT_TOLERANCE.get(name.split("/")[0])
    r_files, o_files = files_of(r_root), files_of(o_root)
    for f in sorted(set(r_files) | set(o_files)):
        if f not in o_files or f not in r_files:
            add("file", f, "only-ref" if f not in o_files else "only-ours")
    for f in sorted(set(r_files) & set(o_files)):
        if f.endswith(".json"):
            rj, oj = json.loads((r_root / f).read_text()), json.loads((o_root / f).read_text())
            out = []
            tree_diff(tree(rj), tree(oj), "", out)
            for d in out:
                add("key", f, d)
    # input_config, value for value
    g = "profile_export_genai_perf.json"
    if g in r_files and g in o_files:
        rj, oj = json.loads((r_root / g).read_text()), json.loads((o_root / g).read_text())
        rc, oc = rj.get("input_config", {}), oj.get("input_config", {})
        if json.dumps(rc, sort_keys=False) != json.dumps(oc, sort_keys=False):
            add("config", g, "input_config differs")
        if [k for k in rj if k != "input_config"] != [k for k in oj if k != "input_config"]:
            add("key", g, f"metric order {list(rj)}->{list(oj)}")
        for metric, stats in rj.items():
            if metric == "input_config" or metric not in oj:
                continue
            for stat in ("avg", "p50") if metric not in ("input_sequence_length", "output_sequence_length") \
                    else [s for s in stats if s != "unit"]:
                if stat in stats and stat in oj[metric] and \
                        not close(metric, stat, stats[stat], oj[metric][stat], count_tol):
                    add("value", g, f"{metric}.{stat}:{stats[stat]:.4f}->{oj[metric][stat]:.4f}")
            if stats.get("unit") != oj[metric].get("unit"):
                add("unit", g, f"{metric}:{stats.get('unit')}->{oj[metric].get('unit')}")
    # CSV layout
    c = "profile_export_genai_perf.csv"
    if c in r_files and c in o_files:
        r_rows = list(csv.reader(io.StringIO((r_root / c).read_bytes().decode())))
        o_rows = list(csv.reader(io.StringIO((o_root / c).read_bytes().decode())))
        r_shape = [(r[0] if r else "", len(r)) for r in r_rows]
        o_shape = [(r[0] if r else "", len(r)) for r in o_rows]
        if r_shape != o_shape:
            add("csv", c, f"rows {r_shape}->{o_shape}")
        if (r_root / c).read_bytes().count(b"\r\n") != (o_root / c).read_bytes().count(b"\r\n"):
            add("csv", c, "line endings")
    # profile_export.json (perf_analyzer's layout)
    p = "profile_export.json"
    if p in r_files and p in o_files:
        rj, oj = json.loads((r_root / p).read_text()), json.loads((o_root / p).read_text())
        for k in ("service_kind", "endpoint"):
            if rj.get(k) != oj.get(k):
                add("pa", p, f"{k}:{rj.get(k)}->{oj.get(k)}")
        re_, oe = rj["experiments"][0], oj["experiments"][0]
        if re_["experiment"] != oe["experiment"]:
            add("pa", p, f"experiment:{re_['experiment']}->{oe['experiment']}")
        if not close("request_count", "avg", len(re_["requests"]), len(oe["requests"]), count_tol):
            add("pa", p, f"requests:{len(re_['requests'])}->{len(oe['requests'])}")
        rw, ow = len(re_.get("window_boundaries", [])), len(oe.get("window_boundaries", []))
        if rw != ow:
            add("pa", p, f"window_boundaries:{rw}->{ow}")
        rn = sorted({len(r["response_outputs"]) for r in re_["requests"]})
        on = sorted({len(r["response_outputs"]) for r in oe["requests"]})
        if rn != on:
            add("pa", p, f"responses-per-request:{rn}->{on}")
        # The payload strings perf_analyzer recorded, compared as key trees (a Triton request
        # recorded as its tensors has none).
        rp = [json.loads(r["request_inputs"]["payload"]) for r in re_["requests"] if "payload" in r["request_inputs"]]
        op = [json.loads(r["request_inputs"]["payload"]) for r in oe["requests"] if "payload" in r["request_inputs"]]
        out = []
        tree_diff(tree(rp)[1], tree(op)[1], "payload", out)
        for d in out:
            add("key", p, d)
    compare_media(name, r_root, o_root, diffs)


def media_of(url_or_audio, kind):
    """What a request's image or clip is, from its bytes: (format, width, height) of a PNG or
    JPEG data URL; (format, channels, sample rate, bits) of a WAV clip."""
    if kind == "image_url":
        head, _, data = url_or_audio.partition(";base64,")
        b = base64.b64decode(data)
        if b[:8] == b"\x89PNG\r\n\x1a\n":
            return (head, int.from_bytes(b[16:20], "big"), int.from_bytes(b[20:24], "big"))
        i = 2
        while i + 9 < len(b):  # JPEG: the first start-of-frame marker holds the size
            marker, length = b[i + 1], int.from_bytes(b[i + 2:i + 4], "big")
            if marker in (0xC0, 0xC1, 0xC2):
                return (head, int.from_bytes(b[i + 7:i + 9], "big"), int.from_bytes(b[i + 5:i + 7], "big"))
            i += 2 + length
        return (head, None, None)
    b = base64.b64decode(url_or_audio["data"])
    if b[:4] == b"RIFF":
        return (url_or_audio["format"], int.from_bytes(b[22:24], "little"), int.from_bytes(b[24:28], "little"),
                int.from_bytes(b[34:36], "little"))
    return (url_or_audio["format"],)


def media_rows(inputs):
    """Per inputs.json row: the content parts' types and each medium's format and size."""
    rows = []
    for row in inputs["data"]:
        content = row["payload"][0].get("messages", [{}])[-1].get("content")
        if not isinstance(content, list):
            rows.append(("text",))
            continue
        rows.append(tuple(p["type"] if p["type"] == "text" else (p["type"], media_of(p[p["type"]] if p["type"] ==
                                                                                     "input_audio" else
                                                                                     p["image_url"]["url"], p["type"]))
                          for p in content))
    return rows


def compare_media(name, ref_root, our_root, diffs):
    """The media of the two tools' inputs.json: same parts per request and, where the options fix
    them, the same formats, sizes and audio layouts (as multisets: each tool draws its own)."""
    f = "inputs.json"
    if not (ref_root / f).exists() or not (our_root / f).exists():
        return
    r = media_rows(json.loads((ref_root / f).read_text()))
    o = media_rows(json.loads((our_root / f).read_text()))
    if len(r) != len(o):
        diffs.append(f"{name}:media:{f}:rows {len(r)}->{len(o)}")
    # Widths with a stddev vary: compare the images' formats and heights, and the widths' range.
    def fixed(rows):
        out = []
        for row in rows:
            # image: (type, data URL head, height); clip: (type, format, channels, bits); the
            # sample rate is drawn from the list given.
            out.append(tuple(p if isinstance(p, str) else
                             (p[0], p[1][0], *(p[1][2:] if p[0] == "image_url" else (p[1][1], p[1][3])))
                             for p in row))
        return sorted(out)
    if fixed(r) != fixed(o):
        diffs.append(f"{name}:media:{f}:{fixed(r)[:2]}->{fixed(o)[:2]}")


def compare_templates(ref, ours, work):
    """create-template with both tools, plain and -v: the files byte for byte, exit, output."""
    diffs = []
    for flags in ([], ["-v"]):
        label = "create_template" + ("_verbose" if flags else "")
        results = []
        for tool, cmd in (("ref", ref), ("ours", ours)):
            cwd = work / label / tool
            shutil.rmtree(cwd, ignore_errors=True)
            cwd.mkdir(parents=True)
            done = subprocess.run([str(cmd), "create-template", *flags], cwd=cwd, capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT_S)
            f = cwd / "genai_perf_config.yaml"
            results.append((done.returncode, done.stdout, f.read_bytes() if f.exists() else None))
        (r_rc, r_out, r_file), (o_rc, o_out, o_file) = results
        if r_rc != o_rc:
            diffs.append(f"{label}:template:exit:{r_rc}->{o_rc}")
        if r_out != o_out:
            diffs.append(f"{label}:template:stdout:{r_out[:60]!r}->{o_out[:60]!r}")
        if r_file != o_file:
            diffs.append(f"{label}:template:genai_perf_config.yaml:content differs")
    return diffs


# The reference's two profile runs that process_export_files merges (the goodput of the first
# run's input_config is computed again over the merged requests).
PROCESS_RUNS = [["--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", count,
                 *SYNTHETIC, *OUTPUT, "--goodput", "request_latency:1000", "time_to_first_token:200.5"]
                for count in ("6", "4")]


# process_export_files_triton: our kserve profile runs (the reference's perf_analyzer cannot run
# against our mock's gRPC model), merged by both tools.
PROCESS_RUNS_TRITON = [["--streaming", "--concurrency", "2", "--request-count", count, *SYNTHETIC,
                        "--output-tokens-mean", str(OSL)] for count in ("6", "4")]


class GrpcMock(Mock):
    """Our mock serving KServe gRPC too; .grpc is its host:port (a URL without a scheme, as
    GenAI-Perf users give Triton's)."""

    def __init__(self, binary):  # noqa: super().__init__ would not keep the gRPC line
        self.proc = subprocess.Popen([str(binary), "--port", "0", "--grpc-port", "0", "--ttft", str(TTFT_MS),
                                      "--itl", str(ITL_MS)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        self.url = self.grpc = None
        lines = []
        for line in self.proc.stdout:
            lines.append(line)
            m = re.search(r"gRPC listening on grpc://(\S+)", line)
            if m:
                self.grpc = m.group(1)
            m = re.search(r"listening on (http://\S+)", line)
            if m:
                self.url = m.group(1)
            if self.url and self.grpc:
                break
        if not (self.url and self.grpc):
            self.stop()
            raise RuntimeError("mock server did not start: " + "".join(lines))
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()


def triton_tensors(export):
    """Our profile records a Triton request as the KServe body it sent; perf_analyzer records its
    tensors by name ({"text_input": ..., "max_tokens": ...}), which GenAI-Perf reads."""
    j = json.loads(export.read_text())
    for r in j["experiments"][0]["requests"]:
        body = json.loads(r["request_inputs"]["payload"])
        r["request_inputs"] = {t["name"]: t["data"][0] for t in body["inputs"]}
    export.write_text(json.dumps(j))


def add_telemetry(gap_file, i):
    """GPU telemetry as GenAI-Perf writes it with a reachable DCGM exporter (our profile has none):
    two GPUs, every metric it reports, different per run so that means, maxima and the union of
    GPUs show."""
    j = json.loads(gap_file.read_text())
    config = j.pop("input_config")
    gpus = ["gpu0", "gpu1"] if i else ["gpu0"]
    per_gpu = lambda base: {g: {"avg": base + 10.25 * i + 0.5 * k} for k, g in enumerate(gpus)}
    j["telemetry_stats"] = {
        "gpu_power_usage": {"unit": "W", **per_gpu(100.0)},
        "gpu_power_limit": {"unit": "W", **per_gpu(300.0)},
        "energy_consumption": {"unit": "MJ", **per_gpu(1.5)},
        "gpu_utilization": {"unit": "%", **per_gpu(40.4)},
        "total_gpu_memory": {"unit": "GB", **per_gpu(80.0)},
        "gpu_memory_used": {"unit": "GB", **per_gpu(1234.5)},
    }
    j["input_config"] = config
    gap_file.write_text(json.dumps(j, indent=2))


def add_sessions(export):
    """Session ids as perf_analyzer records them for session runs (request_inputs.session_id):
    three sessions, each spanning both runs, so that "sessions" is computed."""
    j = json.loads(export.read_text())
    for i, r in enumerate(j["experiments"][0]["requests"]):
        r["request_inputs"]["session_id"] = f"session-{i % 3}"
    export.write_text(json.dumps(j))


def csv_rows_sorted(data):
    """A CSV's rows, each blank-line-separated section's body sorted: GenAI-Perf lists a metric's
    GPUs in a Python set's order (it varies from run to run)."""
    sections = data.decode().split("\r\n\r\n")
    return [s.split("\r\n")[:1] + sorted(s.split("\r\n")[1:]) for s in sections]


def gpu_tables(out):
    """The console's GPU tables (-v): their lines, from the first group title on."""
    lines = out.splitlines()
    start = next((i for i, l in enumerate(lines) if "NVIDIA GenAI-Perf | Power Metrics" in l), len(lines))
    return [l.rstrip() for l in lines[start:] if l[:1] in "┏┃┡│└" or "NVIDIA GenAI-Perf |" in l]


def process_input_dir(runs, root, edit_export=None, telemetry=False):
    """The runs as process-export-files reads them: one subdirectory each, holding the export
    pair only. GenAI-Perf takes the subdirectories, and in each the first .json file not named
    *_genai_perf, in the file system's listing order (ours: name order, and X.json beside
    X_genai_perf.json); so inputs.json stays out and the names are chosen to list in name order,
    which makes the merged request order the same for both. GenAI-Perf 0.0.16 also refuses the
    backend its own profile echoes in input_config unless the type is kserve ("The backend should
    only be used with ..."): the runs' files lose that key, and both tools read the same files."""
    for attempt in range(40):
        names = [f"run{attempt}a", f"run{attempt}b"]
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        for n in (names if attempt % 2 == 0 else names[::-1]):
            (root / n).mkdir()
        if [p.name for p in root.iterdir()] == names:
            break
    else:
        raise SystemExit(f"process_export_files: no two directory names list in name order under {root}")
    for run, name in zip(runs, names):
        for f in ("profile_export.json", "profile_export_genai_perf.json"):
            shutil.copy2(run / f, root / name / f)
        if edit_export:
            edit_export(root / name / "profile_export.json")
        g = root / name / "profile_export_genai_perf.json"
        j = json.loads(g.read_text())
        j["input_config"]["endpoint"].pop("backend", None)
        g.write_text(json.dumps(j, indent=2))
        if telemetry:
            add_telemetry(g, names.index(name))


def compare_process_export(ref, ours, mock_bin, work, triton=False):
    name = "process_export_files" + ("_triton" if triton else "")
    base = work / name
    shutil.rmtree(base, ignore_errors=True)
    diffs = []
    mock = GrpcMock(mock_bin) if triton else Mock(mock_bin, [])
    profiler, who = (ours, "ours") if triton else (ref, "ref")
    try:
        runs = []
        for i, scenario in enumerate(PROCESS_RUNS_TRITON if triton else PROCESS_RUNS):
            args = ["-u", mock.grpc if triton else mock.url, *COMMON, *scenario, "--artifact-dir",
                    str(base / "runs" / str(i))]
            rc, out = run_tool([str(profiler)], args, base / "runs" / f"cwd{i}")
            if rc != 0:
                print(out[-3000:])
                return [f"{name}:run:{who}-profile:exit {rc}"]
            runs.append(next(p for p in (base / "runs" / str(i)).iterdir() if p.is_dir()))
    finally:
        mock.stop()
    process_input_dir(runs, base / "input", triton_tensors if triton else add_sessions, telemetry=not triton)
    flags = [] if triton else ["-v"]  # -v: the GPU tables too
    print(f"[{name}] genai-perf process-export-files -d {base / 'input'} {' '.join(flags)}", flush=True)
    results = {}
    for tool, cmd in (("ref", ref), ("ours", ours)):
        results[tool] = run_tool([str(cmd)], ["-d", str(base / "input"), *flags], base / tool, "process-export-files")
        if results[tool][0] != 0:
            diffs.append(f"{name}:run:{tool}:exit {results[tool][0]}")
            print(results[tool][1][-3000:])
    compare(name, base / "ref", base / "ours", results["ref"][1], results["ours"][1], diffs)
    r_arts, o_arts = base / "ref" / "artifacts", base / "ours" / "artifacts"
    for point in sorted(p.name for p in r_arts.iterdir()) if r_arts.is_dir() else []:
        r, o = r_arts / point, o_arts / point
        f = "profile_export.json"
        if (r / f).exists() and (o / f).exists() and (r / f).read_bytes() != (o / f).read_bytes():
            diffs.append(f"{name}:pe:{f}:bytes differ")
        f = "profile_export_genai_perf.csv"
        if (r / f).exists() and (o / f).exists() and (r / f).read_bytes() != (o / f).read_bytes() and \
                csv_rows_sorted((r / f).read_bytes()) != csv_rows_sorted((o / f).read_bytes()):
            diffs.append(f"{name}:pe:{f}:rows differ")
        g = "profile_export_genai_perf.json"
        if (r / g).exists() and (o / g).exists():
            rj, oj = json.loads((r / g).read_text()), json.loads((o / g).read_text())
            if rj.get("telemetry_stats") != oj.get("telemetry_stats"):
                diffs.append(f"{name}:pe:{g}:telemetry_stats {rj.get('telemetry_stats')}->{oj.get('telemetry_stats')}")
            if list(rj.get("sessions", {})) != list(oj.get("sessions", {})):
                diffs.append(f"{name}:pe:{g}:sessions {list(rj.get('sessions', {}))}->{list(oj.get('sessions', {}))}")
            blocks = [("", rj, oj)] + [(f"sessions.{k}.", v, oj["sessions"][k])
                                       for k, v in rj.get("sessions", {}).items() if k in oj.get("sessions", {})]
            for prefix, rb, ob in blocks:
                if [k for k in rb if k not in ("input_config", "sessions")] != \
                        [k for k in ob if k not in ("input_config", "sessions")]:
                    diffs.append(f"{name}:pe:{g}:{prefix}keys {list(rb)}->{list(ob)}")
                for metric, stats in rb.items():
                    if metric in ("input_config", "telemetry_stats", "sessions"):
                        continue
                    for stat, rv in stats.items():
                        ov = ob.get(metric, {}).get(stat)
                        if stat == "unit" or ov is None:
                            continue
                        if abs(rv - ov) > 1e-12 * max(abs(rv), 1.0):
                            diffs.append(f"{name}:pe:{g}:{prefix}{metric}.{stat}:{rv!r}->{ov!r}")
    if gpu_tables(results["ref"][1]) != gpu_tables(results["ours"][1]):
        diffs.append(f"{name}:console:stdout:GPU tables {gpu_tables(results['ref'][1])[:3]}->"
                     f"{gpu_tables(results['ours'][1])[:3]}")
    # A directory that does not exist: exit 1 from both, nothing written.
    for tool, cmd in () if triton else (("ref", ref), ("ours", ours)):
        cwd = base / f"{tool}_missing"
        rc, out = run_tool([str(cmd)], ["-d", str(base / "nope")], cwd, "process-export-files")
        if rc != 1:
            diffs.append(f"{name}:run:{tool}-missing-dir:exit {rc}")
        if "is not a valid directory" not in out:
            diffs.append(f"{name}:message:{tool}-missing-dir:no 'is not a valid directory'")
        if any(cwd.iterdir()):
            diffs.append(f"{name}:file:{tool}-missing-dir:wrote {files_of(cwd)}")
    return diffs


def compare_sessions(name, ref, ours, mock_bin, work):
    """A session scenario (SESSIONS): see there."""
    base = work / name
    shutil.rmtree(base, ignore_errors=True)
    diffs = []
    mock = Mock(mock_bin, [])
    try:
        args = ["-u", mock.url, *COMMON, *SESSIONS[name]]
        print(f"[{name}] genai-perf profile {' '.join(args)}", flush=True)
        ref_rc, ref_out = run_tool([str(ref)], args, base / "ref")
        our_rc, our_out = run_tool([str(ours)], args, base / "ours")
    finally:
        mock.stop()
    if ref_rc != 1 or SESSION_REF_FAILURE not in ref_out:
        diffs.append(f"{name}:run:ref:exit {ref_rc} (expected 1 with {SESSION_REF_FAILURE!r})")
    if our_rc != 0:
        diffs.append(f"{name}:run:ours:exit {our_rc}")
        print(our_out[-3000:])
    r_arts = sorted(p.name for p in (base / "ref" / "artifacts").iterdir()) if (base / "ref" / "artifacts").is_dir() else []
    o_arts = sorted(p.name for p in (base / "ours" / "artifacts").iterdir()) if (base / "ours" / "artifacts").is_dir() else []
    if r_arts != o_arts:
        diffs.append(f"{name}:dir:artifacts:{r_arts}->{o_arts}")
    if not r_arts or not o_arts or our_rc != 0:
        return diffs
    r_dir, o_dir = base / "ref" / "artifacts" / r_arts[0], base / "ours" / "artifacts" / o_arts[0]
    # inputs.json: the same rows, keys, sessions (in order, ids aside), turns and delays.
    rj, oj = json.loads((r_dir / "inputs.json").read_text()), json.loads((o_dir / "inputs.json").read_text())
    out = []
    tree_diff(tree(rj), tree(oj), "", out)
    diffs += [f"{name}:key:inputs.json:{d}" for d in out]

    def shape(inputs):
        ids, rows = [], []
        for row in inputs["data"]:
            sid = row["session_id"][0]
            if sid not in ids:
                ids.append(sid)
            rows.append((ids.index(sid), row.get("delay"), len(row["payload"][0]["messages"])))
        return rows
    if shape(rj) != shape(oj):
        diffs.append(f"{name}:value:inputs.json:sessions {shape(rj)}->{shape(oj)}")
    # Ours sent every turn once, each with the conversation so far (user and assistant messages).
    pa = json.loads((o_dir / "profile_export.json").read_text())
    reqs = pa["experiments"][0]["requests"]
    if len(reqs) != len(oj["data"]):
        diffs.append(f"{name}:pa:profile_export.json:requests {len(oj['data'])}->{len(reqs)}")
    if pa["experiments"][0]["experiment"] != {"mode": "request_rate", "value": 0.0}:
        diffs.append(f"{name}:pa:profile_export.json:experiment {pa['experiments'][0]['experiment']}")
    by_session = {}
    for r in sorted(reqs, key=lambda r: r["timestamp"]):
        by_session.setdefault(r["request_inputs"]["session_id"], []).append(
            [m["role"] for m in json.loads(r["request_inputs"]["payload"])["messages"]])
    for sid, turns in by_session.items():
        want = [["user", "assistant"] * k + ["user"] for k in range(len(turns))]
        if turns != want:
            diffs.append(f"{name}:pa:profile_export.json:history of {sid}: {turns}")
    # The reference's own parser on our files: process-export-files over our run.
    inp = base / "input" / "run"
    inp.mkdir(parents=True)
    for f in ("profile_export.json", "profile_export_genai_perf.json"):
        shutil.copy2(o_dir / f, inp / f)
    g = inp / "profile_export_genai_perf.json"
    j = json.loads(g.read_text())
    j["input_config"]["endpoint"].pop("backend", None)  # 0.0.16 refuses its own echo for OpenAI types
    g.write_text(json.dumps(j, indent=2))
    rc, out_text = run_tool([str(ref)], ["-d", str(base / "input")], base / "ref_process", "process-export-files")
    if rc != 0:
        diffs.append(f"{name}:run:ref-process-export-files:exit {rc}")
        print(out_text[-3000:])
        return diffs
    merged = next((base / "ref_process" / "artifacts").iterdir())
    rs = json.loads((merged / "profile_export_genai_perf.json").read_text())
    os_ = json.loads((o_dir / "profile_export_genai_perf.json").read_text())
    if list(rs.get("sessions", {})) != list(os_.get("sessions", {})):
        diffs.append(f"{name}:pe:sessions {list(rs.get('sessions', {}))}->{list(os_.get('sessions', {}))}")
    blocks = [("", rs, os_)] + [(f"sessions.{k}.", v, os_["sessions"][k])
                                for k, v in rs.get("sessions", {}).items() if k in os_.get("sessions", {})]
    for prefix, rb, ob in blocks:
        for metric, stats in rb.items():
            if metric in ("input_config", "telemetry_stats", "sessions"):
                continue
            for stat, rv in stats.items():
                ov = ob.get(metric, {}).get(stat)
                if stat == "unit":
                    continue
                if ov is None or abs(rv - ov) > 1e-12 * max(abs(rv), 1.0):
                    diffs.append(f"{name}:pe:{prefix}{metric}.{stat}:{rv!r}->{ov!r}")
    return diffs


CHECKPOINT_ARGS = ["--endpoint-type", "chat", "--streaming", "--request-count", "8", *SYNTHETIC, *OUTPUT,
                   "--sweep-type", "concurrency", "--enable-checkpointing"]


def csv_body(path):
    """analyze_export_genai_perf.csv's perf rows by config name."""
    rows = list(csv.reader(io.StringIO(path.read_bytes().decode())))
    end = rows.index([]) if [] in rows else len(rows)
    return {r[0]: r for r in rows[1:end]}


def compare_checkpoint(ref, ours, mock_bin, work):
    """checkpoint_resume: each tool resumes the other's checkpoint.json (see the docstring)."""
    name = "checkpoint_resume"
    diffs = []

    def add(kind, file, detail):
        diffs.append(f"{name}:{kind}:{file}:{detail}")

    root = work / name
    shutil.rmtree(root, ignore_errors=True)
    record = root / "requests.jsonl"
    root.mkdir(parents=True)
    mock = Mock(mock_bin, ["--record-requests", str(record)])

    def sent():
        return len(record.read_text().splitlines()) if record.exists() else 0

    def run(tool, label, sweep_range, seed_from=None):
        d = root / label
        if seed_from is not None:
            shutil.copytree(root / seed_from / "checkpoint", d / "checkpoint")
        before = sent()
        args = ["-u", mock.url, *COMMON, *CHECKPOINT_ARGS, "--sweep-range", sweep_range]
        print(f"[{name}] {label}: genai-perf analyze {' '.join(args)}", flush=True)
        rc, out = run_tool([str(tool)], args, d, "analyze")
        if rc != 0:
            add("run", label, f"exit {rc}")
            print(out[-3000:])
        return d, sent() - before, out

    try:
        a, a_sent, _ = run(ref, "ref_1_2", "1:2")                       # the reference writes
        b, b_sent, b_out = run(ours, "ours_1_4", "1:4", "ref_1_2")      # ours resumes it
        c, _, _ = run(ref, "ref_1_4", "1:4", "ref_1_2")                  # what the reference adds
        d, d_sent, _ = run(ref, "ref_1_8", "1:8", "ours_1_4")           # the reference resumes ours
    finally:
        mock.stop()
    if a_sent != 16:
        add("run", "ref_1_2", f"sent {a_sent} requests, not 16")
    # Ours runs concurrency 4 only (8 requests), naming the two points it found.
    if b_sent != 8:
        add("resume", "ours", f"sent {b_sent} requests, not 8 (concurrency 4 only)")
    for n, load in (("m_run_config_0", 1), ("m_run_config_1", 2)):
        line = f"{n}:concurrency{load} found in checkpoint. Results in 'artifacts/m-openai-chat-concurrency{load}/'"
        if line not in b_out:
            add("resume", "ours", f"no line {line!r}")
    if sorted(p.name for p in (b / "artifacts").iterdir()) != ["analyze_export_genai_perf.csv",
                                                                "m-openai-chat-concurrency4"]:
        add("resume", "ours", "artifacts: " + ", ".join(sorted(p.name for p in (b / "artifacts").iterdir())))
    # The reference runs concurrency 8 only after ours.
    if d_sent != 8:
        add("resume", "ref", f"sent {d_sent} requests, not 8 (concurrency 8 only)")
    if sorted(p.name for p in (d / "artifacts").iterdir()) != ["analyze_export_genai_perf.csv",
                                                                "m-openai-chat-concurrency8"]:
        add("resume", "ref", "artifacts: " + ", ".join(sorted(p.name for p in (d / "artifacts").iterdir())))
    ckpt = {k: json.loads((v / "checkpoint" / "checkpoint.json").read_text()) for k, v in
            (("a", a), ("b", b), ("c", c), ("d", d))}
    # Key trees: ours against the reference's after the same sweep.
    out = []
    tree_diff(tree(ckpt["c"]), tree(ckpt["b"]), "", out)
    for x in out:
        add("key", "checkpoint.json", x)
    # The run config each tool added for concurrency 4: the same name, command line and parameters.
    def by_load(doc, load):
        return next((r for r in doc["Results"]["run_configs"]
                     if r["perf_analyzer_config"]["_parameters"] == {"concurrency": load}), None)
    r4, o4 = by_load(ckpt["c"], 4), by_load(ckpt["b"], 4)
    if not r4 or not o4:
        add("ckpt", "checkpoint.json", "no concurrency 4 run config")
    else:
        for key in ("name", "genai_perf_config", "perf_analyzer_config"):
            if r4[key] != o4[key]:
                add("ckpt", "checkpoint.json", f"{key}:{json.dumps(r4[key])[:300]}->{json.dumps(o4[key])[:300]}")
        rm = r4["measurement"]["_model_config_measurements"]["m"]["_perf_metrics"]
        om = o4["measurement"]["_model_config_measurements"]["m"]["_perf_metrics"]
        if sorted(rm) != sorted(om):
            add("ckpt", "checkpoint.json", f"measurement tags {sorted(set(rm) ^ set(om))}")
    # The resumed points keep the other tool's numbers: the CSV rows of configs 0 and 1 are the
    # reference's in ours, those of 0..2 ours in the reference's.
    a_rows, b_rows, d_rows = (csv_body(x / "artifacts" / "analyze_export_genai_perf.csv") for x in (a, b, d))
    for n in ("m_run_config_0", "m_run_config_1"):
        if a_rows.get(n) != b_rows.get(n):
            add("acsv", "ours", f"{n}:{a_rows.get(n)}->{b_rows.get(n)}")
    for n in ("m_run_config_0", "m_run_config_1", "m_run_config_2"):
        if b_rows.get(n) != d_rows.get(n):
            add("acsv", "ref", f"{n}:{b_rows.get(n)}->{d_rows.get(n)}")
    if sorted(d_rows) != [f"m_run_config_{i}" for i in range(4)]:
        add("acsv", "ref", f"rows {sorted(d_rows)}")
    return diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--aiperf", required=True, type=Path, help="our aiperf binary (run as genai-perf)")
    ap.add_argument("--mock", required=True, type=Path, help="our aiperf-mock-server binary")
    ap.add_argument("--ref", type=Path, default=DEFAULT_REF)
    ap.add_argument("--scenario", action="append",
                    choices=sorted([*SCENARIOS, *FAILING, *ANALYZE, *CONFIGS, *SESSIONS, "create_template",
                                    "process_export_files", "process_export_files_triton", "checkpoint_resume"]))
    ap.add_argument("--keep", type=Path, help="keep both tools' directories here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    for p in (args.aiperf, args.mock, args.ref):
        if not p.exists():
            print(f"missing: {p}", file=sys.stderr)
            return 2
    work = Path(tempfile.mkdtemp(prefix="genai-perf-compat-")) if not args.keep else args.keep
    work.mkdir(parents=True, exist_ok=True)
    # Ours under GenAI-Perf's name, as a user would run it: a private copy of the binary (a build
    # may replace build/bin/aiperf while the scenarios run) and a genai-perf symlink beside it.
    ours_bin = work / "bin" / "genai-perf"
    ours_bin.parent.mkdir(parents=True, exist_ok=True)
    for p in (ours_bin, work / "bin" / "aiperf"):
        if p.is_symlink() or p.exists():
            p.unlink()
    shutil.copy2(args.aiperf.resolve(), work / "bin" / "aiperf")
    ours_bin.symlink_to("aiperf")

    # --input-file: three prompts of different lengths (five requests walk them in order, twice).
    prompts = work / "prompts.jsonl"
    prompts.write_text('{"text": "Hello there, how are you today?"}\n'
                       '{"text": "Tell me a story about a dragon and a knight."}\n'
                       '{"text": "What is two plus two?"}\n')

    def run_scenario(name, attempt):
        mock = Mock(args.mock, [])
        try:
            sub = "analyze" if name in ANALYZE else "config" if name in CONFIGS else "profile"
            if name in CONFIGS:
                # The reference's template, edited; both tools read the same file.
                tpl_dir = work / name / "template"
                shutil.rmtree(tpl_dir, ignore_errors=True)
                tpl_dir.mkdir(parents=True)
                subprocess.run([str(args.ref), "create-template"], cwd=tpl_dir, check=True, capture_output=True,
                               stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT_S)
                text = (tpl_dir / "genai_perf_config.yaml").read_text()
                for old, new in CONFIGS[name]:
                    new = new.replace("{url}", mock.url).replace("{tokenizer}", str(TOKENIZER))
                    if old not in text:
                        raise SystemExit(f"{name}: the template has no {old!r}")
                    text = text.replace(old, new, 1)
                (tpl_dir / "config.yaml").write_text(text)
                tool_args = ["-f", str(tpl_dir / "config.yaml")]
            else:
                scenario = ANALYZE[name] if name in ANALYZE else FAILING[name][0] if name in FAILING \
                    else SCENARIOS[name]
                tool_args = ["-u", mock.url, *COMMON, *(a.replace("{prompts}", str(prompts)) for a in scenario)]
            print(f"[{name}{'' if attempt == 0 else f' again ({attempt})'}] genai-perf {sub} {' '.join(tool_args)}",
                  flush=True)
            ref_dir, our_dir = work / name / "ref", work / name / "ours"
            for d in (ref_dir, our_dir):
                shutil.rmtree(d, ignore_errors=True)
            ref_rc, ref_out = run_tool([str(args.ref)], tool_args, ref_dir, sub)
            our_rc, our_out = run_tool([str(ours_bin)], tool_args, our_dir, sub)
        finally:
            mock.stop()
        diffs = []
        expected_rc = 1 if name in FAILING else 0
        if ref_rc != expected_rc:
            diffs.append(f"{name}:run:ref:exit {ref_rc}")
        if our_rc != expected_rc:
            diffs.append(f"{name}:run:ours:exit {our_rc}")
        for line in FAILING.get(name, ((), ()))[1]:
            for tool, text in (("ref", ref_out), ("ours", our_out)):
                if line not in text.splitlines():
                    diffs.append(f"{name}:message:{tool}:missing {line!r}")
        compare(name, ref_dir, our_dir, ref_out, our_out, diffs)
        if args.verbose or our_rc != expected_rc:
            print(our_out[-3000:])
        return diffs

    def noise_only(d):
        # Timings on a shared machine: values, and the console rows a wide value reshapes; the
        # request count of a time-window scenario is measured too (a slow run fits fewer).
        measured_count = d.split(":")[0] in COUNT_TOLERANCE and ":pa:profile_export.json:requests:" in d
        return ":value:" in d or ":console:stdout:rows:" in d or measured_count

    def noise_key(d):
        # "NAME:value:FILE:metric.stat" (the figures dropped), "NAME:console:stdout:rows". A value
        # keeps the sign of ours - ref: a real difference keeps its side from run to run, while
        # noise on a loaded machine changes sides (seen: TTST 20.03 -> 17.51 ms, then 18.66 -> 20.00
        # against a 20 ms server, each tool off in turn).
        key = ":".join(d.split(":")[:4])
        if ":value:" in d and "->" in d:
            ref, ours = (float(x) for x in d.rsplit(":", 1)[1].split("->"))
            key += ":ours-higher" if ours > ref else ":ours-lower"
        return key

    all_diffs = []
    for name in args.scenario or [*SCENARIOS, *FAILING, *ANALYZE, *CONFIGS, *SESSIONS, "create_template",
                                  "process_export_files", "process_export_files_triton", "checkpoint_resume"]:
        if name == "checkpoint_resume":
            all_diffs += compare_checkpoint(args.ref, ours_bin, args.mock, work)
            continue
        if name in SESSIONS:
            all_diffs += compare_sessions(name, args.ref, ours_bin, args.mock, work)
            continue
        if name.startswith("process_export_files"):
            all_diffs += compare_process_export(args.ref, ours_bin, args.mock, work, name.endswith("_triton"))
            continue
        if name == "create_template":
            print("[create_template] genai-perf create-template [-v]", flush=True)
            all_diffs += compare_templates(args.ref, ours_bin, work)
            continue
        diffs = run_scenario(name, 0)
        # A scenario whose only unaccepted differences are timings (a loaded machine: both tools
        # share two cores with builds) runs up to twice more; only what every run shows counts.
        for attempt in (1, 2):
            open_diffs = [d for d in diffs if not known_pattern(d)]
            if not open_diffs or not all(noise_only(d) for d in open_diffs):
                break
            again = {noise_key(d) for d in run_scenario(name, attempt)}
            diffs = [d for d in diffs if known_pattern(d) or not noise_only(d) or noise_key(d) in again]
        all_diffs += diffs

    failed = []
    used = set()
    for d in all_diffs:
        pat = known_pattern(d)
        if pat:
            used.add(pat)
            print(f"  known  {d}  ({KNOWN[pat]})")
        else:
            failed.append(d)
            print(f"  DIFF   {d}")
    for p in KNOWN:
        if p not in used:
            print(f"  stale known difference (matched nothing): {p}")
    print(f"genai-perf scenarios: {len(all_diffs)} differences, {len(failed)} not accepted "
          f"({'FAIL' if failed else 'ok'}); directories in {work})")
    if not args.keep and not failed:
        shutil.rmtree(work, ignore_errors=True)
    else:
        (work / "bin" / "aiperf").unlink(missing_ok=True)  # the copy is large; the directories stay
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
