#!/usr/bin/env python3
"""Writes the 1M-row flat Parquet file build/bin/parquet_bench reads (docs/datasets.md, "Parquet
files"): two int64 columns, an int32 and two strings, with pyarrow's defaults (dictionary,
Snappy). Not a fixture: it goes wherever the argument says (default /tmp/parquet_bench_1m.parquet).

  ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/data/parquet/make_bench_file.py [OUT [ROWS]]
  build/bin/parquet_bench /tmp/parquet_bench_1m.parquet
"""
import random
import sys

import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/parquet_bench_1m.parquet"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
random.seed(1)
pq.write_table(pa.table({
    "id": pa.array(range(n), pa.int64()),
    "timestamp_start_unix_ms": pa.array([1700000000000 + i * 3 for i in range(n)], pa.int64()),
    "input_tokens": pa.array([random.randint(1, 4000) for _ in range(n)], pa.int32()),
    "prompt": pa.array(["prompt number %d with some text" % i for i in range(n)], pa.string()),
    "model": pa.array([random.choice(["a", "b", "c"]) for _ in range(n)], pa.string()),
}), out)
print(out)
