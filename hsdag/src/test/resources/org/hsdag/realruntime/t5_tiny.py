"""A tiny T5-like encoder, decoder and decoder-with-past, built with OpenVINO's opset the way an
export spells them: shapes computed by ShapeOf/Gather/Concat, KV caches concatenated, causal masks
from Range over the cache length, masks unsqueezed. Usage: t5_tiny.py OUTDIR (writes XML and .bin)."""
import sys, os
import numpy as np
import openvino as ov
import openvino.opset13 as op

D, H, HD, V, FF, L = 32, 4, 8, 50, 64, 2
rng = np.random.default_rng(0)


def w(*shape):
    return op.constant(rng.standard_normal(shape).astype(np.float32) * 0.05)


def i64(v):
    return op.constant(np.array(v, dtype=np.int64))


def rms(x):
    var = op.reduce_mean(op.multiply(x, x), i64([-1]), True)
    return op.multiply(op.divide(x, op.sqrt(op.add(var, op.constant(np.float32(1e-6))))), w(D))


def heads(x):
    # [b, s, D] -> [b, H, s, HD], the target built from the tensor's own shape
    shp = op.shape_of(x)
    bs = op.gather(shp, i64([0, 1]), i64(0))
    tgt = op.concat([bs, i64([H, HD])], 0)
    return op.transpose(op.reshape(x, tgt, False), i64([0, 2, 1, 3]))


def merge(x):
    t = op.transpose(x, i64([0, 2, 1, 3]))
    return op.reshape(t, i64([0, 0, D]), True)


def attend(q, k, v, mask):
    s = op.matmul(q, k, False, True)
    if mask is not None:
        s = op.add(s, mask)
    return op.matmul(op.softmax(s, -1), v, False, False)


def ext_mask(m):
    # [b, s] i64 -> [b, 1, 1, s] additive float mask
    u = op.unsqueeze(m, i64([1, 2]))
    f = op.convert(u, "f32")
    return op.multiply(op.subtract(op.constant(np.float32(1.0)), f), op.constant(np.float32(-1e4)))


def ffn(x):
    return op.matmul(op.relu(op.matmul(x, w(D, FF), False, False)), w(FF, D), False, False)


def named(node, name):
    node.output(0).get_tensor().set_names({name})
    return node


def param(name, shape, t=np.float32):
    p = op.parameter(ov.PartialShape(shape), ov.Type.i64 if t == np.int64 else ov.Type.f32, name=name)
    p.output(0).get_tensor().set_names({name})
    return p


emb = w(V, D)


def encoder():
    ids = param("input_ids", [-1, -1], np.int64)
    am = param("attention_mask", [-1, -1], np.int64)
    x = op.gather(emb, ids, i64(0))
    mask = ext_mask(am)
    for _ in range(L):
        h = rms(x)
        a = attend(heads(op.matmul(h, w(D, D), False, False)), heads(op.matmul(h, w(D, D), False, False)),
                   heads(op.matmul(h, w(D, D), False, False)), mask)
        x = op.add(x, op.matmul(merge(a), w(D, D), False, False))
        x = op.add(x, ffn(rms(x)))
    out = named(rms(x), "last_hidden_state")
    return ov.Model([op.result(out)], [ids, am], "t5_tiny_encoder")


def causal(q_len_src, k):
    # [1,1,q,kv] additive causal mask from the lengths of the query and the keys (Range + comparisons)
    kv_len = op.gather(op.shape_of(k), i64(2), i64(0))
    q_len = op.gather(op.shape_of(q_len_src), i64(1), i64(0))
    past = op.subtract(kv_len, q_len)
    rows = op.add(op.range(i64(0), q_len, i64(1), "i64"), past)
    cols = op.range(i64(0), kv_len, i64(1), "i64")
    allowed = op.greater_equal(op.unsqueeze(rows, i64(-1)), op.unsqueeze(cols, i64(0)))
    m = op.select(allowed, op.constant(np.float32(0.0)), op.constant(np.float32(-1e4)))
    return op.unsqueeze(m, i64([0, 1]))


def decoder(with_past):
    ids = param("input_ids", [-1, -1], np.int64)
    enc_am = param("encoder_attention_mask", [-1, -1], np.int64)
    params = [enc_am]
    enc = None if with_past else param("encoder_hidden_states", [-1, -1, D])
    if enc is not None:
        params.append(enc)
    params.append(ids)
    x = op.gather(emb, ids, i64(0))
    cross_mask = ext_mask(enc_am)
    results = []
    for l in range(L):
        h = rms(x)
        k_new = heads(op.matmul(h, w(D, D), False, False))
        v_new = heads(op.matmul(h, w(D, D), False, False))
        if with_past:
            pk = param(f"past_key_values.{l}.decoder.key", [-1, H, -1, HD])
            pv = param(f"past_key_values.{l}.decoder.value", [-1, H, -1, HD])
            ck = param(f"past_key_values.{l}.encoder.key", [-1, H, -1, HD])
            cv = param(f"past_key_values.{l}.encoder.value", [-1, H, -1, HD])
            params += [pk, pv, ck, cv]
            k = op.concat([pk, k_new], 2)
            v = op.concat([pv, v_new], 2)
        else:
            k, v = k_new, v_new
        results.append(named(op.convert(k, "f32"), f"present.{l}.decoder.key"))
        results.append(named(op.convert(v, "f32"), f"present.{l}.decoder.value"))
        q = heads(op.matmul(h, w(D, D), False, False))
        a = attend(q, k, v, causal(x, k))
        x = op.add(x, op.matmul(merge(a), w(D, D), False, False))
        h = rms(x)
        q = heads(op.matmul(h, w(D, D), False, False))
        if with_past:
            ek, ev = ck, cv
        else:
            ek = heads(op.matmul(enc, w(D, D), False, False))
            ev = heads(op.matmul(enc, w(D, D), False, False))
            results.append(named(op.convert(ek, "f32"), f"present.{l}.encoder.key"))
            results.append(named(op.convert(ev, "f32"), f"present.{l}.encoder.value"))
        a = attend(q, ek, ev, cross_mask)
        x = op.add(x, op.matmul(merge(a), w(D, D), False, False))
        x = op.add(x, ffn(rms(x)))
    logits = named(op.matmul(rms(x), emb, False, True), "logits")
    res = [op.result(logits)] + [op.result(r) for r in results]
    return ov.Model(res, params, "t5_tiny_decoder_with_past" if with_past else "t5_tiny_decoder")


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, m in [("encoder_model", encoder()), ("decoder_model", decoder(False)),
                ("decoder_with_past_model", decoder(True))]:
    ov.save_model(m, os.path.join(out, name + ".xml"), compress_to_fp16=False)
    print(name, len(m.get_ops()), "ops")
