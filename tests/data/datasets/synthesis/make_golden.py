# Regenerates golden_*.jsonl from trace.jsonl with AIPerf 0.13's own Synthesizer (block size 4):
#   ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/data/datasets/synthesis/make_golden.py
# Each case: (file, random seed, SynthesisParams fields).
import json
import pathlib

from aiperf.common import random_generator as rng
from aiperf.dataset.synthesis.models import SynthesisParams
from aiperf.dataset.synthesis.synthesizer import Synthesizer

here = pathlib.Path(__file__).parent
traces = [json.loads(line) for line in (here / "trace.jsonl").read_text().splitlines() if line.strip()]
cases = {
    "golden_stretch.jsonl": (1, dict(speedup_ratio=2.0, prefix_len_multiplier=2.5, prompt_len_multiplier=1.5,
                                      prefix_root_multiplier=3, output_len_multiplier=1.5, max_isl=40, max_osl=10)),
    "golden_squeeze.jsonl": (1, dict(prefix_len_multiplier=0.5, prompt_len_multiplier=0.5, output_len_multiplier=0.5,
                                     speedup_ratio=0.3)),
    "golden_roots.jsonl": (7, dict(prefix_root_multiplier=4)),
}
for name, (seed, fields) in cases.items():
    rng.reset()
    rng.init(seed)
    out = Synthesizer(SynthesisParams(block_size=4, **fields)).synthesize_traces([dict(t) for t in traces])
    (here / name).write_text("".join(json.dumps(t) + "\n" for t in out))
