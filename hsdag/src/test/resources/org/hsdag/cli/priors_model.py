# Writes the hand-made PriorBox IR of RealRefusalTest (the graph of ShapeBoundariesTest) with the wheel.
import sys
import numpy as np
import openvino as ov
import openvino.opset8 as op

def c(v):
    return op.constant(np.array(v, dtype=np.int64))

def named(n, name):
    n.set_friendly_name(name)
    return n

x = named(op.parameter([1, 4, 8, 8], np.float32), "x")
img = named(op.parameter([1, 3, 64, 64], np.float32), "img")
a = named(op.relu(x), "a")
s = named(op.shape_of(a), "s")
ss = named(op.strided_slice(s, c([2]), c([4]), c([1]), [0], [0]), "ss")
si = named(op.shape_of(img), "si")
ssi = named(op.strided_slice(si, c([2]), c([4]), c([1]), [0], [0]), "ssi")
pb = named(op.prior_box_clustered(ss, ssi, {"width": [1.0, 2.0], "height": [1.0, 2.0], "clip": False,
    "step_widths": 8.0, "step_heights": 8.0, "offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2]}), "pb")
t = named(op.unsqueeze(pb, c([0])), "t")
b = named(op.relu(x), "b")
bb = named(op.reduce_sum(b, c([1, 2, 3]), True), "bb")
bbr = named(op.reshape(bb, c([1, 1, 1]), False), "bbr")
out = named(op.add(t, bbr), "out")
m = ov.Model([out], [x, img], "priors")
ov.save_model(m, sys.argv[1], compress_to_fp16=False)
