"""Does the reference accept these command lines? Parses and validates, runs nothing.

Runs under the reference's own interpreter, AIPerf's or GenAI-Perf's (whichever is importable):

  ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/compat/ref_parse.py [FILE]
  ~/.cache/aiperf-compat/genai-perf-0.0.16/bin/python tests/compat/ref_parse.py [FILE]

FILE (or stdin) holds a JSON list of argv lists.

Each argv is what follows the program name, e.g. ["profile", "--model", "m", "--streaming"].
For `profile` this does in-process what `aiperf profile` does before it starts anything: cyclopts
parses the tokens into the CLIConfig, then the config is resolved (resolve_config) and the
benchmark plan built (build_benchmark_plan); `run_benchmark` is never called. Other commands are
only parsed and converted by cyclopts (their bodies are not run).
GenAI-Perf: its argparse parser and option checks (parser.parse_args), then the config built and
checked from them (CreateConfig.create), as `genai-perf` does before calling the subcommand.

Prints a JSON list, one entry per argv in order: {"ok": true} or {"ok": false, "error": "..."}.
Nothing the reference prints or logs while parsing reaches stdout.
"""
from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys
import warnings


def _one_line(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}"
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and "errors.pydantic.dev" not in ln]
    return " | ".join(lines)[:600]


class ReusedArguments:
    """cyclopts rebuilds the profile command's ~2,600 arguments from CLIConfig for every parse
    (~90% of the time of a check). This keeps the first build and clears what a parse writes into
    it (tokens, value, converted mark) before the next one. `fresh()` turns the reuse off; main()
    compares both ways on every VERIFY_EVERY-th argv and redoes the batch fresh on any difference."""

    def __init__(self):
        import cyclopts.core as core
        from cyclopts.argument._argument import UNSET

        self.core, self.unset = core, UNSET
        self.original = core.App.assemble_argument_collection
        self.built: dict = {}
        self.reuse = True
        outer = self

        def assemble(app_self, *args, **kwargs):
            if not outer.reuse:
                return outer.original(app_self, *args, **kwargs)
            key = (id(app_self), args, tuple(sorted(kwargs.items())))
            if key not in outer.built:
                outer.built[key] = outer.original(app_self, *args, **kwargs)
            collection = outer.built[key]
            for argument in collection:
                argument.tokens.clear()
                argument._value = outer.unset
                argument._marked_converted = False
                argument._mark_converted_override = False
            return collection

        core.App.assemble_argument_collection = assemble

    @contextlib.contextmanager
    def fresh(self):
        self.reuse = False
        try:
            yield
        finally:
            self.reuse = True


VERIFY_EVERY = 40
REUSE: ReusedArguments | None = None


def aiperf_checker():
    global REUSE
    from aiperf.cli import app as root_app
    from aiperf.cli_commands.profile import app as profile_app
    from aiperf.config.flags.resolver import resolve_config
    from aiperf.config.loader import build_benchmark_plan

    REUSE = ReusedArguments()

    def check(argv: list[str]) -> None:
        if argv and argv[0] == "profile":
            _, bound, _ = profile_app.parse_args(argv[1:], exit_on_error=False, print_error=False,
                                                 help_on_error=False)
            cli_config = bound.arguments["cli_config"]
            config = resolve_config(cli_config, cli_config.config_file)
            build_benchmark_plan(config)
        else:
            root_app.parse_args(argv, exit_on_error=False, print_error=False, help_on_error=False)

    return check


def genai_perf_checker():
    from genai_perf import parser
    from genai_perf.config.input.create_config import CreateConfig

    def check(argv: list[str]) -> None:
        saved = sys.argv
        sys.argv = ["genai-perf"] + list(argv)
        try:
            args, extra_args = parser.parse_args()
        finally:
            sys.argv = saved
        CreateConfig.create(args, extra_args)

    return check


def main() -> int:
    src = open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin
    argvs = json.load(src)
    os.environ.setdefault("COLUMNS", "200")
    warnings.filterwarnings("ignore")
    logging.disable(logging.CRITICAL)
    real_stdout = sys.stdout
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        try:
            check = aiperf_checker()
        except ImportError:
            check = genai_perf_checker()
        logging.disable(logging.CRITICAL)

    def verdict(argv: list[str]) -> dict:
        sink.seek(0)
        sink.truncate()
        try:
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                check(argv)
            return {"ok": True}
        except BaseException as e:  # noqa: BLE001 - argparse's SystemExit counts as a rejection
            if isinstance(e, KeyboardInterrupt):
                raise
            # argparse prints its reason to stderr, then exits 2.
            said = [ln for ln in sink.getvalue().splitlines() if "error:" in ln]
            return {"ok": False, "error": said[-1].strip()[:600] if said and isinstance(e, SystemExit)
                    else _one_line(e)}

    results = []
    for i, argv in enumerate(argvs):
        results.append(verdict(argv))
        if REUSE is not None and i % VERIFY_EVERY == 0:
            with REUSE.fresh():
                if verdict(argv) != results[-1]:
                    print("ref_parse.py: reusing cyclopts' arguments changed a verdict; checking every "
                          "argv afresh", file=sys.stderr)
                    results = [verdict(a) for a in argvs]
                    break
    json.dump(results, real_stdout)
    real_stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
