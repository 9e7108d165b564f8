#!/usr/bin/env python3
"""End-to-end tests of our `aiperf` against a real llama.cpp server (tests/real_server/setup.sh builds
it, with a tiny random-weight model whose vocabulary is GPT-2's, so the server's token counts can
be checked against our GPT-2 tokenizer exactly).

Each check runs `aiperf profile` as a user would and compares the files it writes with what the
server says: its `usage` blocks (recorded per request as usage_* metrics) and its Prometheus
counters (/metrics, which `--server-metrics` also scrapes). Exit status 1 if any check failed.

  python3 tests/real_server/llama_server.py --aiperf build/bin/aiperf --server BIN --model GGUF
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOKENIZER = os.path.join(ROOT, "common", "tokenizer", "data", "gpt2")
SLOTS = 2        # the server decodes this many sequences at once; the runs ask for more
CTX_PER_SLOT = 1024


def free_port():
    """A port below the kernel's ephemeral range, free at the time of asking."""
    for port in range(20000 + os.getpid() % 5000, 32000):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue
    raise RuntimeError("no free port")


class LlamaServer:
    def __init__(self, binary, model, tmp):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = os.path.join(tmp, "llama-server.log")
        self.log = open(self.log_path, "w")
        # One compute thread and enough HTTP threads for every connection the runs open: with
        # fewer, cpp-httplib leaves the extra kept-alive connections waiting until its 5 s
        # keep-alive timeout frees a thread (a habit of the server, not a client fault).
        self.proc = subprocess.Popen(
            [binary, "-m", model, "--host", "127.0.0.1", "--port", str(self.port), "-c", str(SLOTS * CTX_PER_SLOT),
             "-np", str(SLOTS), "-t", "1", "--threads-http", "16", "--metrics", "--jinja", "--no-warmup"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama-server exited {self.proc.returncode}: {self.tail()}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"llama-server not healthy within 60 s: {self.tail()}")

    def tail(self):
        self.log.flush()
        with open(self.log_path, errors="replace") as f:
            return f.read()[-2000:]

    def counters(self):
        """The server's Prometheus counters and gauges, name -> value."""
        with urllib.request.urlopen(self.url + "/metrics", timeout=5) as r:
            text = r.read().decode()
        return {m.group(1): float(m.group(2)) for m in re.finditer(r"^(llamacpp:\w+) (\S+)$", text, re.M)}

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


class Run:
    """One `aiperf profile` run and the files it wrote."""

    def __init__(self, aiperf, server, tmp, name, args, expect_exit=0):
        self.dir = os.path.join(tmp, name)
        cmd = [aiperf, "profile", "--model", "tiny", "--url", server.url, "--tokenizer", TOKENIZER,
               "--ui-type", "none", "--artifact-dir", self.dir, "--random-seed", "7", *args]
        self.before = server.counters()
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        self.after = server.counters()
        self.cmd = " ".join(cmd)
        self.exit = res.returncode
        self.output = res.stdout[-3000:] + res.stderr[-3000:]
        self.stdout = res.stdout
        if res.returncode != expect_exit:
            raise AssertionError(f"exit {res.returncode}, expected {expect_exit}: {self.output}")
        with open(os.path.join(self.dir, "profile_export.jsonl")) as f:
            self.records = [json.loads(line) for line in f if line.strip()]
        with open(os.path.join(self.dir, "profile_export_aiperf.json")) as f:
            self.summary = json.load(f)

    def delta(self, counter):
        return self.after.get(counter, 0) - self.before.get(counter, 0)

    def values(self, tag):
        return [(r["metrics"].get(tag) or {}).get("value") for r in self.records]


def require(cond, what):
    if not cond:
        raise AssertionError(what)


def no_errors(run, n):
    require(len(run.records) == n, f"{len(run.records)} records, expected {n}")
    errors = [r["error"] for r in run.records if r.get("error")]
    require(not errors, f"{len(errors)} error records, first: {errors[:1]}")
    require(run.summary["request_count"]["avg"] == n, f"request_count {run.summary['request_count']}")


def server_counted(run):
    """The server's own totals over the run agree with the usage it sent per request."""
    prompt = run.delta("llamacpp:prompt_tokens_total") + run.delta("llamacpp:prompt_tokens_cached_total")
    require(prompt == sum(run.values("usage_prompt_tokens")),
            f"server processed {prompt} prompt tokens, usage blocks say {sum(run.values('usage_prompt_tokens'))}")
    predicted = run.delta("llamacpp:tokens_predicted_total")
    require(predicted == sum(run.values("usage_completion_tokens")),
            f"server predicted {predicted} tokens, usage blocks say {sum(run.values('usage_completion_tokens'))}")


LOAD = ["--isl", "64", "--osl", "16", "--extra-inputs", "ignore_eos:true", "--concurrency", "5"]


def check_completions(aiperf, server, tmp):
    """Completions, not streaming: ISL (our tokenizer) equals the server's prompt_tokens per request
    (the completions endpoint adds no template); the server generated exactly the OSL asked for."""
    run = Run(aiperf, server, tmp, "completions", ["--endpoint-type", "completions", "--request-count", "15", *LOAD])
    no_errors(run, 15)
    isl, usage_isl = run.values("input_sequence_length"), run.values("usage_prompt_tokens")
    require(isl == [64] * 15, f"ISL {isl}")
    require(usage_isl == isl, f"server prompt_tokens {usage_isl} != our ISL {isl}")
    require(run.values("usage_completion_tokens") == [16] * 15, f"server completion_tokens {run.values('usage_completion_tokens')}")
    server_counted(run)


def check_chat_streaming(aiperf, server, tmp):
    """Chat, streaming, more requests in flight than the server has slots: every request succeeds
    (the server ends the connection after each stream although it said keep-alive), the server's
    token counts are taken (--use-server-token-count), and its counters agree."""
    run = Run(aiperf, server, tmp, "chat_streaming",
              ["--endpoint-type", "chat", "--streaming", "--use-server-token-count", "--request-count", "20", *LOAD])
    no_errors(run, 20)
    require(run.values("output_sequence_length") == [16] * 20, f"OSL {run.values('output_sequence_length')}")
    prompt = run.values("input_sequence_length")
    require(all(p and p > 64 for p in prompt), f"chat ISL includes the template's tokens: {prompt}")
    ttft, latency = run.values("time_to_first_token"), run.values("request_latency")
    require(all(0 < t < l for t, l in zip(ttft, latency)), "TTFT within each request's latency")
    server_counted(run)
    # The server's prompt time is part of every TTFT: their sums bound each other.
    server_prompt_ms = run.delta("llamacpp:prompt_seconds_total") * 1000
    require(sum(ttft) >= server_prompt_ms, f"sum of TTFT {sum(ttft):.1f} ms < server prompt time {server_prompt_ms:.1f} ms")


def check_chat_server_metrics(aiperf, server, tmp):
    """Chat, not streaming, with --server-metrics on the server's /metrics: the exported counter
    totals equal what the server's counters moved by over the run."""
    run = Run(aiperf, server, tmp, "chat_server_metrics",
              ["--endpoint-type", "chat", "--use-server-token-count", "--request-count", "10",
               "--server-metrics", server.url + "/metrics", *LOAD])
    no_errors(run, 10)
    require(run.values("output_sequence_length") == [16] * 10, f"OSL {run.values('output_sequence_length')}")
    with open(os.path.join(run.dir, "server_metrics_export.json")) as f:
        exported = json.load(f)["metrics"]
    # AIPerf 0.13 names a counter family without its _total suffix.
    total = exported["llamacpp:tokens_predicted"]["series"][0]["stats"]["total"]
    require(total == 160, f"exported tokens_predicted {total}, expected 160")
    server_counted(run)


def check_context_overflow(aiperf, server, tmp):
    """A prompt longer than a slot's context: every request is an error record carrying the
    server's status and message, and the run exits 1 (nothing succeeded)."""
    run = Run(aiperf, server, tmp, "context_overflow",
              ["--endpoint-type", "completions", "--request-count", "4", "--isl", str(CTX_PER_SLOT + 200),
               "--osl", "4", "--concurrency", "2"], expect_exit=1)
    require(len(run.records) == 4, f"{len(run.records)} records")
    for r in run.records:
        e = r.get("error") or {}
        require(e.get("code") == 400, f"error code {e.get('code')}")
        require("context" in e.get("message", ""), f"error message {e.get('message')!r}")


def section_row(run, quantity, source):
    for row in run.summary["client_server"]["rows"]:
        if row["quantity"] == quantity and row["source"] == source:
            return row
    raise AssertionError(f"no Client vs Server row {quantity}/{source}")


def check_client_server(aiperf, server, tmp):
    """The Client vs Server section (usage, llama.cpp `timings`, --server-metrics counters) agrees
    with the server's own counters over the run: token totals exactly, decode seconds within the
    timings' microsecond rounding, the llamacpp rows equal the counters' deltas. Then a chat run
    counted by our tokenizer: the server counts the chat template's tokens too, which the section
    shows as a difference but does not warn about (a template is the server's to add)."""
    run = Run(aiperf, server, tmp, "client_server",
              ["--endpoint-type", "chat", "--streaming", "--use-server-token-count", "--request-count", "12",
               "--server-metrics", server.url + "/metrics", *LOAD])
    no_errors(run, 12)
    require("client_server" in run.summary, "no client_server section in profile_export_aiperf.json")
    section = run.summary["client_server"]
    require(section["sources"] == ["usage", "timings", "llamacpp"], f"sources {section['sources']}")
    require(section["warnings"] == [], f"warnings {section['warnings']}")
    require("NVIDIA AIPerf | Client vs Server" in run.stdout, "no Client vs Server table on the console")
    # Per request: timings count what usage counts, and the prefill is inside the TTFT.
    prefill, cached = run.values("server_prefill_tokens"), run.values("server_cached_tokens")
    require([p + c for p, c in zip(prefill, cached)] == run.values("usage_prompt_tokens"),
            f"timings prompt_n + cache_n {prefill} + {cached} != usage prompt_tokens")
    require(run.values("server_decode_tokens") == [16] * 12, f"timings predicted_n {run.values('server_decode_tokens')}")
    require(all(g >= 0 for g in run.values("ttft_server_gap")), f"TTFT below prefill: {run.values('ttft_server_gap')}")

    prompt = run.delta("llamacpp:prompt_tokens_total") + run.delta("llamacpp:prompt_tokens_cached_total")
    predicted = run.delta("llamacpp:tokens_predicted_total")
    for source in ("usage", "timings", "llamacpp"):
        got_in = section_row(run, "input_tokens_total", source)["server"]
        got_out = section_row(run, "output_tokens_total", source)["server"]
        require(got_in == prompt, f"{source} input tokens {got_in}, server counters moved by {prompt}")
        require(got_out == predicted == 192, f"{source} output tokens {got_out}, server counters moved by {predicted}")
    cached_total = run.delta("llamacpp:prompt_tokens_cached_total")
    for source in ("timings", "llamacpp"):
        got = section_row(run, "cached_input_tokens_total", source)["server"]
        require(got == cached_total, f"{source} cached tokens {got}, server counter moved by {cached_total}")
    # Seconds: the llamacpp rows are the counters' deltas; timings' decode ms (3 decimals) sum to the
    # decode counter (microseconds) within rounding.
    for quantity, counter in (("server_prefill_time_total", "llamacpp:prompt_seconds_total"),
                              ("server_decode_time_total", "llamacpp:tokens_predicted_seconds_total")):
        got = section_row(run, quantity, "llamacpp")["server"]
        require(abs(got - run.delta(counter)) < 1e-9, f"{quantity} {got} != {counter} delta {run.delta(counter)}")
    decode = section_row(run, "server_decode_time_total", "timings")["server"]
    decode_counter = run.delta("llamacpp:tokens_predicted_seconds_total")
    require(abs(decode - decode_counter) <= 12 * 1e-6, f"timings decode {decode} s, counter {decode_counter} s")
    # llama.cpp's prompt_seconds_total times only the prompt batches' decode calls (one batch may
    # serve several slots); timings.prompt_ms runs from the slot's start: never below the counter.
    prefill_s = section_row(run, "server_prefill_time_total", "timings")["server"]
    require(prefill_s >= run.delta("llamacpp:prompt_seconds_total"),
            f"timings prefill {prefill_s} s < prompt_seconds_total delta {run.delta('llamacpp:prompt_seconds_total')} s")
    ttft = section_row(run, "ttft_vs_server_prefill", "timings")
    require(ttft["client"] == run.summary["time_to_first_token"]["avg"], f"TTFT row {ttft}")
    require(ttft["server"] == run.summary["server_prefill_time"]["avg"], f"prefill row {ttft}")
    require(ttft["difference"] >= 0, f"TTFT below the server's prefill: {ttft}")

    # A warmup moves the counters inside their window (from the last scrape before profiling): the
    # counter rows are shown but not compared, so no false warning.
    warm = Run(aiperf, server, tmp, "client_server_warmup",
               ["--endpoint-type", "chat", "--streaming", "--use-server-token-count", "--request-count", "6",
                "--warmup-request-count", "6", *LOAD])
    no_errors(warm, 6)
    require(warm.summary["client_server"]["warnings"] == [], f"warnings {warm.summary['client_server']['warnings']}")
    require("counters_note" in warm.summary["client_server"], "no counters_note with a warmup")
    require("client" not in section_row(warm, "input_tokens_total", "llamacpp"), "counter row compared despite warmup")
    require(section_row(warm, "input_tokens_total", "usage")["difference"] == 0, "usage row not compared")

    templated = Run(aiperf, server, tmp, "client_server_templated",
                    ["--endpoint-type", "chat", "--request-count", "4", "--isl", "32", "--osl", "4", "--concurrency", "2"])
    no_errors(templated, 4)
    row = section_row(templated, "input_tokens_total", "usage")
    require(row["client"] == 128 and row["server"] > 128, f"chat template tokens not counted by the server: {row}")
    # Only input tokens are the template's: the output rows may differ by a token or two, since
    # GPT-2 re-reading a random model's text (stray bytes become U+FFFD) need not count what the
    # server sampled, and 4 tokens a request puts one token past the 5 % threshold.
    warnings = templated.summary["client_server"]["warnings"]
    input_warnings = [w for w in warnings if w.startswith("Input tokens")]
    require(input_warnings == [], f"a chat template's tokens warned about: {input_warnings}")
    require(warnings or "Client vs Server Disagreement Warning" not in templated.stdout,
            "a warning panel without warnings")


CHECKS = [check_completions, check_chat_streaming, check_chat_server_metrics, check_context_overflow,
          check_client_server]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--aiperf", required=True)
    ap.add_argument("--server", required=True, help="llama-server binary")
    ap.add_argument("--model", required=True, help="GGUF model (make_model.py)")
    ap.add_argument("--keep", action="store_true", help="keep the artifacts directory")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="aiperf-real-server-")
    failed = []
    server = LlamaServer(args.server, args.model, tmp)
    try:
        for check in CHECKS:
            t0 = time.monotonic()
            try:
                check(os.path.abspath(args.aiperf), server, tmp)
                print(f"PASS {check.__name__} ({time.monotonic() - t0:.1f} s)", flush=True)
            except Exception as e:  # report every check, then fail
                failed.append(check.__name__)
                print(f"FAIL {check.__name__}: {e}", flush=True)
    finally:
        server.stop()
    if failed:
        print(f"real-server checks failed: {', '.join(failed)} (artifacts in {tmp})")
        return 1
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    print("real-server checks: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
