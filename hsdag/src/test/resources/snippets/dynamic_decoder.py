# A small decoder with dynamic inputs, as an exporter writes one: input op names that are not their tensor
# names, and shape computations that reshaping folds into new constants. Usage: python dynamic_decoder.py OUT.xml
import sys
import numpy as np
import openvino as ov
from openvino import opset13 as ops


def named(node, tensor):
    node.output(0).set_names({tensor})
    return node


ids = named(ops.parameter([-1, -1], ov.Type.i64, name="input_ids"), "input_ids")
mask = named(ops.parameter([-1, -1], ov.Type.i64, name="attention_mask"), "encoder_attention_mask")
enc = named(ops.parameter([-1, -1, 16], ov.Type.f32, name="Parameter_93876"), "encoder_hidden_states")
x = ops.gather(ops.constant(np.linspace(-1, 1, 50 * 16, dtype=np.float32).reshape(50, 16)), ids, 0)
shape = ops.shape_of(ids)
seq = ops.squeeze(ops.gather(shape, ops.constant(np.array([1], np.int64)), 0), ops.constant(np.int64(0)))
positions = ops.range(ops.constant(np.int64(0)), seq, ops.constant(np.int64(1)), ov.Type.i64)
x = ops.add(x, ops.unsqueeze(ops.convert(ops.broadcast(positions, shape), ov.Type.f32), ops.constant(np.int64(2))))
scores = ops.matmul(x, enc, False, True)
bias = ops.convert(ops.unsqueeze(mask, ops.constant(np.array([1], np.int64))), ov.Type.f32)
attention = ops.softmax(ops.add(scores, bias), 2)
context = ops.matmul(attention, enc, False, False)
flat = ops.reshape(ops.add(context, x), ops.constant(np.array([-1], np.int64)), False)
out = ops.relu(ops.reshape(flat, ops.concat([ops.constant(np.array([1], np.int64)),
                                              ops.constant(np.array([-1], np.int64))], 0), False))
ov.save_model(ov.Model([ops.result(out)], [ids, mask, enc], "dynamic_decoder"), sys.argv[1], compress_to_fp16=False)
