#!/usr/bin/env python3
"""Reads the reference tools' own --help and turns it into JSON, mechanically.

  python3 tests/compat/ref_help.py [-o ref_help.json] [--ref-aiperf PATH] [--ref-genai-perf PATH]

AIPerf 0.13 (cyclopts + rich): `COLUMNS=400 ref-aiperf <cmd> --help` for `profile` and every other
command, recursing into nested commands (`analyze swim-lane`, `config init`, `kube ...`). Each rich
panel ("╭─ Endpoint ───╮") is a section; each row an option: every spelling (long, short, the
--no-/--empty- negatives), a positional name if any, whether it takes a value, its
"[choices: ...]" (which may wrap over lines), its "[default: ...]" and "[required]".

GenAI-Perf 0.0.16 (argparse): `genai-perf <cmd> --help` for every subcommand; sections are the
argument groups ("Endpoint:"), choices are the {a,b} metavars.

What help cannot say for sure -- whether a cyclopts option is a flag -- is inferred here (a
--no- pair, or a True/False default) and confirmed against the reference by options.py.
Stdlib only; the output is sorted and has no timestamps, so it is deterministic.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

CACHE = os.environ.get("AIPERF_COMPAT_CACHE", os.path.expanduser("~/.cache/aiperf-compat"))
DEFAULT_REF_AIPERF = os.path.join(CACHE, "bin", "ref-aiperf")
DEFAULT_REF_GENAI_PERF = os.path.join(CACHE, "bin", "ref-genai-perf")
# The reference AIPerf's own interpreter: renders many help pages in one process (same text as
# `ref-aiperf <cmd> --help`, checked with --per-process), ~10x faster than one process each.
DEFAULT_REF_PYTHON = os.path.join(CACHE, "aiperf-0.13.0", "bin", "python")

# Runs inside the reference's venv: for each JSON list of command paths read from stdin (one per
# line), writes one line {"<cmd path>": "<help text>"}; so the recursion costs one import.
_IN_PROCESS_HELP = r"""
import contextlib, io, json, os, sys
os.environ["COLUMNS"] = "400"
os.environ["LINES"] = "50"
from aiperf.cli import app
for line in sys.stdin:
    out = {}
    for path in json.loads(line):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            try:
                app(path + ["--help"], exit_on_error=False)
            except SystemExit:
                pass
        out[" ".join(path)] = buf.getvalue()
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"""

_OPT_NAME = re.compile(r"^-{1,2}[A-Za-z0-9?][A-Za-z0-9_.?-]*$")
_POS_NAME = re.compile(r"^[A-Z][A-Z0-9_-]*$")


def run_help(argv: list[str], timeout: float = 120) -> str:
    """stdout+stderr of `argv --help`, at 400 columns so rich wraps as little as possible."""
    env = dict(os.environ, COLUMNS="400", LINES="50", TERM="dumb", NO_COLOR="1")
    env.pop("FORCE_COLOR", None)
    p = subprocess.run(argv + ["--help"], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=timeout)
    return p.stdout + p.stderr


def run_version(argv: list[str]) -> str:
    p = subprocess.run(argv + ["--version"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=120)
    m = re.search(r"(\d+\.\d+\.\d+\S*)", p.stdout + p.stderr)
    return m.group(1) if m else (p.stdout + p.stderr).strip()


# ----------------------------------------------------------------------------------------------
# cyclopts / rich


def _bracket(text: str, key: str) -> str | None:
    """The body of "[key: ...]", brackets inside it balanced (e.g. "[default: ['x']]")."""
    start = text.find("[" + key + ":")
    if start < 0:
        return None
    i = start + len(key) + 2
    depth = 1
    for j in range(i, len(text)):
        if text[j] == "[":
            depth += 1
        elif text[j] == "]":
            depth -= 1
            if depth == 0:
                return text[i:j].strip()
    return text[i:].strip()


def _negatives(names: list[str]) -> list[str]:
    """Spellings that negate another spelling of the same row: --no-x, --empty-x, --a-no-b."""
    out = []
    for n in names:
        if not n.startswith("--"):
            continue
        body = n[2:]
        for p in names:
            if p == n or not p.startswith("--"):
                continue
            pb = p[2:]
            if body in ("no-" + pb, "empty-" + pb) or ("-no-" in body and body.replace("-no-", "-", 1) == pb):
                out.append(n)
                break
    return out


def _split_names(head: str) -> tuple[list[str], str]:
    """Leading name tokens of a row ("RUN-DIRS --run-dirs -o", "--help (-h)"), then the rest."""
    tokens = head.split(" ")
    names: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t == "":
            break
        bare = t[1:-1] if t.startswith("(") and t.endswith(")") else t
        if _OPT_NAME.match(bare) or (not names and _POS_NAME.match(bare)) or \
                (names and _POS_NAME.match(bare) and all(_POS_NAME.match(x) for x in names)):
            names.append(bare)
            i += 1
            continue
        break
    return names, " ".join(tokens[i:]).strip()


def parse_cyclopts_help(text: str) -> dict:
    """{"usage", "description", "sections": [{"title", "options": [...]}], "commands": [...]}."""
    lines = text.splitlines()
    usage = next((ln[len("Usage:"):].strip() for ln in lines if ln.startswith("Usage:")), "")
    sections: list[dict] = []
    commands: list[dict] = []
    desc_lines: list[str] = []
    panel: str | None = None
    rows: list[str] = []
    seen_panel = False

    def flush():
        if panel is None:
            return
        # Entry rows start at the panel's smallest indentation ("*" required marker blanked);
        # deeper rows continue the entry above.
        marks = []
        clean = []
        for r in rows:
            m = re.match(r"^( *)\*( +)(\S.*)$", r)
            if m:
                clean.append(m.group(1) + " " + m.group(2) + m.group(3))
                marks.append(True)
            else:
                clean.append(r)
                marks.append(False)
        indents = [len(r) - len(r.lstrip(" ")) for r in clean if r.strip()]
        if not indents:
            return
        base = min(indents)
        entries: list[dict] = []
        for r, req in zip(clean, marks):
            if not r.strip():
                if entries:
                    entries[-1]["_text"].append("")
                continue
            ind = len(r) - len(r.lstrip(" "))
            body = r.strip()
            if ind == base:
                if panel == "Commands" and not body.startswith("-"):
                    cmd, _, rest = body.partition(" ")
                    entries.append({"_names": [cmd], "_text": [rest.strip()], "_required": req})
                    continue
                names, rest = _split_names(body)
                if not names:
                    if entries:
                        entries[-1]["_text"].append(body)
                    continue
                entries.append({"_names": names, "_text": [rest] if rest else [], "_required": req})
            elif entries:
                entries[-1]["_text"].append(body)
        if panel == "Commands":
            for e in entries:
                names = e["_names"]
                desc = " ".join(t for t in e["_text"] if t).strip()
                # Rows starting with a dash are the app's own flags (--help, --version,
                # --install-completion), the others its commands.
                commands.append({"name": names[0], "flag": names[0].startswith("-"), "aliases": names[1:],
                                 "description": desc})
            return
        opts = []
        for e in entries:
            desc = " ".join(t for t in e["_text"] if t).strip()
            opts.append(_make_option(e["_names"], desc, e["_required"]))
        sections.append({"title": panel, "options": opts})

    for ln in lines:
        if ln.startswith("╭─"):
            flush()
            m = re.match(r"^╭─ (.*?) ─", ln)
            panel = m.group(1).strip() if m else "?"
            rows = []
            seen_panel = True
            continue
        if ln.startswith("╰"):
            flush()
            panel = None
            rows = []
            continue
        if panel is not None and ln.startswith("│"):
            end = ln.rfind("│")
            inner = ln[1:end] if end > 0 else ln[1:]
            rows.append(inner.rstrip())
            continue
        if not seen_panel and not ln.startswith("Usage:"):
            desc_lines.append(ln.strip())
    description = " ".join(x for x in desc_lines if x).strip()
    return {"usage": usage, "description": description, "sections": sections, "commands": commands}


def _make_option(names: list[str], desc: str, required_mark: bool) -> dict:
    positional = next((n for n in names if not n.startswith("-")), None)
    spellings = [n for n in names if n.startswith("-")]
    negatives = _negatives(spellings)
    choices_text = _bracket(desc, "choices")
    choices = [c.strip() for c in choices_text.split(",") if c.strip()] if choices_text is not None else None
    default = _bracket(desc, "default")
    required = required_mark or "[required]" in desc
    # A flag: a positive/negative pair, or a bool default. Confirmed against the reference by
    # options.py (ref_parse.py), since help does not print a metavar.
    takes_value = not (negatives or default in ("True", "False"))
    return {
        "names": spellings,
        "primary": spellings[0] if spellings else positional,
        "long": [n for n in spellings if n.startswith("--") and n not in negatives],
        "short": [n for n in spellings if not n.startswith("--")],
        "negatives": negatives,
        "positional": positional,
        "takes_value": takes_value,
        "choices": choices,
        "default": default,
        "required": required,
        "description": desc,
    }


class HelpSource:
    """`ref-aiperf <path> --help` for batches of paths: in one long-lived reference process when
    `ref_python` is given, else one process per path."""

    def __init__(self, ref: str, ref_python: str | None, jobs: int):
        self.ref, self.jobs, self.proc = ref, jobs, None
        if ref_python:
            env = dict(os.environ, COLUMNS="400", LINES="50", TERM="dumb", NO_COLOR="1")
            self.proc = subprocess.Popen([ref_python, "-c", _IN_PROCESS_HELP], env=env, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def texts(self, paths: list[list[str]]) -> dict[str, str]:
        if self.proc:
            self.proc.stdin.write(json.dumps(paths) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("in-process help failed: " + self.proc.stderr.read()[-2000:])
            return json.loads(line)
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futs = {" ".join(path): pool.submit(run_help, [self.ref] + path) for path in paths}
            return {k: f.result() for k, f in futs.items()}

    def close(self) -> None:
        if self.proc:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)


def collect_aiperf(ref: str, ref_python: str | None = None, jobs: int = 4) -> dict:
    """Every command of the reference AIPerf, recursively, keyed by its path ("analyze swim-lane")."""
    commands: dict[str, dict] = {}
    source = HelpSource(ref, ref_python, jobs)
    try:
        root = parse_cyclopts_help(source.texts([[]])[""])
        pending = [[c["name"]] for c in root["commands"] if not c["flag"]]
        top_flags = sorted(c["name"] for c in root["commands"] if c["flag"])
        while pending:
            texts = source.texts(pending)
            nxt = []
            for path in sorted(pending):
                parsed = parse_cyclopts_help(texts[" ".join(path)])
                subs = [c["name"] for c in parsed["commands"] if not c["flag"]]
                parsed["subcommands"] = sorted(subs)
                del parsed["commands"]
                commands[" ".join(path)] = parsed
                nxt.extend(path + [s] for s in subs)
            pending = nxt
    finally:
        source.close()
    return {"version": run_version([ref]), "root_flags": top_flags, "commands": dict(sorted(commands.items()))}


# ----------------------------------------------------------------------------------------------
# argparse


def parse_argparse_help(text: str) -> dict:
    lines = text.splitlines()
    usage_lines = []
    for ln in lines:
        if ln.startswith("usage:") or (usage_lines and ln.startswith(" ") and not ln.strip().startswith("-")
                                       and len(usage_lines) < 50 and not ln.strip() == ""):
            usage_lines.append(ln.strip())
            continue
        if usage_lines:
            break
    sections: list[dict] = []
    subcommands: list[str] = []
    title = None
    cur = None
    for ln in lines:
        if not ln.strip():
            continue
        if not ln.startswith(" ") and ln.rstrip().endswith(":") and not ln.startswith("usage:"):
            title = ln.rstrip()[:-1]
            sections.append({"title": title, "options": []})
            cur = None
            continue
        if title is None:
            continue
        m = re.match(r"^  (\S.*)$", ln)
        if m and m.group(1).startswith("-"):
            parts = re.split(r" {2,}", m.group(1), maxsplit=1)
            head = parts[0].strip()
            desc = parts[1] if len(parts) > 1 else ""
            names, metavars = [], []
            for part in head.split(", "):
                toks = part.split(" ", 1)
                names.append(toks[0])
                if len(toks) > 1:
                    metavars.append(toks[1])
            choices = None
            for mv in metavars:
                cm = re.match(r"^\{(.*)\}", mv)
                if cm:
                    choices = [c for c in cm.group(1).split(",")]
                    break
            cur = {
                "names": names,
                "primary": next((n for n in names if n.startswith("--")), names[0]),
                "long": [n for n in names if n.startswith("--")],
                "short": [n for n in names if not n.startswith("--")],
                "negatives": [],
                "positional": None,
                "takes_value": bool(metavars),
                "metavar": metavars[0] if metavars else None,
                "choices": choices,
                "default": None,
                "required": False,
                "description": desc.strip(),
            }
            sections[-1]["options"].append(cur)
        elif m and m.group(1).startswith("{") and title == "positional arguments":
            subcommands = [s for s in m.group(1).split("}")[0].strip("{").split(",")]
            cur = None
        elif cur is not None:
            cur["description"] = (cur["description"] + " " + ln.strip()).strip()
    return {"usage": " ".join(usage_lines), "sections": sections, "subcommands": sorted(subcommands)}


def collect_genai_perf(ref: str, jobs: int = 4) -> dict:
    root = parse_argparse_help(run_help([ref]))
    subs = root["subcommands"]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = {s: pool.submit(run_help, [ref, s]) for s in subs}
        commands = {}
        for s in sorted(futs):
            parsed = parse_argparse_help(futs[s].result())
            parsed["subcommands"] = parsed.get("subcommands", [])
            commands[s] = parsed
    return {"version": run_version([ref]), "root_flags": ["--help", "--version"], "commands": commands}


def strip_help_sections(cmd: dict) -> None:
    """Drops argparse's/cyclopts' own --help/--version rows: not options of the tool."""
    for sec in cmd["sections"]:
        sec["options"] = [o for o in sec["options"] if not set(o["names"]) & {"--help", "-h", "--version"}]
    cmd["sections"] = [s for s in cmd["sections"] if s["options"]]


def collect(ref_aiperf: str, ref_genai_perf: str | None, ref_python: str | None = None, jobs: int = 4) -> dict:
    """Both references' help, GenAI-Perf's in a thread while AIPerf's runs."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        gp = pool.submit(collect_genai_perf, ref_genai_perf, jobs) if ref_genai_perf else None
        out = {"aiperf": collect_aiperf(ref_aiperf, ref_python, jobs)}
        if gp:
            out["genai-perf"] = gp.result()
    for tool in out.values():
        for cmd in tool["commands"].values():
            strip_help_sections(cmd)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref-aiperf", default=DEFAULT_REF_AIPERF)
    ap.add_argument("--ref-genai-perf", default=DEFAULT_REF_GENAI_PERF, help="'' to skip GenAI-Perf")
    ap.add_argument("-o", "--output", default="-", help="JSON file (default: stdout)")
    ap.add_argument("--ref-python", default=DEFAULT_REF_PYTHON,
                    help="the reference AIPerf's python: all help pages in one process")
    ap.add_argument("--per-process", action="store_true",
                    help="run `ref-aiperf <cmd> --help` once per command instead (slower, same text)")
    ap.add_argument("-j", "--jobs", type=int, default=3, help="help commands run at once")
    args = ap.parse_args()
    ref_python = None if args.per_process or not os.path.exists(args.ref_python) else args.ref_python
    data = collect(args.ref_aiperf, args.ref_genai_perf or None, ref_python, args.jobs)
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
