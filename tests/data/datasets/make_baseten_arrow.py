"""Writes the baseten_trace Arrow IPC fixtures (run with an interpreter that has pyarrow, e.g.
~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/data/datasets/make_baseten_arrow.py).

  baseten_trace.arrow        the rows of baseten_trace.jsonl, two record batches (3 + 1 rows)
  baseten_trace_types.arrow  other column types: int32 / uint16 / large_string / large_list /
                             a null column / bool / double
  baseten_trace_bad.arrow    row 2 has output_tokens -2
  baseten_trace_zstd.arrow   a zstd-compressed body (refused)
"""
import json
import os

import pyarrow as pa
import pyarrow.ipc as ipc

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS = ["timestamp_start_unix_ms", "prompt", "input_tokens", "output_tokens", "total_hashes", "block_size",
           "provided_session_id", "duration_e2e_ms"]


def write(name, table, chunk=None, **options):
    with ipc.new_file(os.path.join(HERE, name), table.schema, options=ipc.IpcWriteOptions(**options)) as w:
        w.write_table(table, max_chunksize=chunk)


rows = [json.loads(line) for line in open(os.path.join(HERE, "baseten_trace.jsonl")) if line.strip()]
table = pa.table({c: [r.get(c) for r in rows] for c in COLUMNS})
write("baseten_trace.arrow", table, chunk=3)
write("baseten_trace_zstd.arrow", table, compression="zstd")
write("baseten_trace_types.arrow", pa.table({
    "timestamp_start_unix_ms": pa.array([2000, 1000], pa.int32()),
    "prompt": pa.array(["x", "y"], pa.large_string()),
    "input_tokens": pa.array([1, 65535], pa.uint16()),
    "output_tokens": pa.array([3, 4], pa.int8()),
    "total_hashes": pa.array([[7, 8], None], pa.large_list(pa.uint64())),
    "nothing": pa.array([None, None], pa.null()),
    "flag": pa.array([True, None], pa.bool_()),
    "score": pa.array([0.5, -1.25], pa.float64()),
}))
bad = dict(table.to_pydict())
bad["output_tokens"] = [5, -2, 7, 4]
write("baseten_trace_bad.arrow", pa.table(bad))
