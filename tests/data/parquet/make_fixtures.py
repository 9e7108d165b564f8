#!/usr/bin/env python3
"""Writes the Parquet fixtures of tests/common/parquet/ with pyarrow, each beside the rows
pyarrow reads back (Table.to_pylist()): fixtures.json maps each file to its expected rows
(<table>_rows.json, shared by the files that hold the same table written differently).

Run with the reference venv's python (pyarrow 26):
  ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/data/parquet/make_fixtures.py

Expected-output conventions (the C++ test converts its rows the same way):
  - bytes (binary, fixed_size_binary) -> {"$binary": "<base64>"};
  - date32 -> days since the epoch, time/timestamp -> the stored integer in the column's unit,
    INT96 timestamps -> nanoseconds since the epoch (what the reader documents).
Files whose reading must be refused are listed in refused.json with the expected message part.
"""
import base64
import json
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import legacy_writer  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def plain(value):
    if isinstance(value, (bytes, bytearray)):
        return {"$binary": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, tuple):  # map entries
        return [plain(v) for v in value]
    return value


def integer_view(table):
    """Temporal columns cast to their stored integers (the reader's representation)."""
    cols = []
    for field, col in zip(table.schema, table.columns):
        t = field.type
        if pa.types.is_timestamp(t) or pa.types.is_time64(t) or pa.types.is_date64(t):
            col = col.cast(pa.int64())
        elif pa.types.is_date32(t) or pa.types.is_time32(t):
            col = col.cast(pa.int32())
        cols.append(col)
    return pa.table(cols, names=table.column_names)


MANIFEST = {}  # fixture file -> its expected rows' file


def write(name, table, expected, **kwargs):
    """Writes <name>.parquet; its rows as pyarrow reads them back must equal <expected>.json
    (written by the first fixture of that table, checked identical for the others)."""
    pq.write_table(table, os.path.join(HERE, name + ".parquet"), **kwargs)
    record(name, expected)


def record(name, expected):
    """Records the rows pyarrow reads from <name>.parquet as the expected <expected>.json."""
    path = os.path.join(HERE, name + ".parquet")
    rows = [plain(r) for r in integer_view(pq.read_table(path)).to_pylist()]
    text = json.dumps(rows, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
    out = os.path.join(HERE, expected + ".json")
    if expected in MANIFEST.values():
        with open(out) as f:
            assert f.read() == text, name
    else:
        with open(out, "w") as f:
            f.write(text)
    MANIFEST[name + ".parquet"] = expected + ".json"


def flat_table(n=20):
    def nth(i, v):
        return None if i % 7 == 3 else v

    return pa.table({
        "b": pa.array([nth(i, i % 3 == 0) for i in range(n)], pa.bool_()),
        "i8": pa.array([nth(i, (i * 37) % 256 - 128) for i in range(n)], pa.int8()),
        "i16": pa.array([nth(i, -i * 1000) for i in range(n)], pa.int16()),
        "i32": pa.array([nth(i, -(2**31) + i) for i in range(n)], pa.int32()),
        "i64": pa.array([nth(i, 2**62 - i * 12345678901) for i in range(n)], pa.int64()),
        "u8": pa.array([nth(i, 255 - i) for i in range(n)], pa.uint8()),
        "u16": pa.array([nth(i, 65535 - i) for i in range(n)], pa.uint16()),
        "u32": pa.array([nth(i, 2**32 - 1 - i) for i in range(n)], pa.uint32()),
        "u64": pa.array([nth(i, 2**64 - 1 - i) for i in range(n)], pa.uint64()),
        "f32": pa.array([nth(i, i * 0.1) for i in range(n)], pa.float32()),
        "f64": pa.array([nth(i, i / 3.0 - 2.5) for i in range(n)], pa.float64()),
        "s": pa.array([nth(i, "héllo ✓ " * (i % 3) + str(i)) for i in range(n)], pa.string()),
        "ls": pa.array([nth(i, "large " + str(i)) for i in range(n)], pa.large_string()),
        "bin": pa.array([nth(i, bytes([i, 0, 255 - i])) for i in range(n)], pa.binary()),
        "fixed": pa.array([nth(i, bytes([i, i, i, 0])) for i in range(n)], pa.binary(4)),
        "date": pa.array([nth(i, 19000 + i) for i in range(n)], pa.int32()).cast(pa.date32()),
        "ts_ms": pa.array([nth(i, 1700000000000 + i) for i in range(n)], pa.int64()).cast(pa.timestamp("ms")),
        "ts_us": pa.array([nth(i, 1700000000000000 + i) for i in range(n)], pa.int64()).cast(
            pa.timestamp("us", tz="UTC")),
        "all_null": pa.array([None] * n, pa.int64()),
    })


def text_table(n=120):
    return pa.table({
        "id": pa.array(range(n), pa.int64()),
        "prompt": pa.array([("p%d " % (i % 30)) * (1 + i % 3) for i in range(n)], pa.string()),
        "maybe": pa.array([None if i % 4 == 0 else i * 1.5 for i in range(n)], pa.float64()),
    })


def encodings_table(n=130):
    def nth(i, v):
        return None if i % 11 == 5 else v

    return pa.table({
        "i32": pa.array([nth(i, (i * 7919) % 1000 - 500 if i % 50 else -(2**31)) for i in range(n)], pa.int32()),
        "i64": pa.array([nth(i, 2**63 - 1 if i % 97 == 0 else i * i - 4000) for i in range(n)], pa.int64()),
        "u64": pa.array([nth(i, 2**64 - 1 - i * 3) for i in range(n)], pa.uint64()),
        "s_len": pa.array([nth(i, "len %d" % (i * i)) for i in range(n)], pa.string()),
        "s_pre": pa.array([nth(i, "shared/prefix/%04d/%s" % (i // 3, "x" * (i % 4))) for i in range(n)], pa.string()),
        "fixed": pa.array([nth(i, bytes([i % 256, 7, 7])) for i in range(n)], pa.binary(3)),
        "f32": pa.array([nth(i, i / 8.0 - 3) for i in range(n)], pa.float32()),
        "f64": pa.array([nth(i, i * 1e-3 + 1e300 * (i % 2)) for i in range(n)], pa.float64()),
        "i32_bss": pa.array([nth(i, i * 65537 - 2**30) for i in range(n)], pa.int32()),
    })


def nested_table():
    conv_t = pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))
    img_t = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    return pa.table({
        "ints": pa.array([[1, 2, 3], [], None, [None, 5], [6]], pa.list_(pa.int64())),
        "strs": pa.array([["a"], ["b", None, "c"], [], None, ["", "d"]], pa.list_(pa.string())),
        "point": pa.array([{"x": 1, "y": "one"}, None, {"x": None, "y": "three"}, {"x": 4, "y": None},
                           {"x": 5, "y": "five"}], pa.struct([("x", pa.int32()), ("y", pa.string())])),
        "conversations": pa.array([
            [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
            [],
            None,
            [{"role": "user", "content": None}, None],
            [{"role": "system", "content": "be brief"}],
        ], conv_t),
        "image": pa.array([{"bytes": b"\x89PNG", "path": "a.png"}, {"bytes": None, "path": "b.jpg"}, None,
                           {"bytes": b"", "path": None}, {"bytes": b"\x00\x01", "path": "c.png"}], img_t),
        "matrix": pa.array([[[1, 2], [3]], [[]], [None, [4]], None, [[5, None], []]], pa.list_(pa.list_(pa.int32()))),
        "tagged": pa.array([{"tags": ["x", "y"], "n": 1}, {"tags": [], "n": 2}, {"tags": None, "n": None}, None,
                            {"tags": [None], "n": 5}],
                           pa.struct([("tags", pa.list_(pa.string())), ("n", pa.int64())])),
        "req_list": pa.array([[1], [2, 3], [], [4], [5]], pa.list_(pa.field("item", pa.int16(), nullable=False))),
    })


def main():
    flat = flat_table()
    write("flat_types", flat, "flat_rows")
    write("flat_types_plain", flat, "flat_rows", use_dictionary=False, compression="none")
    write("flat_types_v2", flat, "flat_rows", data_page_version="2.0")
    text = text_table()
    for codec in ("none", "snappy", "gzip", "zstd"):
        write("text_" + codec, text, "text_rows", compression=codec)
    write("text_v2_zstd", text, "text_rows", compression="zstd", data_page_version="2.0")
    write("text_plain_gzip", text, "text_rows", compression="gzip", use_dictionary=False)
    # Several row groups and several pages per column chunk.
    write("text_pages", text, "text_rows", row_group_size=70, data_page_size=256, write_batch_size=16)
    write("text_pages_v2", text, "text_rows", row_group_size=70, data_page_size=256, write_batch_size=16,
          data_page_version="2.0", use_dictionary=False)
    nested = nested_table()
    write("nested", nested, "nested_rows")
    write("nested_v2_plain", nested, "nested_rows", data_page_version="2.0", use_dictionary=False, compression="none")
    write("nested_pages", pa.concat_tables([nested] * 8), "nested_pages_rows", row_group_size=15, data_page_size=128,
          write_batch_size=8, compression="zstd")
    write("nested_legacy_names", nested, "nested_rows", use_compliant_nested_type=False)
    write("empty", text.slice(0, 0), "empty_rows")
    # Legacy 2-level lists and bare repeated fields, which pyarrow reads but does not write.
    legacy_writer.write_legacy_lists(os.path.join(HERE, "legacy_lists.parquet"))
    record("legacy_lists", "legacy_lists_rows")
    # The encodings pyarrow writes only when asked (other writers use them with v2 pages).
    enc = encodings_table()
    encodings = {"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED", "u64": "DELTA_BINARY_PACKED",
                 "s_len": "DELTA_LENGTH_BYTE_ARRAY", "s_pre": "DELTA_BYTE_ARRAY", "fixed": "DELTA_BYTE_ARRAY",
                 "f32": "BYTE_STREAM_SPLIT", "f64": "BYTE_STREAM_SPLIT", "i32_bss": "BYTE_STREAM_SPLIT"}
    write("encodings", enc, "encodings_rows", use_dictionary=False, column_encoding=encodings,
          data_page_size=512, write_batch_size=64)
    write("encodings_v2_snappy", enc, "encodings_rows", use_dictionary=False, column_encoding=encodings,
          data_page_version="2.0", compression="snappy")
    write("int96", pa.table({"t": pa.array([0, 1700000000123456789, None, -86400000000001], pa.timestamp("ns"))}),
          "int96_rows", use_deprecated_int96_timestamps=True)

    # The Baseten trace of tests/data/datasets/baseten_trace.jsonl, as AIPerf 0.13 reads it
    # (two row groups, zstd): the dataset tests replay it.
    cols = ["timestamp_start_unix_ms", "prompt", "input_tokens", "output_tokens", "total_hashes", "block_size",
            "provided_session_id", "duration_e2e_ms"]
    with open(os.path.join(HERE, "..", "datasets", "baseten_trace.jsonl")) as f:
        trace = [json.loads(line) for line in f if line.strip()]
    write("baseten_trace", pa.table({c: [r.get(c) for r in trace] for c in cols}), "baseten_rows",
          row_group_size=3, compression="zstd")
    with open(os.path.join(HERE, "fixtures.json"), "w") as f:
        json.dump(MANIFEST, f, indent=1, sort_keys=True)
        f.write("\n")

    refused = {}
    path = os.path.join(HERE, "refused_map.parquet")
    pq.write_table(pa.table({"m": pa.array([[("a", 1)], []], pa.map_(pa.string(), pa.int64()))}), path)
    refused["refused_map.parquet"] = "column m: MAP columns are not supported"
    path = os.path.join(HERE, "refused_decimal.parquet")
    import decimal
    pq.write_table(pa.table({"d": pa.array([decimal.Decimal("1.25")], pa.decimal128(5, 2))}), path)
    refused["refused_decimal.parquet"] = "column d: DECIMAL is not supported"
    path = os.path.join(HERE, "refused_lz4.parquet")
    pq.write_table(text.slice(0, 5), path, compression="lz4")
    refused["refused_lz4.parquet"] = "unsupported compression codec LZ4_RAW"
    with open(os.path.join(HERE, "refused.json"), "w") as f:
        json.dump(refused, f, indent=1, sort_keys=True)
        f.write("\n")
    write_fuzz_seeds()
    print("pyarrow", pa.__version__, file=sys.stderr)


def write_fuzz_seeds():
    """Small seeds for tests/fuzz/parquet_fuzz.cpp (no embedded Arrow schema: a few hundred bytes
    each), one per code path: flat dictionary + Snappy, plain v2 + GZIP, nested + ZSTD, the DELTA and
    BYTE_STREAM_SPLIT encodings."""
    out = os.path.join(HERE, "..", "..", "fuzz", "corpus", "parquet")
    os.makedirs(out, exist_ok=True)
    flat = pa.table({"i": pa.array([1, None, 3, 3], pa.int32()), "s": pa.array(["a", "b", None, "a"]),
                     "b": pa.array([True, False, None, True])})
    pq.write_table(flat, os.path.join(out, "flat_dict_snappy.parquet"), store_schema=False)
    pq.write_table(flat, os.path.join(out, "flat_plain_v2_gzip.parquet"), store_schema=False,
                   use_dictionary=False, data_page_version="2.0", compression="gzip")
    nested = pa.table({
        "l": pa.array([[1, None], [], None], pa.list_(pa.int64())),
        "c": pa.array([[{"r": "u", "t": "hi"}], None, [None, {"r": None, "t": "x"}]],
                      pa.list_(pa.struct([("r", pa.string()), ("t", pa.string())]))),
    })
    pq.write_table(nested, os.path.join(out, "nested_zstd.parquet"), store_schema=False, compression="zstd")
    pq.write_table(encodings_table(12), os.path.join(out, "delta_bss.parquet"), store_schema=False,
                   use_dictionary=False, compression="none",
                   column_encoding={"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED",
                                    "u64": "DELTA_BINARY_PACKED", "s_len": "DELTA_LENGTH_BYTE_ARRAY",
                                    "s_pre": "DELTA_BYTE_ARRAY", "fixed": "DELTA_BYTE_ARRAY",
                                    "f32": "BYTE_STREAM_SPLIT", "f64": "BYTE_STREAM_SPLIT",
                                    "i32_bss": "BYTE_STREAM_SPLIT"})


if __name__ == "__main__":
    main()
