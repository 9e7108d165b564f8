#!/usr/bin/env python3
"""Helper of tests/compat/speed.sh (a benchmark, not a test): runs our aiperf and the reference
AIPerf against our mock server in the same run and prints one markdown table.

Two modes:
  speed_measure.py wrap OUT.json [--mock URL] [--timeout S] -- CMD...
      Runs CMD as the only child of a child subreaper (so every process of its tree, orphans
      included, is reaped here) and writes OUT.json: wall time launch to exit, CPU seconds of the
      whole tree (getrusage(RUSAGE_CHILDREN) after every descendant is reaped), peak of the summed
      RSS and PSS of all live descendants (sampled every 0.1 s), the processes seen, and time series
      of the mock's /metrics counters (requests, generated tokens, requests in flight).
  speed_measure.py bench --ours BIN --ref BIN --mock BIN --tokenizer DIR [--seconds N] ...
      The whole benchmark; prints the markdown table on stdout, progress on stderr.

Python 3 standard library only.
"""
import argparse
import ctypes
import json
import os
import platform
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

PAGE = os.sysconf("SC_PAGE_SIZE")
HZ = os.sysconf("SC_CLK_TCK")
PR_SET_CHILD_SUBREAPER = 36


# ---------------------------------------------------------------- wrap: one measured process tree

def read_proc_table():
    """pid -> (ppid, comm, utime+stime ticks, rss pages) for every process on the host."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                raw = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        close = raw.rfind(")")
        comm = raw[raw.find("(") + 1:close]
        fields = raw[close + 2:].split()
        # fields[0] is state (field 3 of stat); ppid=4, utime=14, stime=15, rss=24
        table[int(name)] = (int(fields[1]), comm, int(fields[11]) + int(fields[12]), int(fields[21]))
    return table


def descendants(table, root):
    children = {}
    for pid, row in table.items():
        children.setdefault(row[0], []).append(pid)
    out, stack = [], [root]
    while stack:
        pid = stack.pop()
        for child in children.get(pid, ()):
            out.append(child)
            stack.append(child)
    return out


def process_name(pid):
    """The program and its first argument (e.g. `aiperf worker`), directories and options left out;
    None once the process is a zombie (empty command line)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return None
    if len(argv) == 1 and " " in argv[0]:  # a process title set by the program itself
        argv = argv[0].split()
    if not argv:
        return None
    words = [os.path.basename(argv[0])] + [os.path.basename(a) for a in argv[1:3] if not a.startswith("-")][:1]
    if "--type" in argv[:-1]:  # ours: `aiperf service --type worker ...`
        words.append(argv[argv.index("--type") + 1])
    return " ".join(words)[:48]


def pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def parse_metrics(text):
    requests = tokens = running = 0.0
    for line in text.splitlines():
        if line.startswith("mock_server_requests_total{") and 'endpoint="/v1/' in line:
            requests += float(line.rsplit(" ", 1)[1])
        elif line.startswith("mock_server_generation_tokens_total "):
            tokens = float(line.rsplit(" ", 1)[1])
        elif line.startswith("mock_server_requests_running "):
            running = float(line.rsplit(" ", 1)[1])
    return requests, tokens, running


def scrape(url, timeout=2.0):
    with urllib.request.urlopen(url + "/metrics", timeout=timeout) as r:
        return parse_metrics(r.read().decode())


def mock_poller(url, t0, series, stop, interval):
    while not stop.is_set():
        t = time.monotonic()
        try:
            series.append((t - t0,) + scrape(url))
        except Exception:  # the mock may be too busy to answer in time; skip the sample
            pass
        stop.wait(max(0.0, interval - (time.monotonic() - t)))


def wrap(args):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("prctl(PR_SET_CHILD_SUBREAPER) failed")
    me = os.getpid()
    out_dir = os.path.dirname(os.path.abspath(args.out))
    stdout = open(os.path.join(out_dir, "stdout.txt"), "wb")
    stderr = open(os.path.join(out_dir, "stderr.txt"), "wb")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    series, stop = [], threading.Event()
    t0 = time.monotonic()
    if args.mock:
        poller = threading.Thread(target=mock_poller, args=(args.mock, t0, series, stop, args.mock_interval),
                                  daemon=True)
        poller.start()
    proc = subprocess.Popen(args.cmd, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL)
    root, root_status, root_exit = proc.pid, None, None
    peak_rss = peak_pss = peak_procs = 0
    seen = {}  # pid -> comm
    cpu_seen = {}  # pid -> last sampled utime+stime ticks (lower bound cross-check)
    timed_out = interrupted = False
    next_pss = 0.0
    while True:
        # Reap whatever ended: the root or orphans re-parented to us.
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid = -1
                break
            if pid == 0:
                break
            if pid == root:
                root_status, root_exit = status, time.monotonic() - t0
                proc.returncode = os.waitstatus_to_exitcode(status)
        now = time.monotonic() - t0
        table = read_proc_table()
        tree = descendants(table, me)
        if pid == -1 and not tree:
            break
        rss = sum(table[p][3] for p in tree) * PAGE // 1024
        peak_rss = max(peak_rss, rss)
        peak_procs = max(peak_procs, len(tree))
        for p in tree:
            name = process_name(p)  # the last name: services rename themselves after start
            seen[p] = name or seen.get(p) or table[p][1]
            cpu_seen[p] = table[p][2]
        if now >= next_pss:  # PSS walks page tables: a little more expensive, every 0.3 s
            peak_pss = max(peak_pss, sum(pss_kib(p) for p in tree))
            next_pss = now + 0.3
        if root_exit is None and now > args.timeout and not timed_out:
            timed_out = True
            try:
                os.kill(root, signal.SIGINT)
            except ProcessLookupError:
                pass
        if root_exit is not None and now - root_exit > args.linger and tree:
            # Leftover processes after the root exited: count them, then end them.
            interrupted = True
            for p in tree:
                try:
                    os.kill(p, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        if timed_out and now > args.timeout + 15:
            for p in tree:
                try:
                    os.kill(p, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        time.sleep(args.interval)
    stop.set()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    names = {}
    for comm in seen.values():
        names[comm] = names.get(comm, 0) + 1
    result = {
        "cmd": args.cmd,
        "exit_code": proc.returncode,
        "wall_s": root_exit,
        "timed_out": timed_out,
        "killed_leftovers": interrupted,
        "cpu_user_s": after.ru_utime - before.ru_utime,
        "cpu_sys_s": after.ru_stime - before.ru_stime,
        "cpu_sampled_lower_bound_s": sum(cpu_seen.values()) / HZ,
        "max_single_rss_kib": after.ru_maxrss,
        "peak_tree_rss_kib": peak_rss,
        "peak_tree_pss_kib": peak_pss,
        "peak_processes": peak_procs,
        "processes_seen": len(seen),
        "process_names": names,
        "mock_series": series,
    }
    with open(args.out, "w") as f:
        json.dump(result, f)


# ---------------------------------------------------------------- bench: the whole comparison

def log(*a):
    print(*a, file=sys.stderr, flush=True)


class Mock:
    def __init__(self, binary, args, workdir, name):
        self.log_path = os.path.join(workdir, f"{name}.log")
        self.proc = subprocess.Popen([binary, "--port", "0"] + args, stdout=open(self.log_path, "w"),
                                     stderr=subprocess.STDOUT)
        for _ in range(200):
            text = open(self.log_path).read()
            m = re.search(r"listening on (http://[0-9.]+:[0-9]+)", text)
            if m:
                self.url = m.group(1)
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise SystemExit(f"mock server did not start: {open(self.log_path).read()}")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def measured(cmd, workdir, mock_url=None, timeout=600, mock_interval=0.1):
    os.makedirs(workdir, exist_ok=True)
    out = os.path.join(workdir, "measure.json")
    wrapper = [sys.executable, os.path.abspath(__file__), "wrap", out, "--timeout", str(timeout),
               "--mock-interval", str(mock_interval)]
    if mock_url:
        wrapper += ["--mock", mock_url]
    subprocess.run(wrapper + ["--"] + cmd, check=True)
    with open(out) as f:
        m = json.load(f)
    export = os.path.join(workdir, "artifacts", "profile_export_aiperf.json")
    m["export"] = json.load(open(export)) if os.path.exists(export) else {}
    return m


def inner_rate(series, col):
    """Rate of a mock counter while it grows, from the first to the last sample strictly inside the
    active window (both ends of the window are between two samples, so they are left out)."""
    if len(series) < 3:
        return None
    start, end = series[0][col], series[-1][col]
    inside = [s for s in series if start < s[col] < end]
    if len(inside) < 2 or inside[-1][0] <= inside[0][0]:
        return None
    return (inside[-1][col] - inside[0][col]) / (inside[-1][0] - inside[0][0])


def held_in_flight(series):
    """(time average over the middle half of the active window, peak) of the mock's in-flight gauge.
    The average, not the median: a tool that cannot keep up sends in bursts, and the average is what
    the server carries (Little's law: requests/s x latency)."""
    active = [s for s in series if s[3] > 0]
    if not active:
        return 0, 0
    t_a, t_b = active[0][0], active[-1][0]
    lo, hi = t_a + (t_b - t_a) * 0.25, t_a + (t_b - t_a) * 0.75
    mid = [s[3] for s in series if lo <= s[0] <= hi] or [s[3] for s in active]
    return statistics.mean(mid), max(s[3] for s in active)


def stat(export, key, field="avg"):
    v = export.get(key)
    return v.get(field) if isinstance(v, dict) else None


def fmt(v, digits=0):
    if v is None:
        return "n/a"
    if isinstance(v, str):
        return v
    return f"{v:,.{digits}f}"


def ratio(a, b, digits=2):
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or not b:
        return ""
    return f"{a / b:.{digits}f}"


def version_of(cmd):
    try:
        out = subprocess.run(cmd + ["--version"], capture_output=True, text=True, timeout=120)
        text = (out.stdout + out.stderr).strip().splitlines()
        return text[-1].strip() if text else "?"
    except Exception as e:  # pragma: no cover
        return f"? ({e})"


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = 0
    for line in open("/proc/meminfo"):
        if line.startswith("MemTotal:"):
            mem = int(line.split()[1]) // 1024
    load = open("/proc/loadavg").read().split()[:3]
    return cpu, mem, load


def bench(args):
    work = tempfile.mkdtemp(prefix="aiperf-speed-")
    log(f"speed: work directory {work}")
    tools = {"ours": [args.ours], "reference": [args.ref]}
    versions = {name: version_of(cmd) for name, cmd in tools.items()}
    cpu, mem, load_before = machine()
    secs = args.seconds

    def cmd_for(tool, url, art, extra):
        return tools[tool] + ["profile", "--model", "m", "--url", url, "--endpoint-type", "chat",
                              "--tokenizer", args.tokenizer, "--isl", "16", "--isl-stddev", "0",
                              "--artifact-dir", art] + extra

    results = {}
    fast = Mock(args.mock, ["--fast"], work, "mock-fast")
    try:
        # 1. Throughput at concurrency 64, non-streaming and streaming, 100 output tokens each.
        load = ["--concurrency", "64", "--benchmark-duration", str(secs), "--benchmark-grace-period", "5",
                "--osl", "100", "--osl-stddev", "0", "--extra-inputs", "ignore_eos:true"]
        for mode, extra in (("plain", []), ("stream", ["--streaming"])):
            for tool in ("ours", "reference"):
                d = os.path.join(work, f"{mode}-{tool}")
                log(f"speed: {mode} concurrency 64, {tool}, {secs}s")
                results[(mode, tool)] = measured(cmd_for(tool, fast.url, os.path.join(d, "artifacts"), load + extra),
                                                 d, fast.url, timeout=secs + 300)
        # 2. Launch-to-exit wall time of a one-request run, median of 3, alternating the tools.
        walls = {"ours": [], "reference": []}
        for i in range(3):
            for tool in ("ours", "reference"):
                d = os.path.join(work, f"one-{tool}-{i}")
                log(f"speed: one-request run {i + 1}/3, {tool}")
                m = measured(cmd_for(tool, fast.url, os.path.join(d, "artifacts"),
                                     ["--request-count", "1", "--concurrency", "1", "--osl", "100",
                                      "--extra-inputs", "ignore_eos:true"]), d, timeout=300)
                walls[tool].append(m["wall_s"] if m["exit_code"] == 0 else None)
                results[("one", tool, i)] = m
    finally:
        fast.stop()

    # 3. Highest concurrency held against a slow server: TTFT 1 s, 5 tokens, no inter-token delay.
    slow = Mock(args.mock, ["--ttft", "1000", "--itl", "0"], work, "mock-slow")
    slow_rows = {"ours": [], "reference": []}
    slow_secs = args.slow_seconds
    try:
        for tool in ("ours", "reference"):
            for level in args.levels:
                d = os.path.join(work, f"slow-{tool}-{level}")
                log(f"speed: slow server, {tool}, concurrency {level}, {slow_secs}s")
                extra = ["--streaming", "--concurrency", str(level), "--benchmark-duration", str(slow_secs),
                         "--benchmark-grace-period", "5", "--osl", "5", "--osl-stddev", "0",
                         "--extra-inputs", "ignore_eos:true"]
                m = measured(cmd_for(tool, slow.url, os.path.join(d, "artifacts"), extra), d, slow.url,
                             timeout=slow_secs + 240, mock_interval=0.2)
                held, peak = held_in_flight(m["mock_series"])
                slow_rows[tool].append((level, held, peak, m))
                log(f"speed:   held {held:.0f} (peak {peak:.0f}), exit {m['exit_code']}")
                # Wait until the mock has no request left from this run.
                for _ in range(100):
                    try:
                        if scrape(slow.url)[2] == 0:
                            break
                    except Exception:
                        pass
                    time.sleep(0.2)
                # Higher levels are tried until the tool saturates: under half of this level in
                # flight, or under 10 % more than at the level before.
                prev = slow_rows[tool][-2][1] if len(slow_rows[tool]) > 1 else None
                if held < 0.5 * level or (prev is not None and held < 1.1 * prev):
                    break
    finally:
        slow.stop()
    _, _, load_after = machine()

    # ------------------------------------------------------------ the table
    lines = []
    p = lines.append
    p(f"Machine: {os.cpu_count()} CPUs ({cpu}), {mem:,} MiB RAM, Linux {platform.release()}; "
      f"load average {' '.join(load_before)} before, {' '.join(load_after)} after.  ")
    p(f"Ours: `{versions['ours']}`; reference: AIPerf `{versions['reference']}` (Python, its own venv), "
      f"default worker counts for both.  ")
    p(f"Throughput runs: {secs} s each (`--benchmark-duration`), `--isl 16`, `--osl 100`, "
      f"`--extra-inputs ignore_eos:true`, mock `--fast`.")
    p("")
    p("| measurement | ours | reference | ours / reference |")
    p("|---|---:|---:|---:|")

    def row(label, a, b, digits=0):
        p(f"| {label} | {fmt(a, digits)} | {fmt(b, digits)} | {ratio(a, b)} |")

    for mode, title in (("plain", "non-streaming, c=64"), ("stream", "streaming 100 tokens, c=64")):
        o, r = results[(mode, "ours")], results[(mode, "reference")]
        for m in (o, r):
            m["mock_rps"] = inner_rate(m["mock_series"], 1)
            m["mock_cps"] = inner_rate(m["mock_series"], 2)
            reqs = (m["mock_series"][-1][1] - m["mock_series"][0][1]) if m["mock_series"] else 0
            m["mock_requests"] = reqs
            m["cpu_per_1000"] = (m["cpu_user_s"] + m["cpu_sys_s"]) / reqs * 1000 if reqs else None
        row(f"{title}: requests/s (tool's summary)", stat(o["export"], "request_throughput"),
            stat(r["export"], "request_throughput"))
        row(f"{title}: requests/s (mock's counter)", o["mock_rps"], r["mock_rps"])
        if mode == "stream":
            row(f"{title}: chunks/s (mock's generated tokens, 1 per chunk)", o["mock_cps"], r["mock_cps"])
        row(f"{title}: client CPU s per 1000 requests (process tree)", o["cpu_per_1000"], r["cpu_per_1000"], 2)
        row(f"{title}: client CPU s total (user+sys) / requests", f"{o['cpu_user_s'] + o['cpu_sys_s']:.1f} / "
            f"{o['mock_requests']:,.0f}", f"{r['cpu_user_s'] + r['cpu_sys_s']:.1f} / {r['mock_requests']:,.0f}")
        row(f"{title}: peak RSS of the process tree, MiB (sum of RSS)", o["peak_tree_rss_kib"] / 1024,
            r["peak_tree_rss_kib"] / 1024)
        row(f"{title}: peak PSS of the process tree, MiB", o["peak_tree_pss_kib"] / 1024, r["peak_tree_pss_kib"] / 1024)
        row(f"{title}: processes (peak live / seen)", f"{o['peak_processes']} / {o['processes_seen']}",
            f"{r['peak_processes']} / {r['processes_seen']}")
        row(f"{title}: wall time of the run, s", o["wall_s"], r["wall_s"], 1)
    med = {t: (statistics.median(v) if all(x is not None for x in v) else None) for t, v in walls.items()}
    row("one-request run (`--request-count 1`): wall s, launch to exit, median of 3", med["ours"], med["reference"], 2)
    cpus = {t: statistics.median(results[("one", t, i)]["cpu_user_s"] + results[("one", t, i)]["cpu_sys_s"]
                                 for i in range(3)) for t in ("ours", "reference")}
    rss = {t: max(results[("one", t, i)]["peak_tree_rss_kib"] for i in range(3)) / 1024 for t in ("ours", "reference")}
    row("one-request run: client CPU s (start-up and shut-down cost), median of 3", cpus["ours"], cpus["reference"], 2)
    row("one-request run: peak RSS of the process tree, MiB", rss["ours"], rss["reference"])
    p("")
    p(f"Slow server (mock `--ttft 1000 --itl 0`), streaming, `--osl 5`, {slow_secs} s per level; "
      "in flight = the mock's `mock_server_requests_running` gauge sampled every 0.2 s, averaged over "
      "the middle half of the active window (peak in brackets). A level is held when in flight >= 90 % "
      "of it. Levels are tried upward until a tool saturates: under half of the level in flight, or "
      "under 10 % more than at the level before.")
    p("")
    p("| tool | concurrency requested | in flight at the server, average (peak) | TTFT avg / p50 reported, ms | "
      "requests/s reported | errors | exit | client CPU s | peak RSS MiB |")
    p("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    best = {}
    for tool in ("ours", "reference"):
        for level, held, peak, m in slow_rows[tool]:
            e = m["export"]
            if held >= 0.9 * level:
                best[tool] = max(best.get(tool, 0), level)
            errs = stat(e, "error_request_count") if e.get("error_request_count") else (0 if e else None)
            status = "timeout" if m["timed_out"] else str(m["exit_code"])
            p(f"| {tool} | {level:,} | {held:,.0f} ({peak:,.0f}) | {fmt(stat(e, 'time_to_first_token'))} / "
              f"{fmt(stat(e, 'time_to_first_token', 'p50'))} | {fmt(stat(e, 'request_throughput'))} | "
              f"{fmt(errs)} | {status} | {m['cpu_user_s'] + m['cpu_sys_s']:.1f} | "
              f"{m['peak_tree_rss_kib'] / 1024:,.0f} |")
    p("")
    most = {t: max((h for _, h, _, _ in slow_rows[t]), default=0) for t in slow_rows}
    held_txt = {t: f"{best[t]:,}" if best.get(t) else "none" for t in ("ours", "reference")}
    p(f"Highest concurrency held: ours {held_txt['ours']}, reference {held_txt['reference']} "
      f"(levels offered: {', '.join(f'{x:,}' for x in args.levels)}); most requests in flight at the server "
      f"at any level: ours {most['ours']:,.0f}, reference {most['reference']:,.0f}.")
    p("")
    names = {t: results[("stream", t)]["process_names"] for t in ("ours", "reference")}
    for t in ("ours", "reference"):
        p(f"Processes of the {t} streaming run (name: count): "
          + ", ".join(f"{k}: {v}" for k, v in sorted(names[t].items(), key=lambda kv: -kv[1])) + ".  ")
    print("\n".join(lines))
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump({"walls": walls, "slow": {t: [(l, h, pk) for l, h, pk, _ in v] for t, v in slow_rows.items()}},
                  f)
    log(f"speed: raw results and logs in {work}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    w = sub.add_parser("wrap")
    w.add_argument("out")
    w.add_argument("--mock")
    w.add_argument("--timeout", type=float, default=600)
    w.add_argument("--interval", type=float, default=0.1)
    w.add_argument("--mock-interval", type=float, default=0.1)
    w.add_argument("--linger", type=float, default=10.0, help="seconds leftovers may outlive the root")
    b = sub.add_parser("bench")
    b.add_argument("--ours", required=True)
    b.add_argument("--ref", required=True)
    b.add_argument("--mock", required=True)
    b.add_argument("--tokenizer", required=True)
    b.add_argument("--seconds", type=int, default=10)
    b.add_argument("--slow-seconds", type=int, default=10)
    b.add_argument("--levels", type=lambda s: [int(x) for x in s.replace(",", " ").split()],
                   default=[250, 500, 1000, 2500, 5000, 10000])
    argv = sys.argv[1:]
    cmd = []
    if "--" in argv:
        cmd, argv = argv[argv.index("--") + 1:], argv[:argv.index("--")]
    args = ap.parse_args(argv)
    if args.mode == "wrap":
        if not cmd:
            ap.error("wrap needs -- CMD...")
        args.cmd = cmd
        wrap(args)
    else:
        bench(args)


if __name__ == "__main__":
    main()
