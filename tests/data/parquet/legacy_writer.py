"""A minimal Parquet writer for the layouts pyarrow reads but no longer writes: legacy 2-level
lists (a repeated primitive, a repeated group of several fields, a repeated group named
"array") and bare repeated fields. Used by make_fixtures.py; pyarrow reading the file back is
the judge of the expected rows. One row group, one uncompressed PLAIN data page (v1) per column;
each column is given as its (repetition level, definition level, value) triples.
"""
import struct

# Thrift compact protocol types.
I32, I64, BINARY, LIST, STRUCT = 5, 6, 8, 9, 12


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return varint((n << 1) ^ (n >> 63))


def tstruct(fields):
    """fields: [(id, type, value)] in id order; value: int, bytes, ("list", elem_type, [..]) or a
    nested field list for STRUCT."""
    out = bytearray()
    last = 0
    for fid, ftype, value in fields:
        delta = fid - last
        out.append((delta << 4) | ftype if 0 < delta <= 15 else ftype)
        if not 0 < delta <= 15:
            out += zigzag(fid)
        last = fid
        out += tvalue(ftype, value)
    out.append(0)
    return bytes(out)


def tvalue(ftype, value):
    if ftype in (I32, I64):
        return zigzag(value)
    if ftype == BINARY:
        return varint(len(value)) + value
    if ftype == STRUCT:
        return tstruct(value)
    if ftype == LIST:
        elem_type, items = value
        head = bytes([(len(items) << 4) | elem_type]) if len(items) < 15 else bytes([0xF0 | elem_type]) + varint(len(items))
        return head + b"".join(tvalue(elem_type, v) for v in items)
    raise ValueError(ftype)


def levels(values, max_level):
    """RLE runs of one value each (valid hybrid encoding), with v1's 4-byte length prefix."""
    width = (max_level.bit_length() + 7) // 8
    body = b"".join(b"\x02" + v.to_bytes(width, "little") for v in values)
    return struct.pack("<I", len(body)) + body


def plain(ptype, v):
    if ptype == 1:
        return struct.pack("<i", v)
    if ptype == 2:
        return struct.pack("<q", v)
    if ptype == 6:
        b = v.encode()
        return struct.pack("<I", len(b)) + b
    raise ValueError(ptype)


def write(path, schema, columns, num_rows):
    """schema: SchemaElement field lists (root first, depth-first); columns: [(path list,
    physical type, max_rep, max_def, [(rep, def, value)])] in schema leaf order."""
    data = bytearray(b"PAR1")
    chunks = []
    for names, ptype, max_rep, max_def, triples in columns:
        page = bytearray()
        if max_rep:
            page += levels([t[0] for t in triples], max_rep)
        if max_def:
            page += levels([t[1] for t in triples], max_def)
        page += b"".join(plain(ptype, t[2]) for t in triples if t[1] == max_def)
        header = tstruct([(1, I32, 0), (2, I32, len(page)), (3, I32, len(page)),
                          (5, STRUCT, [(1, I32, len(triples)), (2, I32, 0), (3, I32, 3), (4, I32, 3)])])
        offset = len(data)
        data += header + page
        size = len(header) + len(page)
        meta = [(1, I32, ptype), (2, LIST, (I32, [0, 3])), (3, LIST, (BINARY, [n.encode() for n in names])),
                (4, I32, 0), (5, I64, len(triples)), (6, I64, size), (7, I64, size), (9, I64, offset)]
        chunks.append([(2, I64, offset), (3, STRUCT, meta)])
    total = sum(c[1][2][5][2] for c in chunks)
    footer = tstruct([(1, I32, 1), (2, LIST, (STRUCT, schema)), (3, I64, num_rows),
                      (4, LIST, (STRUCT, [[(1, LIST, (STRUCT, chunks)), (2, I64, total), (3, I64, num_rows)]]))])
    data += footer + struct.pack("<I", len(footer)) + b"PAR1"
    with open(path, "wb") as f:
        f.write(data)


REQUIRED, OPTIONAL, REPEATED = 0, 1, 2
UTF8, LIST_CT = 0, 3


def element(name, repetition=None, ptype=None, children=None, converted=None):
    fields = []
    if ptype is not None:
        fields.append((1, I32, ptype))
    if repetition is not None:
        fields.append((3, I32, repetition))
    fields.append((4, BINARY, name.encode()))
    if children is not None:
        fields.append((5, I32, children))
    if converted is not None:
        fields.append((6, I32, converted))
    return fields


def write_legacy_lists(path):
    """Four rows; the columns' layouts are documented beside each."""
    schema = [
        element("schema", children=5),
        # a: 2-level list of a repeated primitive -> [1, 2], [], null, [3]
        element("a", OPTIONAL, children=1, converted=LIST_CT),
        element("array", REPEATED, ptype=1),
        # b: repeated group of two fields is the element (a struct)
        element("b", OPTIONAL, children=1, converted=LIST_CT),
        element("rec", REPEATED, children=2),
        element("s", OPTIONAL, ptype=6, converted=UTF8),
        element("n", REQUIRED, ptype=1),
        # c: a repeated group named "array" with one field is the element too
        element("c", OPTIONAL, children=1, converted=LIST_CT),
        element("array", REPEATED, children=1),
        element("v", OPTIONAL, ptype=1),
        # r: a bare repeated primitive (a list that is never null)
        element("r", REPEATED, ptype=2),
        # g: a bare repeated group (a list of structs)
        element("g", REPEATED, children=1),
        element("k", REQUIRED, ptype=1),
    ]
    columns = [
        (["a", "array"], 1, 1, 2, [(0, 2, 1), (1, 2, 2), (0, 1, None), (0, 0, None), (0, 2, 3)]),
        (["b", "rec", "s"], 6, 1, 3, [(0, 3, "x"), (1, 2, None), (0, 0, None), (0, 1, None), (0, 3, "y")]),
        (["b", "rec", "n"], 1, 1, 2, [(0, 2, 1), (1, 2, 2), (0, 0, None), (0, 1, None), (0, 2, 3)]),
        (["c", "array", "v"], 1, 1, 3, [(0, 3, 1), (0, 2, None), (0, 0, None), (0, 1, None)]),
        (["r"], 2, 1, 1, [(0, 1, 5), (1, 1, 6), (0, 0, None), (0, 1, 7), (0, 0, None)]),
        (["g", "k"], 1, 1, 1, [(0, 1, 1), (1, 1, 2), (0, 0, None), (0, 0, None), (0, 1, 3)]),
    ]
    write(path, schema, columns, 4)
