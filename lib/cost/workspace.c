/* workspace.c - op workspaces: scratch memory an op's kernel allocates and
 * frees inside itself, per backend, as a formula of the operand and result
 * types (docs/cost-model.md, "Workspaces", has the measurements).
 *
 * PyTorch's CPU kernels (torch 1.13, oneDNN), measured with the profiler's
 * memory events (peak inside the op less what it returns):
 *  - oneDNN convolutions reorder their input, weight and output into
 *    blocked layouts (channels padded to 8) and reorder the output back;
 *    the backward reorders grad_output and the input and computes the
 *    gradients in blocked form.  Where its jit weight-gradient kernels
 *    cannot run (acConvBwdWeightsGemm: a kernel taller than the input,
 *    dilation, 5x5 depthwise...) its gemm kernel books 4 x the weight per
 *    thread (acConvGemmScratch).  ATen's slow path (1x1 unstrided kernels
 *    single-threaded below batch 16, tiny inputs; other dtypes than f32)
 *    unfolds the input (im2col) for other kernels.
 *  - mse_loss (reduced) keeps a difference tensor; native_dropout_backward
 *    converts the mask to the gradient's dtype; native_batch_norm_backward
 *    an input-sized temporary; native_batch_norm two per-channel vectors;
 *    native_layer_norm_backward per-thread gamma/beta partial sums.
 *  - measured 0: mm, addmm, bmm, softmax, log_softmax and their backward,
 *    nll_loss and its backward, gelu(_backward), threshold_backward,
 *    max_pool2d_with_indices(_backward), embedding(_dense_backward),
 *    select/slice/index_select_backward, sum, layer norm forward,
 *    _adaptive_avg_pool2d(_backward).
 * GPU profiles: 0 (cuDNN picks a workspace per call and algorithm; a cost
 * table's "workspace" gives one). */
#include "autoac/cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Workspace classes. */
enum {
  WS_NONE = 0,
  WS_CONV,          /* convolution forward: x operand 0, w 1, y result 0 */
  WS_CONV_BWD,      /* convolution_backward: dy 0, x 1, w 2 -> dx, dw, db */
  WS_CONV_T,        /* conv_transpose{1,2,3}d: x 0, w 1, bias 2 -> y */
  WS_REDUCED_LOSS,  /* a loss reduced to a scalar keeps operand 0's size */
  WS_OPERAND0,      /* a temporary the size of operand 0 */
  WS_OPERAND1,      /* a temporary the size of operand 1 */
  WS_TWO_RESULT1,   /* two temporaries the size of result 1 */
  WS_LN_BWD,        /* 2 x threads x result 1 (gamma's gradient) */
  WS_SCALAR_WRAP    /* the scalar operand wrapped in 0-d tensors: 8 + 4 B */
};

/* Ops whose `.Scalar` overload wraps its Python scalar into a 0-d double
 * tensor and, unless the operand is 64-bit, a 0-d tensor of the operand's
 * type, freed before it returns (measured: 12 bytes for an f32 operand,
 * whatever its size). */
static const char *const acWsScalarWrap[] = {
    "torch.aten.add.Scalar", "torch.aten.sub.Scalar", "torch.aten.mul.Scalar",
    "torch.aten.div.Scalar", "torch.aten.rsub.Scalar"};

typedef struct AcWsRule {
  const char *base; /* torch.aten base name */
  int cls;
} AcWsRule;

/* Sorted by strcmp (binary search). */
static const AcWsRule acWsRules[] = {
    {"_convolution", WS_CONV},
    {"_native_batch_norm_legit", WS_TWO_RESULT1},
    {"_native_batch_norm_legit_functional", WS_TWO_RESULT1},
    {"conv1d", WS_CONV},
    {"conv2d", WS_CONV},
    {"conv3d", WS_CONV},
    {"conv_transpose1d", WS_CONV_T},
    {"conv_transpose2d", WS_CONV_T},
    {"conv_transpose3d", WS_CONV_T},
    {"convolution", WS_CONV},
    {"convolution_backward", WS_CONV_BWD},
    {"mkldnn_convolution", WS_CONV},
    {"mse_loss", WS_REDUCED_LOSS},
    {"native_batch_norm", WS_TWO_RESULT1},
    {"native_batch_norm_backward", WS_OPERAND1},
    {"native_dropout_backward", WS_OPERAND0},
    {"native_layer_norm_backward", WS_LN_BWD},
};

static int acWsClass(const char *opName) {
  static const char prefix[] = "torch.aten.";
  if (!opName || strncmp(opName, prefix, sizeof prefix - 1) != 0)
    return WS_NONE;
  for (size_t i = 0; i < sizeof acWsScalarWrap / sizeof acWsScalarWrap[0]; ++i)
    if (!strcmp(opName, acWsScalarWrap[i]))
      return WS_SCALAR_WRAP;
  const char *base = opName + sizeof prefix - 1;
  const char *dot = strchr(base, '.');
  size_t len = dot ? (size_t)(dot - base) : strlen(base);
  int lo = 0, hi = (int)(sizeof acWsRules / sizeof acWsRules[0]);
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    int c = strncmp(acWsRules[mid].base, base, len);
    if (c == 0)
      c = acWsRules[mid].base[len] != '\0';
    if (c == 0)
      return acWsRules[mid].cls;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return WS_NONE;
}

static const AcTensorType *acWsAt(const AcTensorType *ts, intptr_t n,
                                  intptr_t i) {
  return ts && i >= 0 && i < n && ts[i].isTensor && ts[i].rank >= 0 &&
                 ts[i].rank <= AC_MAX_RANK
             ? &ts[i]
             : NULL;
}

static double acWsElems(const AcTensorType *t) {
  if (!t)
    return 0.0;
  double n = 1.0;
  for (int i = 0; i < t->rank; ++i)
    n *= t->dims[i] > 0 ? (double)t->dims[i] : 0.0;
  return n;
}

static double acWsBytes(const AcTensorType *t) {
  return t && t->elemBits > 0 ? acWsElems(t) * (double)t->elemBits / 8.0 : 0.0;
}

/* Elements of dims [from, rank) (the spatial part of an N, C, ... tensor). */
static double acWsSpatial(const AcTensorType *t, int from) {
  double n = 1.0;
  for (int i = from; i < t->rank; ++i)
    n *= t->dims[i] > 0 ? (double)t->dims[i] : 0.0;
  return n;
}

/* oneDNN's channel count in its blocked layouts: padded to a multiple of 8
 * (AVX2's block), except small counts (<= 4), which keep a plain layout. */
static double acWsPad(double c) { return c <= 4 ? c : 8.0 * ceil(c / 8.0); }
static double acWsPad8(double c) { return 8.0 * ceil(c / 8.0); }

/* What the convolution of input x, weight w, output y looks like; per
 * spatial dim its sizes, stride, padding and dilation. */
#define AC_CONV_SP 3
typedef struct AcConvShape {
  double n, c, o, cg, groups, kernel, sIn, sOut, e;
  int k1, strided, nsp;
  int64_t in[AC_CONV_SP], out[AC_CONV_SP], k[AC_CONV_SP];
  int64_t stride[AC_CONV_SP], pad[AC_CONV_SP], dil[AC_CONV_SP];
} AcConvShape;

/* Stride and padding of one dim from its sizes alone (dilation 1): the
 * smallest stride some padding in [0, k) explains, the padding nearest k/2. */
static void acConvInfer(AcConvShape *s, int i) {
  int64_t in = s->in[i], out = s->out[i], k = s->k[i];
  s->stride[i] = 1;
  s->pad[i] = k / 2;
  for (int64_t st = 1; st <= in && st <= 64; ++st) {
    int64_t best = -1;
    for (int64_t p = 0; p < k; ++p)
      if (in + 2 * p - k >= 0 && (in + 2 * p - k) / st + 1 == out &&
          (best < 0 || llabs(p - k / 2) < llabs(best - k / 2)))
        best = p;
    if (best >= 0) {
      s->stride[i] = st;
      s->pad[i] = best;
      return;
    }
  }
}

/* Operand `at` as a constant int list of nsp entries (one entry: every dim). */
static int acConvList(const AcTensorType *ops, intptr_t nOps, intptr_t at,
                      int nsp, int64_t *out) {
  if (!ops || at >= nOps || ops[at].isTensor ||
      (ops[at].rank != nsp && ops[at].rank != 1))
    return 0;
  for (int i = 0; i < nsp; ++i)
    out[i] = ops[at].dims[ops[at].rank == 1 ? 0 : i];
  return 1;
}

/* Stride, padding, dilation: operands at, at+1, at+2 when the importer
 * read them (acCostWorkspace's contract), else inferred per dim. */
static void acConvParams(AcConvShape *s, const AcTensorType *ops,
                         intptr_t nOps, intptr_t at) {
  if (acConvList(ops, nOps, at, s->nsp, s->stride) &&
      acConvList(ops, nOps, at + 1, s->nsp, s->pad) &&
      acConvList(ops, nOps, at + 2, s->nsp, s->dil))
    return;
  for (int i = 0; i < s->nsp; ++i) {
    s->dil[i] = 1;
    acConvInfer(s, i);
  }
}

static int acConvShape(const AcTensorType *x, const AcTensorType *w,
                       const AcTensorType *y, AcConvShape *s) {
  if (!x || !w || !y || x->rank < 3 || x->rank > 2 + AC_CONV_SP ||
      w->rank != x->rank || y->rank != x->rank || x->elemBits <= 0)
    return 0;
  memset(s, 0, sizeof *s);
  s->n = (double)x->dims[0];
  s->c = (double)x->dims[1];
  s->o = (double)w->dims[0];
  s->cg = (double)w->dims[1];
  s->groups = s->cg > 0 && fmod(s->c, s->cg) == 0 ? s->c / s->cg : 1.0;
  s->kernel = acWsSpatial(w, 2);
  s->sIn = acWsSpatial(x, 2);
  s->sOut = acWsSpatial(y, 2);
  s->e = (double)x->elemBits / 8.0;
  s->k1 = s->kernel == 1.0;
  s->nsp = x->rank - 2;
  for (int i = 2; i < x->rank; ++i) {
    if (y->dims[i] != x->dims[i])
      s->strided = 1;
    s->in[i - 2] = x->dims[i];
    s->out[i - 2] = y->dims[i];
    s->k[i - 2] = w->dims[i];
    s->stride[i - 2] = s->dil[i - 2] = 1;
  }
  return s->n > 0 && s->c > 0 && s->o > 0;
}

/* ATen's choice of oneDNN (ConvParams::use_mkldnn, torch 1.13, f32). */
static int acConvOneDnn(const AcConvShape *s, const AcTensorType *x,
                        const AcTensorType *w, int threads) {
  if (x->elemBits != 32)
    return 0;
  int kLast2Big = w->rank >= 4 && w->dims[w->rank - 1] > 3 &&
                  w->dims[w->rank - 2] > 3;
  return (s->strided || s->n >= 16 || !s->k1 || threads > 1) &&
         (s->groups > 1 || kLast2Big || s->n > 1 ||
          acWsElems(x) > 20480);
}

/* The slow path's unfolded input: [N, C x kernel, output positions]. */
static double acConvColumns(const AcConvShape *s) {
  return s->k1 && !s->strided ? 0.0 : s->n * s->c * s->kernel * s->sOut * s->e;
}

static double acConvBlocked(const AcConvShape *s, double *xr, double *wr) {
  *xr = s->c > 4 ? s->n * acWsPad(s->c) * s->sIn * s->e : 0.0;
  *wr = acWsPad(s->o) * (s->groups == 1 ? acWsPad(s->cg) : s->cg) * s->kernel *
        s->e;
  return s->n * acWsPad(s->o) * s->sOut * s->e; /* output (or its grad) */
}

static double acMax(double a, double b) { return a > b ? a : b; }
static double acMin(double a, double b) { return a < b ? a : b; }

/* A strided 1x1 convolution's unit-stride copy of its input (oneDNN's
 * rtus space): one buffer per thread of `channels` x output positions,
 * +128 bytes; 0 for any other convolution. */
static double acConvRtus(const AcConvShape *s, int threads, double channels) {
  if (!s->k1 || !s->strided)
    return 0.0;
  return (threads > 0 ? threads : 1) * channels * s->sOut * s->e + 128.0;
}

/* Whether constant operand `at` (a bool or int, acCostWorkspace's
 * contract: a list of one) is 1: a convolution's `transposed`. */
static int acConvFlag(const AcTensorType *ops, intptr_t nOps, intptr_t at) {
  return ops && at < nOps && !ops[at].isTensor && ops[at].rank == 1 &&
         ops[at].dims[0] == 1;
}

/* A transposed convolution (torch 1.13 on the CPU: ATen's
 * slow_conv_transpose2d/3d, never oneDNN in f32) of input x [N, Cin, ...],
 * weight w [Cin, Cout/groups, k...], output y [N, Cout, ...].  Each call
 * books one column buffer, reused image after image: Cout/groups x kernel
 * x input positions (the backward's for the input gradient and the weight
 * gradient in turn, one at a time); the forward with a bias a row of ones
 * over the output positions.  With groups, ATen runs each group on its own
 * slices and concatenates: the forward's parts as large as y, the
 * backward's copies of a group's x and dy beside its columns.  Measured
 * on 15 shapes (1-D to 3-D, 1 and 2 threads, batch 1 to 16). */
static double acWsConvTransposed(const AcTensorType *x, const AcTensorType *w,
                                 const AcTensorType *dy, const AcTensorType *y,
                                 int bias, int backward) {
  if (!x || !w || !y || x->rank < 3 || w->rank != x->rank || y->rank != x->rank ||
      w->dims[1] <= 0 || x->elemBits <= 0)
    return 0.0;
  double e = (double)x->elemBits / 8.0;
  double groups = acMax((double)y->dims[1] / (double)w->dims[1], 1.0);
  double cols = (double)w->dims[1] * acWsSpatial(w, 2) * acWsSpatial(x, 2) * e;
  if (groups > 1.0)
    return backward ? cols + (acWsBytes(x) + acWsBytes(dy ? dy : y)) / groups
                    : acMax(acWsBytes(y), cols + acWsBytes(x) / groups);
  return cols + (bias && !backward ? acWsSpatial(y, 2) * e : 0.0);
}

/* Forward: reorders x' and w', computes y' and reorders it into y. */
static double acWsConv(const AcTensorType *ops, intptr_t nOps,
                       const AcTensorType *res, intptr_t nRes, int threads) {
  const AcTensorType *x = acWsAt(ops, nOps, 0), *w = acWsAt(ops, nOps, 1),
                     *y = acWsAt(res, nRes, 0);
  if (acConvFlag(ops, nOps, 6))
    return acWsConvTransposed(x, w, NULL, y, acWsAt(ops, nOps, 2) != NULL, 0);
  AcConvShape s;
  if (!acConvShape(x, w, y, &s))
    return 0.0;
  acConvParams(&s, ops, nOps, 3);
  if (!acConvOneDnn(&s, x, w, threads))
    return acConvColumns(&s);
  double xr, wr, yr = acConvBlocked(&s, &xr, &wr), yb = acWsBytes(y);
  /* A strided 1x1 (jit_1x1) first gathers the input it reads at unit
     stride: all its channels (padded to 8). */
  double rtus = acConvRtus(&s, threads, acWsPad8(s.c));
  return acMax(xr + wr + yr + rtus, yr + yb) - yb;
}

/* oneDNN 2.6's f32 weight-gradient kernels for AVX2 (torch 1.13), in the
 * order it tries them: jit_1x1 (1x1 kernels, no padding), jit_dw
 * (depthwise), jit (every other), then gemm, which runs wherever the jit
 * kernel it would take cannot:
 *  - any dilation;
 *  - depthwise (a group per channel, one output each): a kernel dim over 3,
 *    a padding over k/2 on either side, or an input dim smaller than
 *    k + (-pad mod stride) (a 3x3/1 needs 3x3 inputs, a 3x3/2 padded 1
 *    needs 4x4);
 *  - other: groups > 1 with input or output channels per group not a
 *    multiple of 8, a kernel height over the input height (a 3x3 on a 2x2
 *    or 1x1 input: the last stage of a small-input resnet), a kernel width
 *    of 14 or more, a padding of k or more on either side.
 * Measured on 150 shapes (1 and 2 threads), each with oneDNN's verbose
 * output naming the kernel. */
static int acConvBwdWeightsGemm(const AcConvShape *s) {
  int dw = s->groups > 1 && s->cg == 1 && s->o == s->groups;
  int k1 = s->k1;
  for (int i = 0; i < s->nsp; ++i) {
    int64_t k = s->k[i], st = s->stride[i], tp = s->pad[i];
    int64_t bp = (s->out[i] - 1) * st + k - s->in[i] - tp;
    if (s->dil[i] != 1)
      return 1;
    if (tp != 0 || bp > 0)
      k1 = 0;
    if (dw && (k > 3 || tp > k / 2 || bp > k / 2 ||
               s->in[i] < k + ((st - tp % st) % st)))
      return 1;
    if (!dw && (tp >= k || bp >= k))
      return 1;
  }
  if (k1 || dw)
    return 0;
  double og = s->o / s->groups;
  if (s->groups > 1 && (fmod(s->cg, 8) != 0 || fmod(og, 8) != 0))
    return 1;
  /* kernel height <= input height (dim 0 of 2-D and 3-D convs; the width
   * has only the padding rule), kernel width < 14 */
  return (s->nsp >= 2 && s->k[0] > s->in[0]) || s->k[s->nsp - 1] >= 14;
}

/* gemm's scratchpad (oneDNN 2.6, gemm_convolution_utils.cpp, plain
 * layouts): per thread it books a weight-gradient reduction buffer of
 * 4 x the weight bytes (the size in bytes booked as floats) and the
 * unfolded input of one image (input channels per group x kernel x output
 * positions, none for an unstrided unpadded 1x1), each entry padded by 128
 * bytes.  It runs on every thread ("outer threading") when the minibatch
 * is over 1 or groups over 2 and fewer than 256 output positions fall to a
 * thread, else on one.  E.g. 512x512x3x3 (9.4 MB) on 2x2 outputs, batch 4,
 * 2 threads: 2 x (4 x 9.4 MB + 18 KB) = 75.5 MB. */
static double acConvGemmScratch(const AcConvShape *s, int threads) {
  double wb = s->o * s->cg * s->kernel * s->e;
  double col = s->k1 && !s->strided ? 0.0 : s->cg * s->kernel * s->sOut * s->e;
  int t = threads > 0 ? threads : 1;
  int outer = (s->n != 1 || s->groups > 2) && floor(s->sOut / t) < 256;
  double nthr = outer ? (double)t : 1.0;
  return nthr * 4.0 * wb + 128.0 + (col > 0 ? nthr * col + 128.0 : 0.0);
}

/* Backward: data (dy', w', dx' then dx) and weights (dy', x', dw', db' then
 * dw, db), each present only when its gradient is a result; the peak of
 * the phases less the gradients.  The weights by gemm read dy and x as
 * they are and write dw plain: the gradients, the scratchpad, then dw and
 * db copied out. */
static double acWsConvBwd(const AcTensorType *ops, intptr_t nOps,
                          const AcTensorType *res, intptr_t nRes,
                          int threads) {
  const AcTensorType *dy = acWsAt(ops, nOps, 0), *x = acWsAt(ops, nOps, 1),
                     *w = acWsAt(ops, nOps, 2);
  if (acConvFlag(ops, nOps, 7)) {
    /* Only a bias gradient: a sum, no columns. */
    int grads = acWsAt(res, nRes, 0) != NULL || acWsAt(res, nRes, 1) != NULL;
    return grads ? acWsConvTransposed(x, w, dy, dy, 0, 1) : 0.0;
  }
  AcConvShape s;
  if (!acConvShape(x, w, dy, &s))
    return 0.0;
  acConvParams(&s, ops, nOps, 4);
  if (!acConvOneDnn(&s, x, w, threads))
    return acConvColumns(&s);
  double gi = acWsBytes(acWsAt(res, nRes, 0)), gw = acWsBytes(acWsAt(res, nRes, 1)),
         gb = acWsBytes(acWsAt(res, nRes, 2));
  double xr, wr, dyr = acConvBlocked(&s, &xr, &wr);
  double peak = 0.0;
  if (gi > 0 && (s.c > 4 || !s.strided)) {
    /* Blocked: dx' with channels padded to 8 even when few, w' likewise. */
    double gir = s.n * acWsPad8(s.c) * s.sIn * s.e;
    double wrd = acWsPad(s.o) * (s.groups == 1 ? acWsPad8(s.cg) : s.cg) *
                 s.kernel * s.e;
    peak = acMax(dyr + wrd + gir, gir + gi);
  } else if (gi > 0) {
    /* Few channels, strided (a first 7x7/2 layer): oneDNN's gemm kernel,
       dx plain and a column buffer per thread (+128 bytes, measured). */
    peak = gi + threads * s.c * s.kernel * s.sOut * s.e + 128.0;
  }
  if (gw > 0 && dy->dims[1] == w->dims[0] /* not transposed */ &&
      acConvBwdWeightsGemm(&s))
    peak = acMax(peak, gi + acMax(gw + gb + acConvGemmScratch(&s, threads),
                                  2 * (gw + gb)));
  else if (gw > 0) {
    /* A strided 1x1 gathers x at unit stride, up to 64 channels at a
       time (measured: 24 of 20, 64 of 128). */
    double rtus = acConvRtus(&s, threads, acMin(acWsPad8(s.c), 64.0));
    peak = acMax(peak, acMax(gi + dyr + xr + wr + gb + rtus, gi + wr + 2 * gb + gw));
  }
  return acMax(peak - (gi + gw + gb), 0.0);
}

static double acWsTorchCpu(int cls, const AcDevice *dev,
                           const AcTensorType *ops, intptr_t nOps,
                           const AcTensorType *res, intptr_t nRes) {
  switch (cls) {
  case WS_CONV:
    return acWsConv(ops, nOps, res, nRes, dev->threads);
  case WS_CONV_BWD:
    return acWsConvBwd(ops, nOps, res, nRes, dev->threads);
  case WS_CONV_T:
    return acWsConvTransposed(acWsAt(ops, nOps, 0), acWsAt(ops, nOps, 1), NULL,
                              acWsAt(res, nRes, 0), acWsAt(ops, nOps, 2) != NULL, 0);
  case WS_REDUCED_LOSS: {
    const AcTensorType *y = acWsAt(res, nRes, 0);
    return y && y->rank == 0 ? acWsBytes(acWsAt(ops, nOps, 0)) : 0.0;
  }
  case WS_OPERAND0:
    return acWsBytes(acWsAt(ops, nOps, 0));
  case WS_OPERAND1:
    return acWsBytes(acWsAt(ops, nOps, 1));
  case WS_TWO_RESULT1:
    return 2.0 * acWsBytes(acWsAt(res, nRes, 1));
  case WS_LN_BWD:
    return 2.0 * (dev->threads > 0 ? dev->threads : 1) *
           acWsBytes(acWsAt(res, nRes, 1));
  case WS_SCALAR_WRAP: {
    const AcTensorType *x = acWsAt(ops, nOps, 0);
    /* A 64-bit operand takes the double as it is (measured: f64 8 B,
       f32 12 B, f16 and bf16 10 B). */
    if (!x || x->elemBits <= 0)
      return 0.0;
    return x->elemBits == 64 ? 8.0 : 8.0 + x->elemBits / 8.0;
  }
  }
  return 0.0;
}

int64_t acCostWorkspace(const AcDevice *dev, const char *opName,
                        const AcTensorType *operands, intptr_t numOperands,
                        const AcTensorType *results, intptr_t numResults) {
  if (!dev || dev->backend != AC_BACKEND_TORCH_CPU)
    return 0;
  int cls = acWsClass(opName);
  if (cls == WS_NONE)
    return 0;
  double b = acWsTorchCpu(cls, dev, operands, operands ? numOperands : 0,
                          results, results ? numResults : 0);
  if (!(b > 0))
    return 0;
  return b >= (double)AC_MAX_BYTES ? AC_MAX_BYTES : (int64_t)llround(b);
}
