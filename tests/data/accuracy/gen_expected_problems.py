"""Writes expected_problems.json: the problems AIPerf 0.13's benchmark loaders build from the
fixture (tests/data/accuracy/hub), for problems_test.cpp. Run from a directory holding
every fixture repo (lighteval/mmlu, openai/gsm8k, TIGER-Lab/MMLU-Pro, Maxwell-Jia/AIME_2024,
HuggingFaceH4/aime_2024, yentinglin/aime_2025, HuggingFaceH4/MATH-500, Idavidrein/gpqa) as links to the fixture's snapshots (`datasets` loads a local
directory named like the repo), with the reference's venv Python."""
import asyncio, json, sys
from aiperf.accuracy.benchmarks.mmlu import MMLUBenchmark
from aiperf.accuracy.benchmarks.gsm8k import GSM8KBenchmark
from aiperf.accuracy.benchmarks.mmlu_pro import MMLUProBenchmark
from aiperf.accuracy.benchmarks.aime import AIMEBenchmark
from aiperf.accuracy.benchmarks.aime24 import AIME24Benchmark
from aiperf.accuracy.benchmarks.aime25 import AIME25Benchmark
from aiperf.accuracy.benchmarks.math_500 import Math500Benchmark
from aiperf.accuracy.benchmarks.gpqa_diamond import GPQADiamondBenchmark

out = {}
for key, cls, kw in [
    ("mmlu_default", MMLUBenchmark, dict(tasks=None, n_shots=5, enable_cot=False)),
    ("mmlu_anatomy_2shot_cot", MMLUBenchmark, dict(tasks=["anatomy"], n_shots=2, enable_cot=True)),
    ("mmlu_0shot", MMLUBenchmark, dict(tasks=["abstract_algebra"], n_shots=0, enable_cot=False)),
    ("gsm8k", GSM8KBenchmark, dict(tasks=None, n_shots=0, enable_cot=False)),
    ("mmlu_pro_default", MMLUProBenchmark, dict(tasks=None, n_shots=5, enable_cot=True)),
    ("mmlu_pro_cs_2shot_nocot", MMLUProBenchmark, dict(tasks=["computer science"], n_shots=2, enable_cot=False)),
    ("aime_default", AIMEBenchmark, dict(tasks=None, n_shots=8, enable_cot=True)),
    ("aime_2shot_nocot", AIMEBenchmark, dict(tasks=None, n_shots=2, enable_cot=False)),
    ("aime_0shot", AIMEBenchmark, dict(tasks=None, n_shots=0, enable_cot=True)),
    ("aime24", AIME24Benchmark, dict(tasks=None, n_shots=0, enable_cot=False)),
    ("aime25", AIME25Benchmark, dict(tasks=None, n_shots=0, enable_cot=False)),
    ("math_500", Math500Benchmark, dict(tasks=None, n_shots=0, enable_cot=False)),
    ("gpqa_diamond", GPQADiamondBenchmark, dict(tasks=None, n_shots=0, enable_cot=False)),
]:
    b = cls(run=None)
    if cls is MMLUBenchmark and kw["tasks"] is None:
        b._resolve_subjects = lambda tasks: ["abstract_algebra", "anatomy"]
    probs = asyncio.run(b.load_problems(**kw))
    out[key] = [{"prompt": p.prompt, "ground_truth": p.ground_truth, "task": p.task,
                 "messages": p.raw_messages, "generation_size": p.metadata.get("generation_size", 100),
                 "stop": p.metadata.get("stop_sequence") or []} for p in probs]
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
