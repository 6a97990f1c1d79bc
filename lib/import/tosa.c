/* tosa.c - what the TOSA lowering allocates beyond results (import/tosa.h).
 *
 * Followed from upstream's TosaToLinalg / TosaToLinalgNamed (MLIR 22), as
 * auto-ac-lower-cpu runs them (kernel layout fhwc, decompositions on):
 *   conv2d, conv3d, depthwise_conv2d, max_pool2d, avg_pool2d: a padded
 *     copy of the input (tensor.pad) when any pad is not 0;
 *   conv3d: the kernel transposed into a new tensor;
 *   depthwise_conv2d: the convolution into a 5-d accumulator of the
 *     result's size, the bias added into the result;
 *   max_pool2d, avg_pool2d: the window (a tensor.empty of the kernel's
 *     shape, read as an input, so allocated);
 *   avg_pool2d: the window sums (the result's shape, acc_type), divided
 *     into the result, which is made after the padded input and the
 *     window are freed;
 *   argmax: the running maxima (the result's shape, the input's type).
 * Every other followed op writes its result only. */
#include "import/tosa.h"
#include "autoac/graph.h" /* AC_MAX_BYTES */
#include "import/ir.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)

/* Followed exactly, no buffer beyond the result (elementwise ops, data
   movement into one new tensor, views, constants, reductions, matmul). */
static const char *const kPlain[] = {
    "abs", "add", "arithmetic_right_shift", "bitwise_and", "bitwise_not",
    "bitwise_or", "bitwise_xor", "cast", "ceil", "clamp", "clz", "concat",
    "const", "const_shape", "cos", "equal", "erf", "exp", "floor", "greater",
    "greater_equal", "identity", "intdiv", "log", "logical_and",
    "logical_left_shift", "logical_not", "logical_or", "logical_right_shift",
    "logical_xor", "matmul", "maximum", "minimum", "mul", "negate", "pad",
    "pow", "reciprocal", "reduce_all", "reduce_any", "reduce_max",
    "reduce_min", "reduce_product", "reduce_sum", "reshape", "reverse",
    "rsqrt", "select", "sigmoid", "sin", "tanh", "tile", "transpose", "sub"};

/* a * b, or AC_MAX_BYTES when it is above (or a factor is negative). */
static int64_t mulCapped(int64_t a, int64_t b) {
  int64_t r;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r) || r > AC_MAX_BYTES)
    return AC_MAX_BYTES;
  return r;
}

/* a + b for a, b in [0, AC_MAX_BYTES], capped there. */
static int64_t addCapped(int64_t a, int64_t b) {
  return a > AC_MAX_BYTES - b ? AC_MAX_BYTES : a + b;
}

static int64_t elemBytes(MlirType e) {
  int64_t bits = mlirTypeIsAInteger(e) ? (int64_t)mlirIntegerTypeGetWidth(e)
                 : mlirTypeIsAFloat(e) ? (int64_t)mlirFloatTypeGetWidth(e) : 0;
  return (bits + 7) / 8;
}

/* The bytes of a static tensor value, or -1. */
static int64_t valueBytes(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
    return -1;
  int64_t n = elemBytes(mlirShapedTypeGetElementType(t));
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
    n = mulCapped(n, mlirShapedTypeGetDimSize(t, d));
  return n;
}

/* The bytes of input `x` padded by the `pad` attribute (pairs per spatial
   dimension, from dimension 1), or 0 when every pad is 0. */
static int64_t paddedBytes(MlirOperation op, MlirValue x) {
  MlirAttribute pad = mlirOperationGetAttributeByName(op, SREF("pad"));
  MlirType t = mlirValueGetType(x);
  if (mlirAttributeIsNull(pad) || !mlirAttributeIsADenseI64Array(pad))
    return 0;
  intptr_t np = mlirDenseArrayGetNumElements(pad), rank = mlirShapedTypeGetRank(t);
  int64_t n = 1, any = 0;
  for (intptr_t d = 0; d < rank; d++) {
    int64_t dim = mlirShapedTypeGetDimSize(t, d);
    if (d >= 1 && 2 * d <= np) {
      int64_t lo = mlirDenseI64ArrayGetElement(pad, 2 * (d - 1));
      int64_t hi = mlirDenseI64ArrayGetElement(pad, 2 * (d - 1) + 1);
      any |= lo | hi;
      if (lo < 0 || hi < 0 || lo > AC_MAX_BYTES || hi > AC_MAX_BYTES)
        return AC_MAX_BYTES;
      dim += lo + hi;
    }
    n = mulCapped(n, dim);
  }
  return any ? mulCapped(n, elemBytes(mlirShapedTypeGetElementType(t))) : 0;
}

/* The window of a pooling: a tensor of the kernel's shape. */
static int64_t windowBytes(MlirOperation op, MlirType elem) {
  MlirAttribute k = mlirOperationGetAttributeByName(op, SREF("kernel"));
  if (mlirAttributeIsNull(k) || !mlirAttributeIsADenseI64Array(k))
    return 0;
  int64_t n = 1;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(k); i++)
    n = mulCapped(n, mlirDenseI64ArrayGetElement(k, i));
  return mulCapped(n, elemBytes(elem));
}

static int nameIs(MlirStringRef s, const char *name) {
  size_t n = strlen(name);
  return s.length == 5 + n && memcmp(s.data + 5, name, n) == 0;
}

int64_t acTosaWorkspace(MlirOperation op, AcBodyNote *note) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  if (s.length < 5 || memcmp(s.data, "tosa.", 5) != 0)
    return 0;
  for (size_t i = 0; i < sizeof kPlain / sizeof kPlain[0]; i++)
    if (nameIs(s, kPlain[i]))
      return 0;
  if (nameIs(s, "slice")) {
    acBodyNoteAt(note, AC_BODY_AT_MOST, op,
                 "'%s' lowers to a view (tensor.extract_slice); the plan "
                 "counts a copy", 0);
    return 0;
  }
  int conv = nameIs(s, "conv2d") || nameIs(s, "conv3d") || nameIs(s, "depthwise_conv2d");
  int pool = nameIs(s, "max_pool2d") || nameIs(s, "avg_pool2d");
  int argmax = nameIs(s, "argmax");
  if ((!conv && !pool && !argmax) || mlirOperationGetNumOperands(op) < 1 ||
      mlirOperationGetNumResults(op) != 1) {
    acBodyNoteAt(note, AC_BODY_UNKNOWN, op,
                 "'%s' is lowered by upstream's tosa-to-linalg in a way "
                 "autoac does not follow: it may allocate more than the "
                 "plan counts", 0);
    return 0;
  }
  MlirValue x = mlirOperationGetOperand(op, 0), r = mlirOperationGetResult(op, 0);
  MlirType xe = mlirShapedTypeGetElementType(mlirValueGetType(x));
  int64_t xb = valueBytes(x), rb = valueBytes(r);
  int64_t re = mlirTypeIsAShaped(mlirValueGetType(r))
                   ? elemBytes(mlirShapedTypeGetElementType(mlirValueGetType(r))) : 0;
  if (xb < 0 || rb < 0 || re <= 0 || (!argmax && !mlirTypeIsAFloat(xe))) {
    acBodyNoteAt(note, AC_BODY_UNKNOWN, op,
                 "'%s' of integer or dynamic-shape tensors: its lowering "
                 "may allocate more than the plan counts", 0);
    return 0;
  }
  if (argmax)
    return mulCapped(rb / re, elemBytes(xe));
  int64_t w = paddedBytes(op, x);
  if (w > 0)
    acBodyNoteAt(note, AC_BODY_AT_MOST, op,
                 "'%s' pads its input into a copy: the program may free the "
                 "input before it makes the result, the plan counts both", 0);
  if (nameIs(s, "conv3d") && mlirOperationGetNumOperands(op) > 1) {
    int64_t k = valueBytes(mlirOperationGetOperand(op, 1));
    w = addCapped(w, k > 0 ? k : 0);
  }
  if (nameIs(s, "depthwise_conv2d"))
    w = addCapped(w, rb);
  if (pool)
    w = addCapped(w, windowBytes(op, xe));
  if (nameIs(s, "avg_pool2d")) {
    /* The sums are made with the padded input and the window, the result
       after both are freed: live beside the result, max(padded + window
       + sums - result, sums). */
    MlirAttribute acc = mlirOperationGetAttributeByName(op, SREF("acc_type"));
    MlirType at = !mlirAttributeIsNull(acc) && mlirAttributeIsAType(acc)
                      ? mlirTypeAttrGetValue(acc) : xe;
    int64_t sums = mulCapped(rb / re, elemBytes(at));
    int64_t all = addCapped(w, sums);
    w = all - rb > sums ? all - rb : sums;
  }
  return w;
}
