
# Appended by the test: random inputs through the snippet's compiled model, against the same model on CPU alone.
import numpy as np
rng = np.random.default_rng(0)
feed = {}
for i in compiled.inputs:
    dims = list(i.get_shape())
    integral = i.get_element_type().is_integral()
    feed[i.get_any_name()] = rng.integers(0, 2, dims).astype(np.int64) if integral else rng.random(dims, dtype=np.float32)
got = compiled.create_infer_request().infer(feed)[compiled.outputs[0]]
if "queue" in globals():
    queue.start_async(feed)
    queue.wait_all()
want = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"}).create_infer_request().infer(feed)[0]
assert got.shape == want.shape, (got.shape, want.shape)
assert np.allclose(got, want, rtol=5e-2, atol=5e-2), float(np.abs(got - want).max())
print("SNIPPET_OK", compiled.get_property("EXECUTION_DEVICES"))
