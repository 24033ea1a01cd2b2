# Writes tiny_inception.onnx, the ONNX model the tests convert and tune: a stem convolution, three
# branches (1x1; 1x1 then 3x3; max-pool then 1x1), a concatenation, a head convolution, global pooling
# and a fully connected layer, with node names as PyTorch's exporter writes them and seeded weights.
# Made with the onnx package's own writer (onnx.helper, onnx.save), checked by onnx.checker:
#   python3 -m venv /tmp/onnxgen && /tmp/onnxgen/bin/pip install onnx==1.23.2 numpy==2.4.6
#   /tmp/onnxgen/bin/python tiny_inception.py tiny_inception.onnx
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)
nodes, weights = [], []


def weight(name, *shape):
    weights.append(numpy_helper.from_array((rng.standard_normal(shape) * 0.1).astype(np.float32), name))
    return name


def conv_relu(name, x, cin, cout, k, pad):
    nodes.append(helper.make_node("Conv", [x, weight(name + ".weight", cout, cin, k, k), weight(name + ".bias", cout)],
                                  [name + "_conv"], name="/" + name + "/Conv", pads=[pad] * 4, kernel_shape=[k, k]))
    nodes.append(helper.make_node("Relu", [name + "_conv"], [name + "_relu"], name="/" + name + "/Relu"))
    return name + "_relu"


x = conv_relu("stem", "input", 3, 8, 3, 1)
a = conv_relu("b1", x, 8, 8, 1, 0)
b = conv_relu("b2b", conv_relu("b2a", x, 8, 8, 1, 0), 8, 8, 3, 1)
nodes.append(helper.make_node("MaxPool", [x], ["pooled"], name="/b3/MaxPool", kernel_shape=[3, 3], pads=[1] * 4,
                              strides=[1, 1]))
c = conv_relu("b3", "pooled", 8, 8, 1, 0)
nodes.append(helper.make_node("Concat", [a, b, c], ["branches"], name="/Concat", axis=1))
y = conv_relu("head", "branches", 24, 16, 3, 1)
nodes.append(helper.make_node("GlobalAveragePool", [y], ["pooled_all"], name="/GlobalAveragePool"))
nodes.append(helper.make_node("Flatten", ["pooled_all"], ["flat"], name="/Flatten", axis=1))
nodes.append(helper.make_node("Gemm", ["flat", weight("fc.weight", 10, 16), weight("fc.bias", 10)], ["logits"],
                              name="/fc/Gemm", transB=1))
nodes.append(helper.make_node("Softmax", ["logits"], ["probs"], name="/Softmax", axis=1))
graph = helper.make_graph(nodes, "tiny_inception",
                          [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 32, 32])],
                          [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 10])], weights)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="hsdag-tests")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
