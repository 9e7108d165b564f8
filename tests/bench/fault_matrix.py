#!/usr/bin/env python3
"""Fault matrix (issue 18): every mock fault, alone and mixed, against every load mode.

Benchmark, not a test (tests/integration/fault_matrix_e2e_test.cpp is the fast subset in CI).
For each (fault, mode) cell it runs `aiperf profile` against an aiperf-mock-server started with
`--fault ...` on a free loopback port and checks:
  - credits == records: every request sent (the controller's "profiling phase complete: C of S
    requests returned", S credits) has exactly one line in profile_export.jsonl, and the summary's
    request_count + error_request_count agree;
  - every error record has a type, and the type is one this fault may cause (a named kind);
  - the run ends within its bound, measured from the profiling start (summary start_time) to the
    aiperf process's exit: duration + grace + 1 s for --benchmark-duration; for the other modes
    the schedule plus every request taking the whole --request-timeout-seconds, + 1 s;
  - memory stays bounded: the peak of the summed RSS of aiperf and every process it spawned
    (sampled from /proc every 20 ms) stays under --rss-budget-mb.
Prints one row per cell and exits 1 if any cell fails. Python 3 standard library only.

Usage: tests/bench/fault_matrix.py [--faults a,b] [--modes m,n] [--duration S] [--keep DIR] [--rss-budget-mb N]
Columns: inj = faults the mock injected during the cell (its /metrics), wall_s = profiling start to exit.
"""
import argparse
import datetime
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(ROOT, "build", "bin")

TIMEOUT_S = 1.5          # --request-timeout-seconds: bounds every stalled request
STALL_MS = 2500          # longer than the timeout, so stalls end as TimeoutError
SLOW_HEADERS_MS = 400    # shorter: slow headers still succeed
PERCENT = 50             # a fault alone hits this share of requests (the rest succeed)
# ... except huge_event: 10 MiB of text per hit is ~2-4 M tokens for the record processors to
# count; at 50% of ~40 requests/s the backlog outlasts the duration bound by ~10 s (measured:
# 14.6 s after the profiling start, bound 5 s, 995 MB peak). 10% is already ~20 MB/s of output.
PERCENT_OF = {"huge_event": 10}
DISCONNECT = {"ServerDisconnectedError", "ClientOSError"}
STATUS_5XX = {"Internal Server Error", "Bad Gateway", "Service Unavailable"}

# name -> (mock --fault args, error types it may cause, how the client reaches the mock)
FAULTS = {
    "none": ([], set(), "http"),
    "reset_before_headers": (["reset_before_headers"], DISCONNECT, "http"),
    "reset_mid_stream": (["reset_mid_stream"], DISCONNECT, "http"),
    "http_5xx": (["http_5xx"], STATUS_5XX, "http"),
    "http_429": (["http_429"], {"Too Many Requests"}, "http"),
    "malformed_json": (["malformed_json"], {"JSONDecodeError"}, "http"),
    "error_event": (["error_event"], {"SSEResponseError"}, "http"),
    "truncated_chunked": (["truncated_chunked"], DISCONNECT | {"ClientPayloadError"}, "http"),
    "stall_after_headers": (["stall_after_headers"], {"TimeoutError"}, "http"),
    "stall_mid_stream": (["stall_mid_stream"], {"TimeoutError"}, "http"),
    "slow_headers": (["slow_headers"], set(), "http"),
    "huge_event": (["huge_event"], set(), "http"),
    "wrong_content_type": (["wrong_content_type"], {"JSONDecodeError"}, "http"),
    # The mock does not speak TLS: every https:// connection fails its handshake.
    "tls_handshake_failure": (["tls_handshake_failure:100"], {"ClientConnectorSSLError"}, "https"),
    # No mock at all: a loopback port nobody listens on.
    "connection_refused": ([], {"ClientConnectorError"}, "refused"),
}
MIX = ["reset_before_headers:6", "reset_mid_stream:6", "http_5xx:6", "http_429:6", "malformed_json:6",
       "error_event:6", "truncated_chunked:6", "stall_after_headers:6", "stall_mid_stream:6", "slow_headers:6",
       "huge_event:6", "wrong_content_type:6"]
FAULTS["mix"] = (MIX, set().union(*(FAULTS[f.split(":")[0]][1] for f in MIX)), "http")

EVERY_HIT_FAILS = {"reset_mid_stream", "http_5xx", "http_429", "malformed_json", "error_event", "truncated_chunked",
                   "stall_after_headers", "stall_mid_stream", "wrong_content_type"}

COMMON = ["--model", "m", "--tokenizer", "gpt2", "--ui-type", "none", "--isl", "32", "--osl", "16",
          "--extra-inputs", "ignore_eos:true", "--request-timeout-seconds", str(TIMEOUT_S), "--random-seed", "7"]


def ceil(x):
    return int(math.ceil(x - 1e-9))


# name -> (aiperf args, bound(seconds after profiling start), API label, whether the bound is a duration one)
def modes(trace_path, duration_s=3):
    n, c, rate = 24, 4, 20.0
    sessions, turns, mt_c = 6, 3, 3
    trace_entries, trace_span_s = 16, 1.5
    return {
        "concurrency": (["--endpoint-type", "chat", "--streaming", "--concurrency", str(c), "--request-count", str(n)],
                        ceil(n / c) * TIMEOUT_S + 1, "chat stream"),
        "rate": (["--endpoint-type", "completions", "--request-rate", str(rate), "--arrival-pattern", "constant",
                  "--request-count", str(n)],
                 (n - 1) / rate + TIMEOUT_S + 1, "completions"),
        "duration": (["--endpoint-type", "chat", "--concurrency", str(c), "--benchmark-duration", str(duration_s),
                      "--benchmark-grace-period", "1"],
                     duration_s + 1 + 1, "chat"),
        "fixed_schedule": (["--endpoint-type", "completions", "--streaming", "--input-file", trace_path,
                            "--custom-dataset-type", "mooncake_trace", "--fixed-schedule"],
                           trace_span_s + TIMEOUT_S + 1, "completions stream"),
        "multi_turn": (["--endpoint-type", "chat", "--streaming", "--concurrency", str(mt_c), "--conversation-num",
                        str(sessions), "--conversation-turn-mean", str(turns), "--conversation-turn-stddev", "0"],
                       ceil(sessions / mt_c) * turns * TIMEOUT_S + 1, "chat stream"),
    }, {"concurrency": n, "rate": n, "fixed_schedule": trace_entries, "multi_turn": sessions * turns,
        "duration": None}


def write_trace(path, entries=16, span_ms=1500):
    with open(path, "w") as f:
        for i in range(entries):
            f.write(json.dumps({"timestamp": round(i * span_ms / (entries - 1), 1), "input_length": 32,
                                "output_length": 16, "hash_ids": [i]}) + "\n")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Mock:
    def __init__(self, faults, log_path):
        args = [os.path.join(BIN, "aiperf-mock-server"), "--port", "0", "--workers", "1", "--ttft", "20", "--itl", "5",
                "--random-seed", "11", "--fault-stall-ms", str(STALL_MS), "--fault-slow-headers-ms",
                str(SLOW_HEADERS_MS)]
        for f in faults:
            args += ["--fault", f if ":" in f else f"{f}:{PERCENT_OF.get(f, PERCENT)}"]
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"listening on http://([\d.]+):(\d+)", line)
        if not m:
            raise RuntimeError(f"mock did not start: {line!r} (see {log_path})")
        self.port = int(m.group(2))

    def injected(self):
        """Faults the mock has injected so far (mock_server_faults_injected_total, all kinds)."""
        import urllib.request
        text = urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5).read().decode()
        return sum(float(v) for v in re.findall(r"^mock_server_faults_injected_total\{[^}]*\} (\S+)$", text, re.M))

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def tree_rss_bytes(root_pid):
    """Summed RSS of root_pid and all its descendants."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            ppid = int(stat[stat.rfind(")") + 2:].split()[1])
            children.setdefault(ppid, []).append(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    total, todo, page = 0, [root_pid], os.sysconf("SC_PAGE_SIZE")
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * page
        except (OSError, ValueError, IndexError):
            pass
        todo.extend(children.get(pid, []))
    return total


def run_cell(fault, mode, mode_args, url, tmp):
    d = os.path.join(tmp, f"{fault}-{mode}")
    out = open(d + ".out", "w")
    cmd = [os.path.join(BIN, "aiperf"), "profile", *COMMON, "--url", url, *mode_args, "--artifact-dir", d]
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss_bytes(proc.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        rc = proc.wait(timeout=180)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = proc.wait()
        rc = f"hang({rc})"
    exit_wall = time.time()
    done.set()
    sampler.join()
    out.close()
    return d, rc, exit_wall, peak[0]


def analyse(d, expected_credits):
    res = {"records": None, "credits": expected_credits, "errors": Counter(), "untyped": 0, "start": None,
           "summary_count": None, "sent": None, "returned": None}
    jsonl = os.path.join(d, "profile_export.jsonl")
    if os.path.exists(jsonl):
        lines = [l for l in open(jsonl) if l.strip()]
        res["records"] = len(lines)
        for l in lines:
            err = json.loads(l).get("error")
            if err:
                t = err.get("type") or ""
                if not t:
                    res["untyped"] += 1
                res["errors"][t or "<none>"] += 1
    summary_path = os.path.join(d, "profile_export_aiperf.json")
    if os.path.exists(summary_path):
        s = json.load(open(summary_path))
        res["start"] = datetime.datetime.fromisoformat(s["start_time"]).timestamp() if s.get("start_time") else None
        ok = (s.get("request_count") or {}).get("avg") or 0
        bad = (s.get("error_request_count") or {}).get("avg") or 0
        res["summary_count"] = int(ok + bad)
    log = os.path.join(d, "logs", "aiperf.log")
    if os.path.exists(log):
        m = re.findall(r"profiling phase complete: (\d+) of (\d+) requests returned", open(log).read())
        if m:
            res["returned"], res["sent"] = int(m[-1][0]), int(m[-1][1])
    if res["credits"] is None:
        res["credits"] = res["sent"]
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--faults", help="comma-separated subset of: " + ",".join(FAULTS))
    ap.add_argument("--modes", help="comma-separated subset of: concurrency,rate,duration,fixed_schedule,multi_turn")
    ap.add_argument("--rss-budget-mb", type=float, default=1024.0,
                    help="peak summed RSS of aiperf and its services allowed per cell (default 1024)")
    ap.add_argument("--duration", type=float, default=3,
                    help="--benchmark-duration of the duration mode, s (default 3; longer shows whether memory grows)")
    ap.add_argument("--keep", help="keep artifacts in this directory (default: a temporary one, removed)")
    opts = ap.parse_args()
    for b in ("aiperf", "aiperf-mock-server"):
        if not os.access(os.path.join(BIN, b), os.X_OK):
            sys.exit(f"{BIN}/{b} is missing: build it first (ninja -C build {b})")

    tmp = opts.keep or tempfile.mkdtemp(prefix="fault-matrix-")
    os.makedirs(tmp, exist_ok=True)
    trace = os.path.join(tmp, "trace.jsonl")
    write_trace(trace)
    mode_table, credits_of = modes(trace, opts.duration)
    faults = opts.faults.split(",") if opts.faults else list(FAULTS)
    mode_names = opts.modes.split(",") if opts.modes else list(mode_table)
    for f in faults:
        if f not in FAULTS:
            sys.exit(f"unknown fault {f}")
    for m in mode_names:
        if m not in mode_table:
            sys.exit(f"unknown mode {m}")

    header = (f"{'fault':22} {'mode':15} {'api':18} {'credits':>7} {'records':>7} {'wall_s':>6} {'bound_s':>7} "
              f"{'rss_mb':>6} {'exit':>4} {'inj':>5}  result  errors by type")
    print(header)
    print("-" * len(header))
    failures = 0
    started = time.time()
    for fault in faults:
        mock_faults, allowed, reach = FAULTS[fault]
        mock = None
        if reach == "refused":
            url = f"http://127.0.0.1:{free_port()}"
        else:
            mock = Mock(mock_faults, os.path.join(tmp, f"mock-{fault}.log"))
            url = f"{reach}://127.0.0.1:{mock.port}"
        try:
            for mode in mode_names:
                args, bound, api = mode_table[mode]
                before = mock.injected() if mock else 0
                d, rc, exit_wall, peak = run_cell(fault, mode, args, url, tmp)
                injected = int(mock.injected() - before) if mock else None
                r = analyse(d, credits_of[mode])
                ok_types = allowed | ({"RequestCancellationError"} if mode == "duration" else set())
                wall = exit_wall - r["start"] if r["start"] else float("nan")
                problems = []
                if isinstance(rc, str):
                    problems.append("hang")
                elif rc not in (0, 1):
                    problems.append(f"exit {rc}")
                if r["records"] is None:
                    problems.append("no jsonl")
                if r["credits"] is None:
                    problems.append("credits unknown")
                elif r["records"] != r["credits"]:
                    problems.append("records != credits")
                if r["sent"] is not None and r["returned"] != r["sent"]:
                    problems.append(f"returned {r['returned']} of {r['sent']}")
                if r["summary_count"] is not None and r["summary_count"] != r["records"]:
                    problems.append(f"summary counts {r['summary_count']}")
                if r["untyped"]:
                    problems.append(f"{r['untyped']} untyped errors")
                unexpected = sorted(t for t in r["errors"] if t not in ok_types)
                if unexpected:
                    problems.append("unexpected " + ",".join(unexpected))
                if fault not in ("none", "slow_headers", "huge_event") and not r["errors"]:
                    problems.append("fault never seen")
                if fault not in ("none", "connection_refused") and not injected:
                    problems.append("mock injected nothing")
                # Each injected fault of these kinds must be exactly one error record (none is
                # retried or passes as a success). Not in duration runs, where requests cut by the
                # end are RequestCancellationError whatever the server did.
                n_errors = sum(r["errors"].values())
                if fault in EVERY_HIT_FAILS and mode != "duration" and injected is not None and n_errors != injected:
                    problems.append(f"{n_errors} errors for {injected} injected faults")
                if not (wall <= bound):
                    problems.append("too slow")
                if peak / 2**20 > opts.rss_budget_mb:
                    problems.append("rss over budget")
                # Every request failed => exit 1 is the truthful code; otherwise 0.
                all_failed = r["records"] and sum(r["errors"].values()) == r["records"]
                if not isinstance(rc, str) and rc != (1 if all_failed else 0):
                    problems.append(f"exit {rc} (expected {1 if all_failed else 0})")
                status = "PASS" if not problems else "FAIL"
                failures += bool(problems)
                errs = " ".join(f"{t}={n}" for t, n in sorted(r["errors"].items())) or "-"
                print(f"{fault:22} {mode:15} {api:18} {r['credits'] if r['credits'] is not None else '?':>7} "
                      f"{r['records'] if r['records'] is not None else '?':>7} {wall:6.2f} {bound:7.2f} "
                      f"{peak / 2**20:6.0f} {rc!s:>4} {injected if injected is not None else '-':>5}  {status}    {errs}"
                      + (f"   [{'; '.join(problems)}]" if problems else ""), flush=True)
        finally:
            if mock:
                mock.stop()
    print(f"\n{failures} failing cell(s); {time.time() - started:.0f} s in all")
    if not opts.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
