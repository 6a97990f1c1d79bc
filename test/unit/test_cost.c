/* test_cost.c - the cost model: FLOPs and bytes by op, kinds and
 * recomputability, roofline time, the torch type parser and size parsing.
 * Every expected number is computed by hand in the comments. */
#include "autoac/cost.h"
#include "cost/cost_internal.h"

#include "actest.h"

#include <stdarg.h>
#include <string.h>

/* A tensor type of `bits` per element with the given dims. */
static AcTensorType ten(int bits, int rank, ...) {
  AcTensorType t;
  memset(&t, 0, sizeof t);
  t.isTensor = 1;
  t.rank = rank;
  t.elemBits = bits;
  va_list ap;
  va_start(ap, rank);
  for (int i = 0; i < rank; ++i)
    t.dims[i] = va_arg(ap, int64_t);
  va_end(ap);
  return t;
}
#define F32(...) ten(32, __VA_ARGS__)
#define D(x) ((int64_t)(x))

/* A non-tensor (!torch.int, !torch.none, !torch.list<int>, ...). */
static AcTensorType nt(void) {
  AcTensorType t;
  memset(&t, 0, sizeof t);
  return t;
}

static AcOpCost est(const char *name, const AcTensorType *ops, intptr_t nOps,
                    const AcTensorType *res, intptr_t nRes,
                    const AcOpExtra *extra) {
  AcOpCost c;
  memset(&c, 0xAB, sizeof c); /* estimate must fill every field */
  acCostEstimate(name, ops, nOps, res, nRes, extra, &c);
  return c;
}
#define N(a) ((intptr_t)(sizeof(a) / sizeof((a)[0])))

/*===--------------------------- matmul family ----------------------------===*/

AC_TEST(test_mm) {
  /* [256,2048] x [2048,1024] -> [256,1024]: 2*256*1024*2048 = 1073741824.
   * bytes: (524288 + 2097152 + 262144) elements * 4 = 11534336. */
  AcTensorType ops[] = {F32(2, D(256), D(2048)), F32(2, D(2048), D(1024))};
  AcTensorType res[] = {F32(2, D(256), D(1024))};
  AcOpCost c = est("torch.aten.mm", ops, 2, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_MATMUL);
  CHECK_NEAR(c.flops, 1073741824.0, 1e-12);
  CHECK_NEAR(c.bytesMoved, 11534336.0, 1e-12);
  CHECK(c.recomputable == 1 && c.computeIntensive == 1 && c.isView == 0);
}

AC_TEST(test_bmm) {
  /* [16,128,64] x [16,64,128] -> [16,128,128]: 2*16*128*128*64 = 33554432.
   * bytes: (131072 + 131072 + 262144) * 4 = 2097152. */
  AcTensorType ops[] = {F32(3, D(16), D(128), D(64)), F32(3, D(16), D(64), D(128))};
  AcTensorType res[] = {F32(3, D(16), D(128), D(128))};
  AcOpCost c = est("torch.aten.bmm", ops, 2, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_MATMUL);
  CHECK_NEAR(c.flops, 33554432.0, 1e-12);
  CHECK_NEAR(c.bytesMoved, 2097152.0, 1e-12);
  /* torch.aten.matmul with the same shapes: same count. */
  c = est("torch.aten.matmul", ops, 2, res, 1, NULL);
  CHECK_NEAR(c.flops, 33554432.0, 1e-12);
}

AC_TEST(test_addmm) {
  /* addmm(bias[2048], x[256,2048], w[2048,2048], beta:int, alpha:int):
   * 2*256*2048*2048 + 256*2048 = 2147483648 + 524288 = 2148007936.
   * bytes: (2048 + 524288 + 4194304 + 524288) * 4 = 20979712. */
  AcTensorType ops[] = {F32(1, D(2048)), F32(2, D(256), D(2048)),
                        F32(2, D(2048), D(2048)), nt(), nt()};
  AcTensorType res[] = {F32(2, D(256), D(2048))};
  AcOpCost c = est("torch.aten.addmm", ops, N(ops), res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_MATMUL);
  CHECK_NEAR(c.flops, 2148007936.0, 1e-12);
  CHECK_NEAR(c.bytesMoved, 20979712.0, 1e-12);
  CHECK(c.computeIntensive && c.recomputable);
}

AC_TEST(test_linear) {
  /* linear(x[8,128,512], w[1024,512], b[1024]) -> [8,128,1024]:
   * 2*8*128*1024*512 + 8*128*1024 = 1073741824 + 1048576 = 1074790400. */
  AcTensorType ops[] = {F32(3, D(8), D(128), D(512)), F32(2, D(1024), D(512)),
                        F32(1, D(1024))};
  AcTensorType res[] = {F32(3, D(8), D(128), D(1024))};
  AcOpCost c = est("torch.aten.linear", ops, 3, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_MATMUL);
  CHECK_NEAR(c.flops, 1074790400.0, 1e-12);
  /* Without bias (!torch.none): 1073741824. */
  ops[2] = nt();
  c = est("torch.aten.linear", ops, 3, res, 1, NULL);
  CHECK_NEAR(c.flops, 1073741824.0, 1e-12);
}

AC_TEST(test_other_matmuls) {
  /* linalg.matmul [64,32]x[32,16] -> [64,16] (outs [64,16]): 2*64*16*32. */
  AcTensorType m[] = {F32(2, D(64), D(32)), F32(2, D(32), D(16)), F32(2, D(64), D(16))};
  AcTensorType mr[] = {F32(2, D(64), D(16))};
  AcOpCost c = est("linalg.matmul", m, 3, mr, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_MATMUL);
  CHECK_NEAR(c.flops, 65536.0, 1e-12);
  /* On buffers: no results, the output is the last operand. */
  c = est("linalg.matmul", m, 3, NULL, 0, NULL);
  CHECK_NEAR(c.flops, 65536.0, 1e-12);
  /* Batched: [4,64,32]x[4,32,16] -> [4,64,16]: 2*4*64*16*32 = 262144. */
  AcTensorType b[] = {F32(3, D(4), D(64), D(32)), F32(3, D(4), D(32), D(16)),
                      F32(3, D(4), D(64), D(16))};
  AcTensorType br[] = {F32(3, D(4), D(64), D(16))};
  c = est("linalg.batch_matmul", b, 3, br, 1, NULL);
  CHECK_NEAR(c.flops, 262144.0, 1e-12);
  c = est("stablehlo.dot_general", b, 2, br, 1, NULL);
  CHECK_NEAR(c.flops, 262144.0, 1e-12);
  c = est("tosa.matmul", b, 2, br, 1, NULL);
  CHECK_NEAR(c.flops, 262144.0, 1e-12);
  CHECK(c.computeIntensive);
  /* Square dot_general must not mistake equal dims for batch: 2*32^3. */
  AcTensorType s[] = {F32(2, D(32), D(32)), F32(2, D(32), D(32))};
  AcTensorType sr[] = {F32(2, D(32), D(32))};
  c = est("stablehlo.dot_general", s, 2, sr, 1, NULL);
  CHECK_NEAR(c.flops, 65536.0, 1e-12);
  c = est("mhlo.dot", s, 2, sr, 1, NULL);
  CHECK_NEAR(c.flops, 65536.0, 1e-12);
  /* matvec [64,32]x[32] -> [64]: 2*64*32 = 4096. */
  AcTensorType mv[] = {F32(2, D(64), D(32)), F32(1, D(32)), F32(1, D(64))};
  c = est("linalg.matvec", mv, 3, &mv[2], 1, NULL);
  CHECK_NEAR(c.flops, 4096.0, 1e-12);
  /* linalg.generic contraction: 2 x loop iterations (64*16*32). */
  AcOpExtra x = {64.0 * 16 * 32, 2, 1, 0, 0};
  c = est("linalg.generic", m, 3, mr, 1, &x);
  CHECK_EQ_I64(c.kind, AC_KIND_MATMUL);
  CHECK(c.computeIntensive && c.recomputable);
  CHECK_NEAR(c.flops, 65536.0, 1e-12);
}

/*===--------------------------- convolutions -----------------------------===*/

AC_TEST(test_conv_stride_pad_groups) {
  /* input [2,8,32,32], weight [16,4,3,3] (groups 2: Cin/g = 4), bias [16],
   * stride 2, padding 1, dilation 1:
   *   Hout = floor((32 + 2*1 - 1*(3-1) - 1) / 2) + 1 = floor(29/2)... no:
   *   Hout = floor((H + 2p - d(k-1) - 1)/s) + 1 = floor((32+2-2-1)/2)+1
   *        = floor(31/2) + 1 = 16, likewise Wout = 16.
   * output [2,16,16,16] = 8192 elements, each 4*3*3 = 36 MACs = 72 flops:
   *   8192*72 = 589824, + 8192 bias adds = 598016. */
  AcTensorType ops[] = {F32(4, D(2), D(8), D(32), D(32)),
                        F32(4, D(16), D(4), D(3), D(3)),
                        F32(1, D(16)), nt(), nt(), nt(), nt(), nt(), nt()};
  AcTensorType res[] = {F32(4, D(2), D(16), D(16), D(16))};
  AcOpCost c = est("torch.aten.convolution", ops, N(ops), res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_CONV);
  CHECK_NEAR(c.flops, 598016.0, 1e-12);
  CHECK(c.computeIntensive && c.recomputable && !c.isView);
  /* bytes: (16384 + 576 + 16 + 8192) * 4 = 100672. */
  CHECK_NEAR(c.bytesMoved, 100672.0, 1e-12);
  /* no bias */
  ops[2] = nt();
  c = est("torch.aten._convolution", ops, N(ops), res, 1, NULL);
  CHECK_NEAR(c.flops, 589824.0, 1e-12);
}

AC_TEST(test_conv_transposed) {
  /* transposed: input [1,8,16,16], weight [Cin=8, Cout/g=4, 3, 3], stride 2,
   * padding 1, output_padding 1: Hout = (16-1)*2 - 2 + 3 + 1 = 32 ->
   * output [1,4,32,32].  Each of the 2048 input elements feeds 4*3*3 = 36
   * outputs: 2*2048*36 = 147456.  Detected from w[0] != y[1] == ... */
  AcTensorType ops[] = {F32(4, D(1), D(8), D(16), D(16)),
                        F32(4, D(8), D(4), D(3), D(3)), nt()};
  AcTensorType res[] = {F32(4, D(1), D(4), D(32), D(32))};
  AcOpCost c = est("torch.aten.convolution", ops, 3, res, 1, NULL);
  CHECK_NEAR(c.flops, 147456.0, 1e-12);
  c = est("torch.aten.conv_transpose2d.input", ops, 3, res, 1, NULL);
  CHECK_NEAR(c.flops, 147456.0, 1e-12);
}

AC_TEST(test_conv_backward) {
  /* Same conv as above: forward 589824 flops.  grad_input + grad_weight
   * each ~ forward, grad_bias = sum over grad_output (8192):
   *   2*589824 + 8192 = 1187840. */
  AcTensorType ops[] = {F32(4, D(2), D(16), D(16), D(16)),
                        F32(4, D(2), D(8), D(32), D(32)),
                        F32(4, D(16), D(4), D(3), D(3)), nt(), nt(), nt(),
                        nt(), nt(), nt(), nt(), nt()};
  AcTensorType res[] = {F32(4, D(2), D(8), D(32), D(32)),
                        F32(4, D(16), D(4), D(3), D(3)), F32(1, D(16))};
  AcOpCost c = est("torch.aten.convolution_backward", ops, N(ops), res, 3, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_CONV);
  CHECK_NEAR(c.flops, 1187840.0, 1e-12);
  CHECK(c.computeIntensive && c.recomputable);
  /* output_mask [false, true, false]: !torch.none results. */
  res[0] = nt();
  res[2] = nt();
  c = est("torch.aten.convolution_backward", ops, N(ops), res, 3, NULL);
  CHECK_NEAR(c.flops, 589824.0, 1e-12);
}

AC_TEST(test_conv_other_dialects) {
  /* linalg.conv_2d_nhwc_hwcf: in [1,18,18,8], filter [3,3,8,16],
   * out [1,16,16,16]: 4096 outputs x 3*3*8 MACs x 2 = 589824. */
  AcTensorType l[] = {F32(4, D(1), D(18), D(18), D(8)),
                      F32(4, D(3), D(3), D(8), D(16)),
                      F32(4, D(1), D(16), D(16), D(16))};
  AcOpCost c = est("linalg.conv_2d_nhwc_hwcf", l, 3, &l[2], 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_CONV);
  CHECK_NEAR(c.flops, 589824.0, 1e-12);
  /* nchw_fchw: in [1,8,18,18], filter [16,8,3,3], out [1,16,16,16]. */
  AcTensorType l2[] = {F32(4, D(1), D(8), D(18), D(18)),
                       F32(4, D(16), D(8), D(3), D(3)),
                       F32(4, D(1), D(16), D(16), D(16))};
  c = est("linalg.conv_2d_nchw_fchw", l2, 3, &l2[2], 1, NULL);
  CHECK_NEAR(c.flops, 589824.0, 1e-12);
  /* stablehlo.convolution, same OIHW shapes. */
  c = est("stablehlo.convolution", l2, 2, &l2[2], 1, NULL);
  CHECK_NEAR(c.flops, 589824.0, 1e-12);
  /* depthwise nhwc_hwc: filter [3,3,8], out [1,16,16,8]: 2048 x 9 x 2. */
  AcTensorType d[] = {F32(4, D(1), D(18), D(18), D(8)), F32(3, D(3), D(3), D(8)),
                      F32(4, D(1), D(16), D(16), D(8))};
  c = est("linalg.depthwise_conv_2d_nhwc_hwc", d, 3, &d[2], 1, NULL);
  CHECK_NEAR(c.flops, 36864.0, 1e-12);
  /* tosa.conv2d: weight [O=16,3,3,I=8], bias [16]: 589824 + 4096. */
  AcTensorType t[] = {F32(4, D(1), D(18), D(18), D(8)),
                      F32(4, D(16), D(3), D(3), D(8)), F32(1, D(16))};
  c = est("tosa.conv2d", t, 3, &l[2], 1, NULL);
  CHECK_NEAR(c.flops, 593920.0, 1e-12);
  /* tosa.depthwise_conv2d: weight [3,3,C=8,M=1], out [1,16,16,8], bias [8]:
   * 2048 * 9 * 2 + 2048 = 38912. */
  AcTensorType td[] = {F32(4, D(1), D(18), D(18), D(8)),
                       F32(4, D(3), D(3), D(8), D(1)), F32(1, D(8))};
  c = est("tosa.depthwise_conv2d", td, 3, &d[2], 1, NULL);
  CHECK_NEAR(c.flops, 38912.0, 1e-12);
}

/*===--------------------------- attention --------------------------------===*/

AC_TEST(test_attention) {
  /* q [2,8,128,64], k/v [2,8,256,64]: 4*B*H*L*S*E = 4*2*8*128*256*64
   * = 134217728; backward 2.5x = 335544320. */
  AcTensorType ops[] = {F32(4, D(2), D(8), D(128), D(64)),
                        F32(4, D(2), D(8), D(256), D(64)),
                        F32(4, D(2), D(8), D(256), D(64)), nt()};
  AcTensorType res[] = {F32(4, D(2), D(8), D(128), D(64)), F32(3, D(2), D(8), D(128))};
  AcOpCost c = est("torch.aten._scaled_dot_product_flash_attention", ops, 4,
                   res, 2, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ATTENTION);
  CHECK_NEAR(c.flops, 134217728.0, 1e-12);
  CHECK(c.computeIntensive && c.recomputable);
  AcTensorType bops[] = {F32(4, D(2), D(8), D(128), D(64)), ops[0], ops[1], ops[2],
                         res[0], res[1]};
  c = est("torch.aten._scaled_dot_product_efficient_attention_backward", bops,
          6, ops, 3, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ATTENTION);
  CHECK_NEAR(c.flops, 335544320.0, 1e-12);
}

/*===------------------------ elementwise & reduce -------------------------===*/

AC_TEST(test_elementwise) {
  /* add.Tensor [4,128,256] + [256] (broadcast) -> [4,128,256]:
   * 131072 flops; bytes (131072 + 256 + 131072) * 4 = 1049600. */
  AcTensorType ops[] = {F32(3, D(4), D(128), D(256)), F32(1, D(256)), nt()};
  AcTensorType res[] = {F32(3, D(4), D(128), D(256))};
  AcOpCost c = est("torch.aten.add.Tensor", ops, 3, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  CHECK_NEAR(c.flops, 131072.0, 1e-12);
  CHECK_NEAR(c.bytesMoved, 1049600.0, 1e-12);
  CHECK(c.recomputable && !c.computeIntensive && !c.isView);
  c = est("torch.aten.relu", ops, 1, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  CHECK_NEAR(c.flops, 131072.0, 1e-12);
  CHECK_NEAR(c.bytesMoved, 1048576.0, 1e-12);
  /* threshold_backward(grad, x, threshold) */
  AcTensorType tb[] = {res[0], res[0], nt()};
  c = est("torch.aten.threshold_backward", tb, 3, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  CHECK_NEAR(c.flops, 131072.0, 1e-12);
  /* gelu costs more per element than add (8 per the table). */
  c = est("torch.aten.gelu", ops, 1, res, 1, NULL);
  CHECK_NEAR(c.flops, 8.0 * 131072, 1e-12);
  /* arith and math by prefix; scalars cost nothing. */
  c = est("arith.addf", ops, 1, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  AcTensorType sc[] = {nt(), nt()};
  c = est("arith.addi", sc, 2, sc, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  CHECK_NEAR(c.flops, 0.0, 0);
  CHECK_NEAR(c.bytesMoved, 0.0, 0);
  c = est("math.exp", ops, 1, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  c = est("stablehlo.add", ops, 1, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  c = est("tosa.mul", ops, 1, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  /* dunder ops are not in-place */
  c = est("torch.aten.__and__.Tensor", ops, 2, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  CHECK(c.recomputable);
}

AC_TEST(test_reductions) {
  /* sum.dim_IntList [4,128,256] -> [256]: 131072 flops (1 per input). */
  AcTensorType ops[] = {F32(3, D(4), D(128), D(256)), nt(), nt(), nt()};
  AcTensorType res[] = {F32(1, D(256))};
  AcOpCost c = est("torch.aten.sum.dim_IntList", ops, 4, res, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_REDUCTION);
  CHECK_NEAR(c.flops, 131072.0, 1e-12);
  CHECK_NEAR(c.bytesMoved, (131072.0 + 256) * 4, 1e-12);
  CHECK(c.recomputable);
  /* _softmax: 5 per element. */
  c = est("torch.aten._softmax", ops, 3, ops, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_REDUCTION);
  CHECK_NEAR(c.flops, 5.0 * 131072, 1e-12);
  const char *names[] = {"torch.aten.mean.dim", "torch.aten.native_layer_norm",
                         "torch.aten.native_layer_norm_backward",
                         "torch.aten.native_batch_norm",
                         "torch.aten.native_batch_norm_backward",
                         "torch.aten._softmax_backward_data",
                         "torch.aten.max_pool2d_with_indices",
                         "torch.aten.max_pool2d_with_indices_backward",
                         "torch.aten.amax", "torch.aten.var.correction",
                         "stablehlo.reduce", "linalg.reduce", "tosa.reduce_sum",
                         "linalg.pooling_nhwc_max", "linalg.softmax"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    c = est(names[i], ops, 1, res, 1, NULL);
    if (c.kind != AC_KIND_REDUCTION)
      printf("  %s: kind %d\n", names[i], (int)c.kind);
    CHECK_EQ_I64(c.kind, AC_KIND_REDUCTION);
    CHECK(c.recomputable && c.flops > 0);
  }
  /* linalg.generic with more iterations than outputs reduces. */
  AcOpExtra x = {131072.0, 1, 0, 0, 0};
  c = est("linalg.generic", ops, 1, res, 1, &x);
  CHECK_EQ_I64(c.kind, AC_KIND_REDUCTION);
  CHECK_NEAR(c.flops, 131072.0, 1e-12);
  /* ... and as many iterations as outputs is elementwise, body-op flops. */
  AcOpExtra e = {131072.0, 3, 0, 0, 0};
  c = est("linalg.generic", ops, 1, ops, 1, &e);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  CHECK_NEAR(c.flops, 3.0 * 131072, 1e-12);
  /* a body with no arithmetic is a copy */
  AcOpExtra cp = {131072.0, 0, 0, 0, 0};
  c = est("linalg.generic", ops, 1, ops, 1, &cp);
  CHECK_EQ_I64(c.kind, AC_KIND_DATA_MOVEMENT);
  CHECK_NEAR(c.flops, 0.0, 0);
}

/*===-------------------- kinds and recomputability -----------------------===*/

/* Each of `names` (one operand and one result of type t[0]) is of `kind`,
 * recomputable or not as `recomputable`, and no view. */
static void checkKinds(const char *const *names, size_t n, const AcTensorType *t,
                       AcOpKind kind, int recomputable) {
  for (size_t i = 0; i < n; ++i) {
    AcOpCost c = est(names[i], t, 1, t, 1, NULL);
    if (c.kind != kind)
      printf("  %s: kind %d\n", names[i], (int)c.kind);
    CHECK_EQ_I64(c.kind, kind);
    CHECK(c.recomputable == recomputable && c.isView == 0);
  }
}

AC_TEST(test_random_and_inplace) {
  AcTensorType t[] = {F32(3, D(16), D(128), D(128)), nt(), nt()};
  /* bernoulli_.float: in-place RNG from dropout. */
  AcOpCost c = est("torch.aten.bernoulli_.float", t, 3, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_RANDOM);
  CHECK(c.recomputable == 0);
  CHECK_NEAR(c.bytesMoved, 2.0 * 262144 * 4, 1e-12);
  const char *rnd[] = {"torch.aten.native_dropout", "torch.aten.dropout",
                       "torch.aten.rand", "torch.aten.randn",
                       "torch.aten.randint.low", "torch.aten.rand_like",
                       "torch.aten.normal.Tensor_float", "torch.aten.uniform_",
                       "torch.aten.bernoulli.p", "torch.aten.randperm",
                       "torch.aten.multinomial", "stablehlo.rng",
                       "mhlo.rng", "torch.aten.exponential_"};
  checkKinds(rnd, sizeof rnd / sizeof rnd[0], t, AC_KIND_RANDOM, 0);
  /* Counter-based generators replay: a pure function of their seed/state
     operands, recomputable at FLOP cost per generated element. */
  const char *replay[] = {"linalg.fill_rng_2d", "stablehlo.rng_bit_generator",
                          "mhlo.rng_bit_generator", "torch.rngprims.philox_rand",
                          "autoac.rng.bernoulli", "autoac.rng.uniform",
                          "autoac.rng.normal", "autoac.rng.dropout"};
  checkKinds(replay, sizeof replay / sizeof replay[0], t, AC_KIND_RNG_REPLAY, 1);
  for (size_t i = 0; i < sizeof replay / sizeof replay[0]; ++i) {
    c = est(replay[i], t, 1, t, 1, NULL);
    CHECK(c.computeIntensive == 0);
    CHECK_NEAR(c.flops, 16.0 * 262144, 1e-6);
  }
  /* ... unless it declares memory effects (a memref form): never rerun. */
  AcOpExtra fx;
  memset(&fx, 0, sizeof fx);
  fx.hasMemoryEffects = 1;
  c = est("linalg.fill_rng_2d", t, 1, t, 1, &fx);
  CHECK_EQ_I64(c.kind, AC_KIND_INPLACE);
  CHECK(c.recomputable == 0);
  /* native_dropout_backward is deterministic (mask * grad * scale). */
  c = est("torch.aten.native_dropout_backward", t, 2, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  CHECK(c.recomputable);
  /* stablehlo.exponential is exp, not an RNG. */
  c = est("stablehlo.exponential", t, 1, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_ELEMENTWISE);
  /* In-place: add_ keeps add's flops, is never recomputed. */
  AcTensorType a[] = {t[0], t[0], nt()};
  c = est("torch.aten.add_.Tensor", a, 3, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_INPLACE);
  CHECK(c.recomputable == 0 && !c.isView);
  CHECK_NEAR(c.flops, 262144.0, 1e-12);
  const char *inpl[] = {"torch.aten.copy_", "torch.aten.fill_.Scalar",
                        "torch.aten.zero_", "torch.aten.relu_",
                        "torch.aten.t_", "torch.aten.mul_.Scalar",
                        "torch.aten.index_put_", "torch.overwrite.tensor.contents"};
  for (size_t i = 0; i < sizeof inpl / sizeof inpl[0]; ++i) {
    c = est(inpl[i], t, 1, t, 1, NULL);
    CHECK_EQ_I64(c.kind, AC_KIND_INPLACE);
    CHECK(c.recomputable == 0);
  }
  /* Memory effects win over the table. */
  AcOpExtra eff = {0, 0, 0, 1, 0};
  c = est("torch.aten.relu", t, 1, t, 1, &eff);
  CHECK_EQ_I64(c.kind, AC_KIND_INPLACE);
  CHECK(c.recomputable == 0);
  c = est("torch.aten.view", t, 2, t, 1, &eff);
  CHECK_EQ_I64(c.kind, AC_KIND_INPLACE);
  CHECK(c.isView == 0 && c.recomputable == 0);
}

AC_TEST(test_unknown) {
  AcTensorType t[] = {F32(2, D(10), D(10))};
  AcOpCost c = est("mydialect.frobnicate", t, 1, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_UNKNOWN);
  CHECK(c.unknown == 1);
  CHECK(c.recomputable == 0 && !c.computeIntensive && !c.isView);
  CHECK_NEAR(c.bytesMoved, 800.0, 1e-12);
  CHECK_NEAR(c.flops, 0.0, 0);
  c = est("torch.aten.frobnicate.default", t, 1, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_UNKNOWN);
  CHECK(c.recomputable == 0);
  /* Known pure: may be recomputed, as data movement. */
  AcOpExtra pure = {0, 0, 0, 0, 1};
  c = est("mydialect.frobnicate", t, 1, t, 1, &pure);
  CHECK_EQ_I64(c.kind, AC_KIND_DATA_MOVEMENT);
  CHECK(c.recomputable == 1);
  CHECK(c.unknown == 1); /* recomputable, but its FLOPs are still a guess */
  /* Known names are not unknown, whatever their kind. */
  CHECK(est("torch.aten.mm", t, 1, t, 1, NULL).unknown == 0);
  CHECK(est("torch.aten.bernoulli", t, 1, t, 1, NULL).unknown == 0);
  CHECK(est("torch.aten.add_.Tensor", t, 1, t, 1, NULL).unknown == 0);
  CHECK(est("torch.aten.frobnicate_", t, 1, t, 1, NULL).unknown == 1);
  CHECK_NEAR(c.bytesMoved, 800.0, 1e-12);
  /* Known pure but with memory effects: still in-place. */
  AcOpExtra both = {0, 0, 0, 1, 1};
  c = est("mydialect.frobnicate", t, 1, t, 1, &both);
  CHECK_EQ_I64(c.kind, AC_KIND_INPLACE);
  CHECK(c.recomputable == 0);
  /* Side-effecting torch prims are not constants. */
  c = est("torch.prim.RaiseException", t, 0, NULL, 0, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_UNKNOWN);
  /* NULL name, NULL arrays. */
  c = est(NULL, NULL, 3, NULL, 2, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_UNKNOWN);
  CHECK(c.recomputable == 0 && c.flops == 0 && c.bytesMoved == 0);
  acCostEstimate("torch.aten.mm", NULL, 0, NULL, 0, NULL, NULL); /* no crash */
  /* A very long name does not overflow anything. */
  char longName[400];
  memset(longName, 'a', sizeof longName - 1);
  memcpy(longName, "torch.aten.", 11);
  longName[sizeof longName - 1] = '\0';
  c = est(longName, t, 1, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_UNKNOWN);
}

/* Cost tables: parsing, lookup (exact, then torch without the overload),
 * applying an entry, and every error naming the source and the entry. */
static AcStatus tableFrom(const char *json, AcCostTable **t, AcError *err) {
  acErrorClear(err);
  return acCostTableCreateFromString(json, strlen(json), "t.json", t, err);
}

AC_TEST(test_cost_table) {
  AcCostTable *t = NULL;
  AcError err;
  const char *good =
      "{\"my.op\": {\"flops\": 1e9, \"bytes\": 4096, \"recomputable\": true},"
      " \"torch.aten.foo\": {\"seconds\": 0.25},"
      " \"torch.aten.foo.Tensor\": {\"flops\": 7},"
      " \"a.b\": {\"recomputable\": false}}";
  CHECK(tableFrom(good, &t, &err) == AC_OK);
  CHECK_EQ_I64(acCostTableSize(t), 4);
  CHECK(strcmp(acCostTableSource(t), "t.json") == 0);
  const AcCostOverride *e = acCostTableLookup(t, "my.op");
  CHECK(e && e->hasFlops && e->hasBytes && e->hasRecomputable && !e->hasSeconds);
  CHECK(e && e->flops == 1e9 && e->bytes == 4096 && e->recomputable == 1);
  /* The exact name wins over the base name; other overloads get the base. */
  e = acCostTableLookup(t, "torch.aten.foo.Tensor");
  CHECK(e && e->hasFlops && e->flops == 7 && !e->hasSeconds);
  e = acCostTableLookup(t, "torch.aten.foo.Scalar");
  CHECK(e && e->hasSeconds && e->seconds == 0.25);
  CHECK(acCostTableLookup(t, "torch.aten.foo") == acCostTableLookup(t, "torch.aten.foo.out"));
  CHECK(acCostTableLookup(t, "torch.aten.foobar") == NULL);
  CHECK(acCostTableLookup(t, "my.op2") == NULL);
  CHECK(acCostTableLookup(t, "my") == NULL);
  CHECK(acCostTableLookup(NULL, "my.op") == NULL);
  /* Applying: given fields replace the model's, the op is known; seconds
     are the entry's, else the roofline of the new numbers. */
  AcTensorType x[] = {F32(1, D(1024))};
  AcOpCost c = est("my.op", x, 1, x, 1, NULL);
  CHECK(c.unknown && !c.recomputable);
  const AcDevice *h100 = acDeviceLookup("h100");
  double sec = acCostApplyOverride(acCostTableLookup(t, "my.op"), h100, &c);
  CHECK(!c.unknown && c.recomputable && c.flops == 1e9 && c.bytesMoved == 4096);
  CHECK_NEAR(sec, 1e9 / 989e12, 1e-20);
  c = est("torch.aten.foo.Scalar", x, 1, x, 1, NULL);
  double bytes = c.bytesMoved; /* 8192: in + out */
  sec = acCostApplyOverride(acCostTableLookup(t, "torch.aten.foo.Scalar"), h100, &c);
  CHECK(sec == 0.25 && c.bytesMoved == bytes && c.bytesMoved == 8192);
  acCostTableDestroy(t);
  acCostTableDestroy(NULL);

  struct { const char *json, *message; } bad[] = {
      {"{\"my.op\": {\"flops\": 1,}}", "cannot read cost table 't.json': "},
      {"[1]", "cost table 't.json' must be a JSON object mapping op names"},
      {"{\"myop\": {\"flops\": 1}}", "entry 'myop' is not an op name"},
      {"{\".op\": {\"flops\": 1}}", "entry '.op' is not an op name"},
      {"{\"my.\": {\"flops\": 1}}", "entry 'my.' is not an op name"},
      {"{\"my.op\": 3}", "entry 'my.op' must be an object like"},
      {"{\"my.op\": {\"flop\": 1}}", "entry 'my.op': unknown key \"flop\""},
      {"{\"my.op\": {\"bytes\": -4}}", "entry 'my.op': \"bytes\" must be a finite number >= 0"},
      {"{\"my.op\": {\"flops\": null}}", "entry 'my.op': \"flops\" must be a finite"},
      {"{\"my.op\": {\"seconds\": \"1\"}}", "entry 'my.op': \"seconds\" must be a finite"},
      {"{\"my.op\": {\"recomputable\": \"yes\"}}", "\"recomputable\" must be true or false"},
      {"{\"my.op\": {}}", "entry 'my.op' sets nothing"},
      {"{\"a.b\": {\"flops\": 1}, \"a.b\": {\"flops\": 2}}", "duplicate object key"},
      {"{\"stablehlo.rng\": {\"recomputable\": true}}", "refused for a random op"},
      {"{\"torch.aten.dropout\": {\"recomputable\": true}}", "refused for a random op"},
      {"{\"torch.aten.mul_.Tensor\": {\"recomputable\": true}}", "refused for an in-place op"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    t = (AcCostTable *)1;
    AcStatus st = tableFrom(bad[i].json, &t, &err);
    CHECK(st == AC_ERR_INVALID && t == NULL);
    if (!strstr(err.message, bad[i].message) || !strstr(err.message, "t.json")) {
      printf("  %s: got '%s'\n", bad[i].json, err.message);
      CHECK(0);
    }
  }
  /* A random op may still be given costs, only not made recomputable. */
  CHECK(tableFrom("{\"torch.aten.dropout\": {\"flops\": 3, \"recomputable\": false}}",
                  &t, &err) == AC_OK);
  acCostTableDestroy(t);
  /* Files: a missing one is an I/O error naming it. */
  CHECK(acCostTableCreateFromFile("/nonexistent/autoac-costs.json", &t, &err) == AC_ERR_IO);
  CHECK(t == NULL && strstr(err.message, "/nonexistent/autoac-costs.json"));
  /* Allocation failures: NOMEM, nothing leaked, eventually success. */
  int sawOk = 0;
  for (int64_t n = 1; n < 2000 && !sawOk; ++n) {
    acAllocFailAfter(n);
    AcStatus st = tableFrom(good, &t, &err);
    acAllocFailAfter(0);
    CHECK(st == AC_OK || st == AC_ERR_NOMEM);
    sawOk = st == AC_OK;
    acCostTableDestroy(t);
    t = NULL;
  }
  CHECK(sawOk);
}

AC_TEST(test_views) {
  AcTensorType ops[] = {F32(3, D(4), D(128), D(256)), nt(), nt()};
  AcTensorType res[] = {F32(2, D(512), D(256))};
  const char *views[] = {"torch.aten.view", "torch.aten.t", "torch.aten.transpose.int",
                         "torch.aten.permute", "torch.aten._reshape_alias",
                         "torch.aten._unsafe_view", "torch.aten.reshape",
                         "torch.aten.expand", "torch.aten.squeeze.dim",
                         "torch.aten.unsqueeze", "torch.aten.slice.Tensor",
                         "torch.aten.select.int", "torch.aten.detach",
                         "torch.aten.alias", "torch.aten.as_strided",
                         "torch.aten.numpy_T", "torch.aten.split.Tensor",
                         "tensor.collapse_shape", "tensor.expand_shape",
                         "tensor.cast", "tensor.reshape", "stablehlo.reshape",
                         "mhlo.reshape", "tosa.reshape", "memref.subview",
                         "tensor.extract_slice"};
  for (size_t i = 0; i < sizeof views / sizeof views[0]; ++i) {
    AcOpCost c = est(views[i], ops, 3, res, 1, NULL);
    if (c.kind != AC_KIND_VIEW)
      printf("  %s: kind %d\n", views[i], (int)c.kind);
    CHECK_EQ_I64(c.kind, AC_KIND_VIEW);
    CHECK(c.isView == 1 && c.recomputable == 1 && !c.computeIntensive);
    CHECK(c.flops == 0 && c.bytesMoved == 0);
  }
  /* Data movement, not views: in + out bytes = 2 * 524288. */
  const char *moves[] = {"stablehlo.transpose", "linalg.transpose", "torch.aten.clone",
                         "torch.aten.view_copy", "torch.aten.contiguous",
                         "tensor.pad", "tosa.transpose", "torch.aten.index_select"};
  for (size_t i = 0; i < sizeof moves / sizeof moves[0]; ++i) {
    AcOpCost c = est(moves[i], ops, 1, res, 1, NULL);
    if (c.kind != AC_KIND_DATA_MOVEMENT)
      printf("  %s: kind %d\n", moves[i], (int)c.kind);
    CHECK_EQ_I64(c.kind, AC_KIND_DATA_MOVEMENT);
    CHECK(c.isView == 0 && c.recomputable == 1 && c.flops == 0);
    CHECK_NEAR(c.bytesMoved, 2.0 * 524288, 1e-12);
  }
}

AC_TEST(test_constants_and_fills) {
  AcTensorType none[] = {nt()};
  AcOpCost c = est("torch.constant.int", NULL, 0, none, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_CONSTANT);
  CHECK(c.recomputable && c.bytesMoved == 0 && c.flops == 0);
  c = est("torch.prim.ListConstruct", none, 1, none, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_CONSTANT);
  AcTensorType t[] = {F32(2, D(10), D(10)), nt(), nt(), nt(), nt(), nt()};
  c = est("arith.constant", NULL, 0, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_CONSTANT);
  c = est("stablehlo.constant", NULL, 0, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_CONSTANT);
  c = est("tosa.const", NULL, 0, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_CONSTANT);
  c = est("torch.prim.NumToTensor.Scalar", none, 1, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_CONSTANT);
  /* empty_like: allocates, writes nothing, reads only the shape. */
  c = est("torch.aten.empty_like", t, 6, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_DATA_MOVEMENT);
  CHECK(c.recomputable && c.bytesMoved == 0 && !c.isView);
  c = est("tensor.empty", NULL, 0, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_DATA_MOVEMENT);
  CHECK(c.recomputable);
  /* zeros_like / fill: write the result (400 bytes). */
  c = est("torch.aten.zeros_like", t, 6, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_DATA_MOVEMENT);
  CHECK_NEAR(c.bytesMoved, 400.0, 1e-12);
  AcTensorType f[] = {nt(), t[0]};
  c = est("linalg.fill", f, 2, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_DATA_MOVEMENT);
  CHECK_NEAR(c.bytesMoved, 400.0, 1e-12);
  /* cat of a !torch.list<vtensor>: input bytes taken as output bytes. */
  AcTensorType cat[] = {nt(), nt()};
  c = est("torch.aten.cat", cat, 2, t, 1, NULL);
  CHECK_EQ_I64(c.kind, AC_KIND_DATA_MOVEMENT);
  CHECK_NEAR(c.bytesMoved, 800.0, 1e-12);
  /* stablehlo.concatenate with real operands: in + out. */
  AcTensorType hc[] = {F32(2, D(5), D(10)), F32(2, D(5), D(10))};
  c = est("stablehlo.concatenate", hc, 2, t, 1, NULL);
  CHECK_NEAR(c.bytesMoved, 800.0, 1e-12);
}

AC_TEST(test_corpus_names) {
  /* Every op name in the real torch-mlir joint graphs is recognised. */
  static const struct { const char *name; AcOpKind kind; } names[] = {
      {"torch.aten._reshape_alias", AC_KIND_VIEW},
      {"torch.aten._softmax", AC_KIND_REDUCTION},
      {"torch.aten._softmax_backward_data", AC_KIND_REDUCTION},
      {"torch.aten._unsafe_view", AC_KIND_VIEW},
      {"torch.aten.add.Tensor", AC_KIND_ELEMENTWISE},
      {"torch.aten.addmm", AC_KIND_MATMUL},
      {"torch.aten.bernoulli_.float", AC_KIND_RANDOM},
      {"torch.aten.bmm", AC_KIND_MATMUL},
      {"torch.aten.cat", AC_KIND_DATA_MOVEMENT},
      {"torch.aten.clone", AC_KIND_DATA_MOVEMENT},
      {"torch.aten.convolution", AC_KIND_CONV},
      {"torch.aten.convolution_backward", AC_KIND_CONV},
      {"torch.aten.detach", AC_KIND_VIEW},
      {"torch.aten.div.Scalar", AC_KIND_ELEMENTWISE},
      {"torch.aten.div.Tensor", AC_KIND_ELEMENTWISE},
      {"torch.aten.empty_like", AC_KIND_DATA_MOVEMENT},
      {"torch.aten.expand", AC_KIND_VIEW},
      {"torch.aten.max_pool2d_with_indices", AC_KIND_REDUCTION},
      {"torch.aten.max_pool2d_with_indices_backward", AC_KIND_REDUCTION},
      {"torch.aten.mean.dim", AC_KIND_REDUCTION},
      {"torch.aten.mm", AC_KIND_MATMUL},
      {"torch.aten.mul.Tensor", AC_KIND_ELEMENTWISE},
      {"torch.aten.native_batch_norm", AC_KIND_REDUCTION},
      {"torch.aten.native_batch_norm_backward", AC_KIND_REDUCTION},
      {"torch.aten.native_layer_norm", AC_KIND_REDUCTION},
      {"torch.aten.native_layer_norm_backward", AC_KIND_REDUCTION},
      {"torch.aten.relu", AC_KIND_ELEMENTWISE},
      {"torch.aten.split.Tensor", AC_KIND_VIEW},
      {"torch.aten.sum", AC_KIND_REDUCTION},
      {"torch.aten.sum.dim_IntList", AC_KIND_REDUCTION},
      {"torch.aten.t", AC_KIND_VIEW},
      {"torch.aten.threshold_backward", AC_KIND_ELEMENTWISE},
      {"torch.aten.transpose.int", AC_KIND_VIEW},
      {"torch.aten.view", AC_KIND_VIEW},
      {"torch.constant.bool", AC_KIND_CONSTANT},
      {"torch.constant.float", AC_KIND_CONSTANT},
      {"torch.constant.int", AC_KIND_CONSTANT},
      {"torch.constant.none", AC_KIND_CONSTANT},
      {"torch.prim.ListConstruct", AC_KIND_CONSTANT},
  };
  AcTensorType t[] = {F32(2, D(4), D(4)), F32(2, D(4), D(4)), F32(2, D(4), D(4))};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    AcOpCost c = est(names[i].name, t, 3, t, 1, NULL);
    if (c.kind != names[i].kind)
      printf("  %s: kind %d, want %d\n", names[i].name, (int)c.kind,
             (int)names[i].kind);
    CHECK_EQ_I64(c.kind, names[i].kind);
    CHECK(c.recomputable == (names[i].kind != AC_KIND_RANDOM));
  }
  CHECK(acCostTableSelfCheck() > 100);
}

/*===--------------------------- backward ops -----------------------------===*/

/* The backward ops the PyTorch exporter emits are known (not pinned as
 * unknown), recomputable, and move their operand and result bytes:
 * select_backward(grad [8,256], [8,128,256], 1, 0): grad 8192 + out 1048576. */
AC_TEST(test_backward_ops_known) {
  AcTensorType in[] = {F32(2, D(8), D(256)), nt(), nt(), nt()};
  AcTensorType out[] = {F32(3, D(8), D(128), D(256))};
  static const char *const moves[] = {
      "torch.aten.select_backward", "torch.aten.slice_backward",
      "torch.aten.index_select_backward", "torch.aten.embedding_dense_backward",
      "torch.aten.diagonal_backward", "torch.aten.embedding_backward"};
  for (size_t i = 0; i < sizeof moves / sizeof moves[0]; ++i) {
    AcOpCost c = est(moves[i], in, N(in), out, 1, NULL);
    CHECK(!c.unknown && c.recomputable && c.kind == AC_KIND_DATA_MOVEMENT);
    CHECK_NEAR(c.bytesMoved, 8192.0 + 1048576.0, 1e-12);
    CHECK(c.flops == 0.0);
  }
  /* Elementwise and reducing backward ops: known, recomputable, FLOPs of
     coef x elements (gelu_backward 12 x 262144). */
  static const char *const others[] = {
      "torch.aten.gelu_backward", "torch.aten.native_dropout_backward",
      "torch.aten.native_layer_norm_backward", "torch.aten.unfold_backward",
      "torch.aten.reflection_pad2d_backward", "torch.aten.l1_loss_backward",
      "torch.aten.glu_backward", "torch.aten._prelu_kernel_backward"};
  for (size_t i = 0; i < sizeof others / sizeof others[0]; ++i) {
    AcOpCost c = est(others[i], out, 1, out, 1, NULL);
    CHECK(!c.unknown && c.recomputable && c.flops > 0);
  }
  AcOpCost g = est("torch.aten.gelu_backward", out, 1, out, 1, NULL);
  CHECK_NEAR(g.flops, 12.0 * 262144, 1e-12);
  /* native_dropout_backward is not a random op (its mask is an operand). */
  AcOpCost d = est("torch.aten.native_dropout_backward", out, 1, out, 1, NULL);
  CHECK(d.kind == AC_KIND_ELEMENTWISE && d.recomputable);
}

/*===--------------------------- workspaces -------------------------------===*/

/* Workspace of `name` on profile `dev`. */
static int64_t ws(const char *dev, const char *name, const AcTensorType *ops,
                  intptr_t nOps, const AcTensorType *res, intptr_t nRes) {
  return acCostWorkspace(acDeviceLookup(dev), name, ops, nOps, res, nRes);
}

/* Forward convolution of x [n,c,h,h], w [o,c/g,k,k], y [n,o,p,p]. */
static int64_t convWs(const char *dev, int64_t n, int64_t c, int64_t h,
                      int64_t o, int64_t cg, int64_t k, int64_t p) {
  AcTensorType ops[] = {F32(4, n, c, h, h), F32(4, o, cg, k, k), nt(), nt(),
                        nt(), nt(), nt(), nt(), nt()};
  AcTensorType res[] = {F32(4, n, o, p, p)};
  return ws(dev, "torch.aten.convolution", ops, N(ops), res, 1);
}

/* Backward of the same; `mask` bit i: result i (dx, dw, db) wanted. */
static int64_t convBwdWs(const char *dev, int64_t n, int64_t c, int64_t h,
                         int64_t o, int64_t k, int64_t p, int mask) {
  AcTensorType ops[] = {F32(4, n, o, p, p), F32(4, n, c, h, h), F32(4, o, c, k, k),
                        nt(), nt(), nt(), nt(), nt(), nt(), nt(), nt()};
  AcTensorType res[] = {(mask & 1) ? F32(4, n, c, h, h) : nt(),
                        (mask & 2) ? F32(4, o, c, k, k) : nt(),
                        (mask & 4) ? F32(1, o) : nt()};
  return ws(dev, "torch.aten.convolution_backward", ops, N(ops), res, 3);
}

/* Every number below is torch 1.13's, measured on CPU (one thread, the
 * profiler's memory events: peak inside the op less what it returns;
 * docs/cost-model.md "Workspaces" has the table and the formulas). */
AC_TEST(test_workspace_conv) {
  /* oneDNN forward: max(x' + w' + y', y' + y) - y, channels padded to 8.
     8x16x28x28 -> 32: x 401408 + w 18432 < y 802816: y. */
  CHECK_EQ_I64(convWs("cpu1", 8, 16, 28, 32, 16, 3, 28), 802816);
  CHECK_EQ_I64(convWs("cpu1", 8, 64, 56, 64, 64, 3, 56), 6569984);   /* x + w */
  CHECK_EQ_I64(convWs("cpu1", 4, 128, 28, 256, 128, 3, 14), 2785280); /* stride 2 */
  CHECK_EQ_I64(convWs("cpu1", 2, 256, 14, 512, 256, 3, 14), 5120000);
  CHECK_EQ_I64(convWs("cpu1", 8, 32, 56, 32, 1, 3, 56), 3212416);    /* depthwise */
  /* 3 input channels keep a plain layout (no x'): y = 6422528. */
  CHECK_EQ_I64(convWs("cpu1", 8, 3, 112, 64, 3, 7, 56), 6422528);
  /* 12 channels pad to 16: x' 262144 + w' 18432 + y' 524288 < 2 y: y. */
  CHECK_EQ_I64(convWs("cpu1", 4, 12, 32, 32, 12, 3, 32), 524288);
  /* ATen's slow path: 1x1 unstrided, batch 8, one thread: nothing; two
     threads take oneDNN: max(802816 + 8192 + y, 2 y) - y = y 1605632. */
  CHECK_EQ_I64(convWs("cpu1", 8, 32, 28, 64, 32, 1, 28), 0);
  CHECK_EQ_I64(convWs("cpu2", 8, 32, 28, 64, 32, 1, 28), 1605632);
  CHECK_EQ_I64(convWs("cpu1", 16, 32, 28, 64, 32, 1, 28), 3211264); /* batch 16 */
  /* A tiny input (1x4x8x8, 3x3) unfolds: 4 x 9 x 64 x 4 B = 9216. */
  CHECK_EQ_I64(convWs("cpu1", 1, 4, 8, 8, 4, 3, 8), 9216);
  /* Backward, all three gradients: max(x' + dy', w + b) over the phases. */
  CHECK_EQ_I64(convBwdWs("cpu1", 8, 16, 28, 32, 3, 28, 7), 1204224);
  CHECK_EQ_I64(convBwdWs("cpu1", 8, 64, 56, 64, 3, 56, 7), 12845056);
  CHECK_EQ_I64(convBwdWs("cpu1", 4, 128, 28, 256, 3, 14, 7), 2408448);
  CHECK_EQ_I64(convBwdWs("cpu1", 2, 256, 14, 512, 3, 14, 7), 4720640); /* w + b */
  CHECK_EQ_I64(convBwdWs("cpu1", 8, 3, 112, 64, 7, 56, 7), 6422528);
  /* Few channels: dx' and w' padded to 8 all the same (2x3x64x64, 3x3 ->
     16: dy' 524288 + w' 4608 + dx' 262144 - 100096 returned); strided, a
     gemm kernel: dx + a column buffer 3 x 49 x 256 x 4 + 128 (2x3x32x32,
     7x7/2 -> 16: 24576 + 150656 - 34048). */
  CHECK_EQ_I64(convBwdWs("cpu1", 2, 3, 64, 16, 3, 64, 7), 690944);
  CHECK_EQ_I64(convBwdWs("cpu1", 2, 3, 32, 16, 7, 16, 7), 141184);
  CHECK_EQ_I64(convBwdWs("cpu1", 2, 3, 32, 16, 7, 16, 6), 32768); /* no dx */
  CHECK_EQ_I64(convBwdWs("cpu1", 8, 64, 56, 64, 3, 56, 6), 12845056); /* no dx */
  CHECK_EQ_I64(convBwdWs("cpu1", 8, 64, 56, 64, 3, 56, 1), 6569984);  /* dx only */
  CHECK_EQ_I64(convBwdWs("cpu1", 8, 64, 56, 64, 3, 56, 3), 12845056); /* no db */
  /* GPU profiles model none; no device: none. */
  CHECK_EQ_I64(convWs("h100", 8, 64, 56, 64, 64, 3, 56), 0);
  CHECK_EQ_I64(convBwdWs("a100", 8, 64, 56, 64, 3, 56, 7), 0);
  AcTensorType x[] = {F32(4, D(8), D(64), D(56), D(56))};
  CHECK_EQ_I64(acCostWorkspace(NULL, "torch.aten.convolution", x, 1, x, 1), 0);
  /* Malformed shapes (rank mismatch, missing operands): none, no crash. */
  AcTensorType w2[] = {F32(4, D(8), D(64), D(56), D(56)), F32(2, D(3), D(3))};
  CHECK_EQ_I64(ws("cpu1", "torch.aten.convolution", w2, 2, x, 1), 0);
  CHECK_EQ_I64(ws("cpu1", "torch.aten.convolution", NULL, 0, NULL, 0), 0);
  CHECK_EQ_I64(ws("cpu1", "torch.aten.convolution_backward", x, 1, NULL, 0), 0);
}

/* A constant int list [v, v] as the importer passes it (non-tensor). */
static AcTensorType lst(int64_t v) {
  AcTensorType t = nt();
  t.rank = 2;
  t.dims[0] = t.dims[1] = v;
  return t;
}

/* Backward, all gradients, of x [n,c,h,h] w [o,c/g,k,k] -> y [n,o,p,p] with
 * stride s, padding pd, dilation d given as lists. */
static int64_t convBwdWsAt(const char *dev, int64_t n, int64_t c, int64_t h,
                           int64_t o, int64_t g, int64_t k, int64_t p,
                           int64_t s, int64_t pd, int64_t d) {
  AcTensorType ops[] = {F32(4, n, o, p, p), F32(4, n, c, h, h), F32(4, o, c / g, k, k),
                        nt(), lst(s), lst(pd), lst(d), nt(), nt(), nt(), nt()};
  AcTensorType res[] = {F32(4, n, c, h, h), F32(4, o, c / g, k, k), F32(1, o)};
  return ws(dev, "torch.aten.convolution_backward", ops, N(ops), res, 3);
}

/* oneDNN's gemm weight gradient where its jit kernels cannot run: per
 * thread 4 x the weight + the unfolded input of an image, +128 per entry
 * (docs/cost-model.md); torch 1.13 measured. */
AC_TEST(test_workspace_conv_gemm) {
  /* 2x64x2x2 -> 64, 3x3 (kernel taller than the input): one thread
     4 x 147456 + 64 x 9 x 4 x 4 + 256 = 599296; two (batch 2, 4 outputs
     per thread < 256: outer threading) twice that less 256: 1198336. */
  CHECK_EQ_I64(convBwdWsAt("cpu1", 2, 64, 2, 64, 1, 3, 2, 1, 1, 1), 599296);
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 64, 2, 64, 1, 3, 2, 1, 1, 1), 1198336);
  CHECK_EQ_I64(convBwdWs("cpu1", 2, 64, 2, 64, 3, 2, 7), 599296); /* inferred */
  /* 4x4 inputs: the jit kernel, w + 256 (dw' and db'). */
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 64, 4, 64, 1, 3, 4, 1, 1, 1), 147712);
  /* Dilation 2 (same shapes as padding 1): gemm, 64 positions.  And 40x40
     at batch 2 on two threads: 800 positions per thread, one thread runs:
     4 x 73728 + 32 x 9 x 1600 x 4 + 256 = 2138368. */
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 64, 8, 64, 1, 3, 8, 1, 2, 2), 1474816);
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 32, 40, 64, 1, 3, 40, 1, 2, 2), 2138368);
  /* Depthwise: 2x2 (gemm), 3x3/2 padded 1 on 3x3 (gemm), on 4x4 (jit_dw:
     the blocked formula), 5x5 (always gemm). */
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 32, 2, 32, 32, 3, 2, 1, 1, 1), 9760);
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 32, 3, 32, 32, 3, 2, 2, 1, 1), 9760);
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 32, 4, 32, 32, 3, 2, 2, 1, 1), 5120);
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 32, 8, 32, 32, 5, 4, 2, 2, 1), 29056);
  /* Groups with 4 channels per group: gemm at any size; 16 per group: jit.
     Batch 1, groups 4 > 2: still every thread. */
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 32, 8, 32, 8, 3, 8, 1, 1, 1), 55552);
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 64, 8, 64, 4, 3, 8, 1, 1, 1), 65536);
  CHECK_EQ_I64(convBwdWsAt("cpu2", 1, 64, 2, 64, 4, 3, 2, 1, 1, 1), 299776);
  /* A padding of k or more: gemm (2x64x8x8, 3x3 padded 3 -> 12x12). */
  CHECK_EQ_I64(convBwdWsAt("cpu2", 2, 64, 8, 64, 1, 3, 12, 1, 3, 1), 1843456);
}

AC_TEST(test_workspace_other_ops) {
  /* mse_loss reduced to a scalar keeps a difference tensor: [64,1000] f32
     = 256000 B; unreduced: none. */
  AcTensorType xt[] = {F32(2, D(64), D(1000)), F32(2, D(64), D(1000)), nt()};
  AcTensorType scalar[] = {F32(0)};
  CHECK_EQ_I64(ws("cpu1", "torch.aten.mse_loss", xt, 3, scalar, 1), 256000);
  CHECK_EQ_I64(ws("cpu1", "torch.aten.mse_loss", xt, 3, xt, 1), 0);
  /* native_dropout_backward(grad [8,128,256], mask, scale): the mask as
     f32, 1048576 B. */
  AcTensorType g[] = {F32(3, D(8), D(128), D(256)), ten(8, 3, D(8), D(128), D(256)), nt()};
  CHECK_EQ_I64(ws("cpu1", "torch.aten.native_dropout_backward", g, 3, g, 1), 1048576);
  /* native_batch_norm_backward(dy, x [8,64,56,56], ...): x-sized, 6422528;
     native_batch_norm: two per-channel vectors, 2 x 64 x 4 = 512. */
  AcTensorType bn[] = {F32(4, D(8), D(64), D(56), D(56)), F32(4, D(8), D(64), D(56), D(56)),
                       F32(1, D(64))};
  AcTensorType bnr[] = {F32(4, D(8), D(64), D(56), D(56)), F32(1, D(64)), F32(1, D(64))};
  CHECK_EQ_I64(ws("cpu1", "torch.aten.native_batch_norm_backward", bn, 3, bnr, 3), 6422528);
  CHECK_EQ_I64(ws("cpu1", "torch.aten.native_batch_norm", bn + 1, 2, bnr, 3), 512);
  /* native_layer_norm_backward: 2 x threads x gamma's gradient (256 f32):
     one thread 2048, two 4096; without gamma's gradient none. */
  AcTensorType lnr[] = {F32(3, D(8), D(128), D(256)), F32(1, D(256)), F32(1, D(256))};
  AcTensorType lnr0[] = {F32(3, D(8), D(128), D(256)), nt(), nt()};
  CHECK_EQ_I64(ws("cpu1", "torch.aten.native_layer_norm_backward", g, 1, lnr, 3), 2048);
  CHECK_EQ_I64(ws("cpu2", "torch.aten.native_layer_norm_backward", g, 1, lnr, 3), 4096);
  CHECK_EQ_I64(ws("cpu1", "torch.aten.native_layer_norm_backward", g, 1, lnr0, 3), 0);
  /* _adaptive_avg_pool2d_backward(dy [8,64,1,1], x): none. */
  AcTensorType ap[] = {F32(4, D(8), D(64), D(1), D(1)), F32(4, D(8), D(64), D(56), D(56))};
  CHECK_EQ_I64(ws("cpu1", "torch.aten._adaptive_avg_pool2d_backward.default", ap, 2, ap + 1, 1),
               0);
  /* Measured 0: matmuls, softmax, gelu, pooling, embedding, slicing. */
  static const char *const zero[] = {
      "torch.aten.mm", "torch.aten.addmm", "torch.aten.bmm", "torch.aten._softmax",
      "torch.aten._log_softmax_backward_data", "torch.aten.gelu_backward",
      "torch.aten.max_pool2d_with_indices_backward", "torch.aten.select_backward",
      "torch.aten.embedding_dense_backward", "torch.aten.native_layer_norm",
      "linalg.matmul", "my.op"};
  for (size_t i = 0; i < sizeof zero / sizeof zero[0]; ++i)
    CHECK_EQ_I64(ws("cpu1", zero[i], xt, 2, xt, 1), 0);
  /* The GPU profiles: none for these either. */
  CHECK_EQ_I64(ws("h100", "torch.aten.mse_loss", xt, 3, scalar, 1), 0);
}

/* A cost table's "workspace": whole bytes 0 to 2^62 - 1, else an error
 * naming the source and the entry. */
AC_TEST(test_workspace_table) {
  AcCostTable *t = NULL;
  AcError err;
  CHECK(tableFrom("{\"my.op\": {\"workspace\": 4096},"
                  " \"torch.aten.mse_loss\": {\"workspace\": 0},"
                  " \"a.b\": {\"workspace\": 1e6, \"flops\": 1}}", &t, &err) == AC_OK);
  const AcCostOverride *e = acCostTableLookup(t, "my.op");
  CHECK(e && e->hasWorkspace && e->workspace == 4096 && !e->hasFlops);
  e = acCostTableLookup(t, "torch.aten.mse_loss.default");
  CHECK(e && e->hasWorkspace && e->workspace == 0);
  e = acCostTableLookup(t, "a.b");
  CHECK(e && e->hasWorkspace && e->workspace == 1000000 && e->hasFlops);
  acCostTableDestroy(t);
  static const char *const bad[] = {
      "{\"my.op\": {\"workspace\": -1}}", "{\"my.op\": {\"workspace\": 1.5}}",
      "{\"my.op\": {\"workspace\": \"1MB\"}}", "{\"my.op\": {\"workspace\": 1e30}}",
      "{\"my.op\": {\"workspace\": 4611686018427387904}}", /* 2^62 */
      "{\"my.op\": {\"workspace\": null}}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    t = NULL;
    CHECK(tableFrom(bad[i], &t, &err) == AC_ERR_INVALID && t == NULL);
    CHECK(strstr(err.message, "cost table 't.json': entry 'my.op': \"workspace\" "
                              "must be a whole number of bytes from 0 to 2^62 - 1") != NULL);
  }
  /* The largest accepted. */
  CHECK(tableFrom("{\"my.op\": {\"workspace\": 4611686018427387903}}", &t, &err) == AC_OK);
  e = acCostTableLookup(t, "my.op");
  CHECK(e && e->workspace == INT64_C(4611686018427387903));
  acCostTableDestroy(t);
}

/*===--------------------------- devices ----------------------------------===*/

AC_TEST(test_devices) {
  const AcDevice *h = acDeviceLookup("h100");
  CHECK(h != NULL);
  if (!h)
    return;
  CHECK_NEAR(h->peakFlops, 989e12, 1e-12);
  CHECK_NEAR(h->bandwidth, 3.35e12, 1e-12);
  CHECK(acDeviceLookup("H100") == h);
  CHECK(acDeviceLookup("a100") && acDeviceLookup("a100")->peakFlops == 312e12);
  CHECK(acDeviceLookup("h200") && acDeviceLookup("h200")->bandwidth == 4.8e12);
  CHECK(acDeviceLookup("cpu") && acDeviceLookup("cpu")->peakFlops == 1e12 &&
        acDeviceLookup("cpu")->bandwidth == 1e11);
  CHECK(acDeviceLookup("tpu") == NULL);
  CHECK(acDeviceLookup("") == NULL);
  CHECK(acDeviceLookup("h10") == NULL);
  CHECK(acDeviceLookup("h1000") == NULL);
  CHECK(acDeviceLookup(NULL) == NULL);
  CHECK(strstr(acDeviceNames(), "h100") && strstr(acDeviceNames(), "cpu"));
  /* CPU profiles: PyTorch's CPU kernels, "cpu" with 16 threads, "cpuN" N. */
  CHECK(acDeviceLookup("cpu")->backend == AC_BACKEND_TORCH_CPU &&
        acDeviceLookup("cpu")->threads == 16);
  CHECK(acDeviceLookup("cpu1") && acDeviceLookup("cpu1")->threads == 1 &&
        acDeviceLookup("cpu1")->peakFlops == 1e12);
  CHECK(acDeviceLookup("cpu64") && acDeviceLookup("cpu64")->threads == 64);
  CHECK(acDeviceLookup("cpu3") == NULL);
  CHECK(h->backend == AC_BACKEND_GPU && h->threads == 0);
  CHECK(strstr(acDeviceNames(), "cpu1, cpu2"));

  /* Memory bound: relu on 268435456 f32 elements: 2.68e8 flops,
   * 2 * 1 GiB = 2147483648 bytes.  flops time 2.71e-7 s < bytes time
   * 2147483648 / 3.35e12 = 6.4104e-4 s. */
  AcTensorType big[] = {F32(3, D(1024), D(1024), D(256))};
  AcOpCost c = est("torch.aten.relu", big, 1, big, 1, NULL);
  double s = acCostSeconds(h, c.flops, c.bytesMoved);
  CHECK_NEAR(s, 2147483648.0 / 3.35e12, 1e-12);
  CHECK_NEAR(s, 6.41039e-4, 1e-5);
  /* Compute bound: bf16 mm 8192^3: 2*8192^3 = 1099511627776 flops
   * -> 1.11174e-3 s; bytes 3*8192*8192*2 = 402653184 -> 1.2e-4 s. */
  AcTensorType mm[] = {ten(16, 2, D(8192), D(8192)), ten(16, 2, D(8192), D(8192))};
  c = est("torch.aten.mm", mm, 2, mm, 1, NULL);
  CHECK_NEAR(c.flops, 1099511627776.0, 1e-12);
  CHECK_NEAR(c.bytesMoved, 402653184.0, 1e-12);
  s = acCostSeconds(h, c.flops, c.bytesMoved);
  CHECK_NEAR(s, 1099511627776.0 / 989e12, 1e-12);
  CHECK_NEAR(s, 1.11174e-3, 1e-5);
  CHECK(acCostSeconds(NULL, 1e9, 1e9) == 0.0);
  CHECK(acCostSeconds(h, 0, 0) == 0.0);
}

/*===--------------------------- type parser ------------------------------===*/

static AcStatus parse(const char *s, AcTensorType *t, AcError *e) {
  return acTypeParseTorch(s, strlen(s), t, e);
}

AC_TEST(test_type_good) {
  AcTensorType t;
  AcError e;
  acErrorClear(&e);
  CHECK_EQ_I64(parse("!torch.vtensor<[256,2048],f32>", &t, &e), AC_OK);
  CHECK(t.isTensor == 1 && t.rank == 2 && t.dims[0] == 256 && t.dims[1] == 2048);
  CHECK_EQ_I64(t.elemBits, 32);
  CHECK_EQ_I64(acTensorElements(&t), 524288);
  CHECK_EQ_I64(acTensorBytes(&t), 2097152);
  CHECK_EQ_I64(parse("!torch.vtensor<[],f32>", &t, &e), AC_OK);
  CHECK(t.isTensor && t.rank == 0);
  CHECK_EQ_I64(acTensorElements(&t), 1);
  CHECK_EQ_I64(acTensorBytes(&t), 4);
  CHECK_EQ_I64(parse("[256,2048],bf16", &t, &e), AC_OK);
  CHECK(t.isTensor && t.rank == 2 && t.elemBits == 16);
  CHECK_EQ_I64(acTensorBytes(&t), 1048576);
  CHECK_EQ_I64(parse("!torch.tensor<[2,3],si64>", &t, &e), AC_OK);
  CHECK(t.isTensor && t.rank == 2 && t.elemBits == 64);
  CHECK_EQ_I64(parse("  !torch.vtensor< [ 4 , 5 ] , i1 >  ", &t, &e), AC_OK);
  CHECK(t.isTensor && t.rank == 2 && t.elemBits == 8);
  CHECK_EQ_I64(acTensorBytes(&t), 20);
  CHECK_EQ_I64(parse("!torch.vtensor<[4,64,28,28],si64>", &t, &e), AC_OK);
  CHECK_EQ_I64(acTensorBytes(&t), 4 * 64 * 28 * 28 * 8);
  CHECK_EQ_I64(parse("!torch.vtensor<[2],f8E4M3FN>", &t, &e), AC_OK);
  CHECK_EQ_I64(t.elemBits, 8);
  CHECK_EQ_I64(parse("!torch.vtensor<[2],complex<f32>>", &t, &e), AC_OK);
  CHECK_EQ_I64(t.elemBits, 64);
  CHECK_EQ_I64(parse("!torch.vtensor<[0,5],f32>", &t, &e), AC_OK);
  CHECK_EQ_I64(acTensorElements(&t), 0);
  CHECK_EQ_I64(acTensorBytes(&t), 0);
  CHECK_EQ_I64(parse("!torch.vtensor<[2,3],f32,#sparse>", &t, &e), AC_OK);
  CHECK(t.isTensor && t.rank == 2);
  /* rank exactly AC_MAX_RANK */
  CHECK_EQ_I64(parse("!torch.vtensor<[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2],f16>", &t, &e), AC_OK);
  CHECK(t.rank == AC_MAX_RANK && t.dims[15] == 2);
  /* largest byte size that fits: 2^60 f32 elements would be 2^62 bytes. */
  CHECK_EQ_I64(parse("!torch.vtensor<[1152921504606846976],f32>", &t, &e), AC_OK);
  CHECK_EQ_I64(acTensorBytes(&t), (int64_t)1 << 62);
  /* Builtin shaped types as a convenience. */
  CHECK_EQ_I64(parse("tensor<4x8xf32>", &t, &e), AC_OK);
  CHECK(t.isTensor && t.rank == 2 && t.dims[1] == 8 && t.elemBits == 32);
  CHECK_EQ_I64(parse("tensor<f16>", &t, &e), AC_OK);
  CHECK(t.isTensor && t.rank == 0 && t.elemBits == 16);
  CHECK_EQ_I64(parse("tensor<4x4xf32, #enc>", &t, &e), AC_OK);
  CHECK(t.isTensor && t.rank == 2);
  CHECK_EQ_I64(parse("tensor<3xcomplex<f64>>", &t, &e), AC_OK);
  CHECK_EQ_I64(t.elemBits, 128);
  CHECK_EQ_I64(parse("memref<4x8xbf16, strided<[8, 1]>>", &t, &e), AC_OK);
  CHECK(t.isTensor && t.rank == 2 && t.elemBits == 16);
  CHECK_EQ_I64(e.status, AC_OK);
}

AC_TEST(test_type_non_tensors) {
  const char *ok[] = {"!torch.int", "!torch.float", "!torch.bool", "!torch.none",
                      "!torch.list<int>", "!torch.str", "!torch.Device",
                      "!torch.optional<vtensor>", "!torch.number",
                      "!torch.list<vtensor<[2],f32>>", "!torch.list<vtensor>",
                      "!torch.vtensorx", "!stablehlo.token", "i32", "index",
                      "f32", "none", "vector<4xf32>"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; ++i) {
    AcTensorType t;
    t.isTensor = 7;
    AcError e;
    acErrorClear(&e);
    AcStatus st = parse(ok[i], &t, &e);
    if (st != AC_OK || t.isTensor != 0)
      printf("  %s: status %d isTensor %d (%s)\n", ok[i], (int)st, t.isTensor,
             e.message);
    CHECK_EQ_I64(st, AC_OK);
    CHECK_EQ_I64(t.isTensor, 0);
    CHECK_EQ_I64(acTensorBytes(&t), 0);
    CHECK_EQ_I64(acTensorElements(&t), 0);
  }
}

AC_TEST(test_type_errors) {
  static const struct { const char *text, *why; } bad[] = {
      {"!torch.vtensor<[?,4],f32>", "dynamic"},
      {"!torch.vtensor<[4,?],f32>", "dynamic"},
      {"!torch.vtensor<[-1,4],f32>", "dynamic"},
      {"!torch.vtensor<[-2,4],f32>", "negative"},
      {"!torch.vtensor<[-10,4],f32>", "negative"},
      {"!torch.vtensor", "unranked"},
      {"!torch.tensor", "unranked"},
      {"!torch.vtensor<*,f32>", "unranked"},
      {"!torch.vtensor<[2,3],unk>", "unknown element type"},
      {"!torch.vtensor<[2,3],f31>", "unknown element type"},
      {"!torch.vtensor<[2,3],i0>", "unknown element type"},
      {"!torch.vtensor<[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],f32>", "rank"},
      {"!torch.vtensor<[2,3]", "unbalanced"},
      {"!torch.vtensor<[2,3],f32>>", "after"},
      {"!torch.vtensor<[2,3],f32> x", "after"},
      {"!torch.vtensor<[2 3],f32>", "expected"},
      {"!torch.vtensor<[2,],f32>", "expected a dimension"},
      {"!torch.vtensor<[2,3]>", "element type"},
      {"!torch.vtensor<[2,3],>", "missing element type"},
      {"!torch.vtensor<2,3,f32>", "'['"},
      {"!torch.vtensor<>", "'['"},
      {"!torch.vtensor[2],f32", "'<'"},
      {"[2,3]", "element type"},
      {"[2,3],f32>", "unbalanced"},
      {"", "empty"},
      {"   ", "empty"},
      {"!", "malformed"},
      {"!torch.list<int", "malformed"},
      {"garbage", "not a type"},
      {"tensor<4x?xf32>", "dynamic"},
      {"tensor<*xf32>", "unranked"},
      {"tensor<4x8>", "'x'"},
      {"tensor<4x8xfoo>", "unknown element type"},
      {"tensor", "'<'"},
      {"!torch.vtensor<[9223372036854775807,2],f32>", "overflows"},
      {"!torch.vtensor<[2305843009213693952],f32>", "overflows"},
      {"!torch.vtensor<[99999999999999999999],f32>", "overflows"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    AcTensorType t;
    AcError e;
    acErrorClear(&e);
    AcStatus st = parse(bad[i].text, &t, &e);
    int quoted = 0;
    char q[300];
    snprintf(q, sizeof q, "'%s'", bad[i].text);
    quoted = strstr(e.message, q) != NULL || bad[i].text[0] == ' ' ||
             bad[i].text[0] == '\0';
    if (st != AC_ERR_INVALID || !strstr(e.message, bad[i].why) || !quoted)
      printf("  %s: status %d message '%s'\n", bad[i].text, (int)st, e.message);
    CHECK_EQ_I64(st, AC_ERR_INVALID);
    CHECK_EQ_I64(e.status, AC_ERR_INVALID);
    CHECK(strstr(e.message, bad[i].why) != NULL);
    CHECK(quoted);
    CHECK_EQ_I64(t.isTensor, 0);
  }
  /* NULL text and output. */
  AcTensorType t;
  AcError e;
  CHECK_EQ_I64(acTypeParseTorch(NULL, 5, &t, &e), AC_ERR_INVALID);
  CHECK_EQ_I64(acTypeParseTorch("!torch.int", 10, NULL, &e), AC_ERR_INVALID);
  CHECK_EQ_I64(acTypeParseTorch("!torch.int", 10, &t, NULL), AC_OK);
  CHECK_EQ_I64(acTypeParseTorch("!torch.vtensor<[?],f32>", 23, &t, NULL),
               AC_ERR_INVALID);
}

AC_TEST(test_type_lengths) {
  /* `len` bounds the text: trailing bytes past it are never looked at. */
  const char *s = "!torch.vtensor<[2,3],f32>GARBAGE";
  AcTensorType t;
  AcError e;
  CHECK_EQ_I64(acTypeParseTorch(s, 25, &t, &e), AC_OK);
  CHECK(t.isTensor && t.rank == 2);
  CHECK_EQ_I64(acTypeParseTorch(s, 24, &t, &e), AC_ERR_INVALID);
  CHECK_EQ_I64(acTypeParseTorch(s, 26, &t, &e), AC_ERR_INVALID);
  CHECK_EQ_I64(acTypeParseTorch(s, 0, &t, &e), AC_ERR_INVALID);
  /* Every prefix of each text, copied into a buffer of exactly that size
   * (no terminator: AddressSanitizer flags any read past it). */
  const char *texts[] = {"!torch.vtensor<[256,2048],f32>", "[4,5],bf16",
                         "!torch.vtensor<[2],complex<f32>>", "!torch.list<int>",
                         "tensor<4x8xf32, #enc>", "memref<4xf32>",
                         "!torch.vtensor<[\"x\"],f32>", "vector<4xf32>",
                         "complex<f32>", "!torch.vtensor<[1,2,3],f8E4M3FNUZ>"};
  for (size_t k = 0; k < sizeof texts / sizeof texts[0]; ++k) {
    size_t n = strlen(texts[k]);
    for (size_t l = 0; l <= n; ++l) {
      char *buf = acMalloc(l ? l : 1);
      CHECK(buf != NULL);
      if (!buf)
        return;
      memcpy(buf, texts[k], l);
      AcStatus st = acTypeParseTorch(buf, l, &t, &e);
      CHECK(st == AC_OK || st == AC_ERR_INVALID);
      if (st == AC_OK && t.isTensor)
        CHECK(acTensorBytes(&t) >= 0);
      acFree(buf);
    }
  }
  /* Seeded random bytes from a small alphabet: never crashes, and anything
   * accepted as a tensor has a valid size. */
  const char alpha[] = "!torch.vtensor<[]>,?-0123456789xfi*#\" ";
  uint64_t seed = 12345;
  for (int it = 0; it < 20000; ++it) {
    size_t l = (size_t)(acTestRand(&seed) % 40);
    char buf[40];
    const char *pre = (it & 1) ? "!torch.vtensor<[" : "tensor<";
    size_t pl = strlen(pre) < l ? strlen(pre) : l;
    memcpy(buf, pre, pl);
    for (size_t i = pl; i < l; ++i)
      buf[i] = alpha[acTestRand(&seed) % (sizeof alpha - 1)];
    char *h = acMalloc(l ? l : 1);
    if (!h)
      return;
    memcpy(h, buf, l);
    AcStatus st = acTypeParseTorch(h, l, &t, &e);
    if (st == AC_OK && t.isTensor) {
      CHECK(acTensorBytes(&t) >= 0);
      CHECK(t.rank >= 0 && t.rank <= AC_MAX_RANK);
    }
    acFree(h);
  }
}

AC_TEST(test_elem_bits) {
  static const struct { const char *n; int bits; } cases[] = {
      {"f64", 64}, {"f32", 32}, {"f16", 16}, {"bf16", 16}, {"si64", 64},
      {"si32", 32}, {"si16", 16}, {"si8", 8}, {"ui8", 8}, {"i1", 8},
      {"i8", 8}, {"i16", 16}, {"i32", 32}, {"i64", 64}, {"ui16", 16},
      {"ui32", 32}, {"ui64", 64}, {"i4", 8}, {"f8E4M3FN", 8}, {"f8E5M2", 8},
      {"f8E4M3FNUZ", 8}, {"f8E5M2FNUZ", 8}, {"f8E4M3", 8}, {"f8E3M4", 8},
      {"complex<f32>", 64}, {"complex<f64>", 128}, {"index", 64},
      {"f31", 0}, {"", 0}, {"i", 0}, {"i0", 0}, {"i01", 0}, {"complex<>", 0},
      {"complex<complex<f32>>", 0}, {"f32x", 0}, {"F32", 0}, {"unk", 0},
      {"i99999", 0}, {"si", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    int got = acElemBitsFromName(cases[i].n, strlen(cases[i].n));
    if (got != cases[i].bits)
      printf("  %s: %d, want %d\n", cases[i].n, got, cases[i].bits);
    CHECK_EQ_I64(got, cases[i].bits);
  }
  /* len bounds the name. */
  CHECK_EQ_I64(acElemBitsFromName("f32", 2), 0);
  CHECK_EQ_I64(acElemBitsFromName("bf16xyz", 4), 16);
  CHECK_EQ_I64(acElemBitsFromName(NULL, 3), 0);
}

AC_TEST(test_tensor_sizes) {
  AcTensorType t = ten(32, 0);
  CHECK_EQ_I64(acTensorElements(&t), 1);
  CHECK_EQ_I64(acTensorBytes(&t), 4);
  AcTensorType n = nt();
  CHECK_EQ_I64(acTensorElements(&n), 0);
  CHECK_EQ_I64(acTensorBytes(&n), 0);
  CHECK_EQ_I64(acTensorBytes(NULL), 0);
  AcTensorType big = ten(32, 2, INT64_MAX, D(2));
  CHECK_EQ_I64(acTensorElements(&big), -1);
  CHECK_EQ_I64(acTensorBytes(&big), -1);
  AcTensorType edge = ten(64, 1, INT64_MAX / 4);
  CHECK_EQ_I64(acTensorElements(&edge), INT64_MAX / 4);
  CHECK_EQ_I64(acTensorBytes(&edge), -1);
  AcTensorType zero = ten(32, 2, INT64_MAX, D(0));
  CHECK_EQ_I64(acTensorElements(&zero), 0);
  CHECK_EQ_I64(acTensorBytes(&zero), 0);
}

/*===--------------------------- sizes ------------------------------------===*/

AC_TEST(test_parse_size_good) {
  static const struct { const char *s; int64_t v; } ok[] = {
      {"24GB", 24000000000LL}, {"1.5GiB", 1610612736LL}, {"3e9", 3000000000LL},
      {"1024", 1024}, {"512MB", 512000000LL}, {"0", 0}, {"0GB", 0},
      {"1B", 1}, {"1KB", 1000}, {"1KiB", 1024}, {"1MiB", 1048576},
      {"2TiB", 2199023255552LL}, {"1TB", 1000000000000LL},
      {"24gb", 24000000000LL}, {" 24 GB ", 24000000000LL}, {"1.5e3", 1500},
      {"2.5e-1KiB", 256}, {"1e-3KB", 1}, {".5KB", 500}, {"0.5B", 1},
      {"1.4B", 1}, {"1.6", 2}, {"1e-400", 0}, {"0e400", 0}, {"+7", 7},
      {"9223372036854775807", INT64_MAX}, {"0.000000001GB", 1},
      {"8388607.99999999TiB", 9223372036854764813LL},
      {"1.00000000000000000000000000001KB", 1000}};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; ++i) {
    int64_t v = -1;
    AcError e;
    acErrorClear(&e);
    AcStatus st = acParseSize(ok[i].s, &v, &e);
    if (st != AC_OK || v != ok[i].v)
      printf("  '%s': status %d value %lld (%s)\n", ok[i].s, (int)st,
             (long long)v, e.message);
    CHECK_EQ_I64(st, AC_OK);
    CHECK_EQ_I64(v, ok[i].v);
  }
}

AC_TEST(test_parse_size_bad) {
  static const char *const bad[] = {
      "lots", "-1GB", "", "1.5.3GB", "1e400", "nan", "inf", "12XB", "GB",
      "1e", "1 2GB", "1GBB", "9223372036854775808", "9999999999TB",
      "99999999999999999999", "-0", "0x10", "1e+", ".", "1,5GB", "1G",
      "8388608TiB", "NaN", "Infinity", "1GB extra", "++1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    int64_t v = 77;
    AcError e;
    acErrorClear(&e);
    AcStatus st = acParseSize(bad[i], &v, &e);
    char q[64];
    snprintf(q, sizeof q, "invalid size '%s'", bad[i]);
    if (st != AC_ERR_INVALID || !strstr(e.message, q))
      printf("  '%s': status %d value %lld message '%s'\n", bad[i], (int)st,
             (long long)v, e.message);
    CHECK_EQ_I64(st, AC_ERR_INVALID);
    CHECK(strstr(e.message, q) != NULL);
    CHECK_EQ_I64(v, 0);
  }
  AcError e;
  acErrorClear(&e);
  acParseSize("lots", &(int64_t){0}, &e);
  CHECK(strcmp(e.message,
               "invalid size 'lots': expected bytes or a number with B, KB, "
               "MB, GB, TB, KiB, MiB, GiB or TiB (e.g. 24GB, 1.5GiB, 3e9)") == 0);
  acParseSize("-1GB", &(int64_t){0}, &e);
  CHECK(strstr(e.message, "negative") != NULL);
  acParseSize("1e400", &(int64_t){0}, &e);
  CHECK(strstr(e.message, "too large") != NULL);
  int64_t v;
  CHECK_EQ_I64(acParseSize(NULL, &v, &e), AC_ERR_INVALID);
  CHECK_EQ_I64(acParseSize("1GB", NULL, &e), AC_ERR_INVALID);
  CHECK_EQ_I64(acParseSize("1GB", &v, NULL), AC_OK);
  CHECK_EQ_I64(acParseSize("junk", &v, NULL), AC_ERR_INVALID);
}

/*===------------------- names resolved once, reused ----------------------===*/

static int sameCost(const AcOpCost *a, const AcOpCost *b) {
  return a->kind == b->kind && a->flops == b->flops &&
         a->bytesMoved == b->bytesMoved && a->recomputable == b->recomputable &&
         a->computeIntensive == b->computeIntensive && a->isView == b->isView &&
         a->mutatesOperand == b->mutatesOperand && a->unknown == b->unknown;
}

AC_TEST(test_name_resolved_once) {
  /* An importer resolves each op name once (acCostResolveName) and
   * estimates every op of that name from it: the resolution holds nothing
   * of the op it was first made for. */
  char longName[300];
  memset(longName, 'a', sizeof longName - 1);
  memcpy(longName, "torch.aten.", 11);
  longName[sizeof longName - 1] = '\0';
  const char *names[] = {
      "torch.aten.mm", "torch.aten.add.Tensor", "torch.aten.add_.Tensor",
      "torch.aten.relu_", "torch.aten.__and__.Tensor", "torch.aten.view_copy",
      "torch.aten.transpose_copy.int", "torch.aten.bernoulli_.float",
      "torch.aten.native_dropout", "torch.aten.native_dropout_backward",
      "torch.aten.randn", "torch.overwrite.tensor.contents",
      "torch.constant.int", "torch.prim.ListConstruct", "arith.addf",
      "math.exp", "linalg.generic", "linalg.conv_2d_nhwc_hwcf",
      "linalg.fill_rng_2d", "stablehlo.rng_bit_generator", "mhlo.dot_general",
      "autoac.rng.uniform", "torch.aten.frobnicate", "my.unknown_", longName};
  AcTensorType a = F32(2, D(8), D(16)), b = F32(2, D(16), D(4)),
               y = F32(2, D(8), D(4)), v = F32(1, D(32)), n = nt();
  const AcTensorType ops1[] = {a, b}, res1[] = {y}, ops2[] = {v, n, v},
                     res2[] = {v, v};
  AcOpExtra extra;
  memset(&extra, 0, sizeof extra);
  extra.knownPure = 1;
  extra.loopIterations = 512;
  extra.bodyArithOps = 3;
  int mismatches = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    AcOpNameCost nc;
    acCostResolveName(names[i], &nc);
    for (int k = 0; k < 4; ++k) {
      const AcTensorType *ops = k % 2 ? ops2 : ops1, *res = k % 2 ? res2 : res1;
      intptr_t nOps = k % 2 ? N(ops2) : N(ops1), nRes = k % 2 ? N(res2) : N(res1);
      const AcOpExtra *x = k >= 2 ? &extra : NULL;
      AcOpCost fresh = est(names[i], ops, nOps, res, nRes, x), reused;
      memset(&reused, 0xAB, sizeof reused);
      acCostEstimateNamed(&nc, names[i], ops, nOps, res, nRes, x, &reused);
      mismatches += !sameCost(&fresh, &reused);
    }
  }
  CHECK_EQ_I64(mismatches, 0);
  /* No name: nothing known, nothing resolved. */
  AcOpNameCost none;
  memset(&none, 0x5A, sizeof none);
  acCostResolveName(NULL, &none);
  CHECK(!none.hasRule && !none.random && !none.replayable && !none.inplace);
  /* What the name says, checked directly for a few. */
  AcOpNameCost r;
  acCostResolveName("torch.aten.add_.Tensor", &r);
  CHECK(r.inplace && r.writesFirst && r.hasRule && !r.random);
  acCostResolveName("torch.aten.bernoulli_.float", &r);
  CHECK(r.random && r.writesFirst);
  acCostResolveName("linalg.fill_rng_2d", &r);
  CHECK(r.replayable); /* replayable comes first, whatever "_rng" says */
  acCostResolveName("torch.aten.frobnicate", &r);
  CHECK(!r.hasRule && !r.inplace);
}

int main(void) {
  RUN(test_mm);
  RUN(test_bmm);
  RUN(test_addmm);
  RUN(test_linear);
  RUN(test_other_matmuls);
  RUN(test_conv_stride_pad_groups);
  RUN(test_conv_transposed);
  RUN(test_conv_backward);
  RUN(test_conv_other_dialects);
  RUN(test_attention);
  RUN(test_elementwise);
  RUN(test_reductions);
  RUN(test_random_and_inplace);
  RUN(test_unknown);
  RUN(test_cost_table);
  RUN(test_views);
  RUN(test_constants_and_fills);
  RUN(test_corpus_names);
  RUN(test_devices);
  RUN(test_backward_ops_known);
  RUN(test_workspace_conv);
  RUN(test_workspace_conv_gemm);
  RUN(test_workspace_other_ops);
  RUN(test_workspace_table);
  RUN(test_type_good);
  RUN(test_type_non_tensors);
  RUN(test_type_errors);
  RUN(test_type_lengths);
  RUN(test_elem_bits);
  RUN(test_tensor_sizes);
  RUN(test_parse_size_good);
  RUN(test_parse_size_bad);
  RUN(test_name_resolved_once);
  return acTestSummary("cost");
}
