/* optable.c - the op cost model: a sorted table of op names (bsearch) giving
 * kind, flags and a FLOP formula, plus name rules for RNG and in-place ops.
 *
 * Lookup key: torch ops by base name ("torch.aten.add.Tensor" ->
 * "torch.aten.add", "torch.prim.NumToTensor.Scalar" -> "torch.prim.NumToTensor"),
 * "mhlo.*" as "stablehlo.*", everything else by full name; then a few prefix
 * rules (arith.*, math.*, torch.constant.*, linalg.conv_*, ...).  See
 * docs/cost-model.md for the formulas and the recomputability rules. */
#include "autoac/cost.h"
#include "cost_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rule flags. */
enum {
  F_CI = 1,       /* compute-intensive (matmul/conv/attention) */
  F_VIEW = 2,     /* results alias operand 0 */
  F_NOBYTES = 4,  /* moves no bytes (constants, views, empty) */
  F_OUTBYTES = 8, /* operands give only shapes/values: bytes = results */
  F_NOREC = 16,   /* never recompute (side effects) */
  F_LISTIN = 32   /* inputs come as a list (cat/stack): in bytes = out bytes */
};

/* Operations per generated element of a counter-based generator: the
 * integer rounds of a Philox/splitmix-style hash plus the conversion. */
#define AC_RNG_FLOPS_PER_ELEMENT 16.0f

/* FLOP formulas. */
enum {
  FX_ZERO = 0,       /* no arithmetic */
  FX_ELEM,           /* coef x elements of the largest result */
  FX_REDUCE,         /* coef x elements of the largest tensor */
  FX_MM,             /* 2 |C| K, K = last dim of operand `arg` */
  FX_MM_ADD,         /* FX_MM + |C| (addmm, baddbmm, addmv) */
  FX_ADDBMM,         /* 2 sqrt(|A||B||C|) + |C| */
  FX_LINEAR,         /* 2 |C| in (+|C| with a bias), weight [out, in] */
  FX_CONTRACT,       /* 2 sqrt(|A||B||C|): matmul-like, no batch */
  FX_CONTRACT_B0,    /* 2 sqrt(|A||B||C| / C[0]): batched, batch first */
  FX_DOT_GENERAL,    /* loop iterations if known, else batch guessed */
  FX_CONV_TORCH,     /* 2 |Y| |W|/W[0] (+|Y| bias); transposed detected */
  FX_CONV_TORCH_T,   /* transposed: 2 |X| |W|/W[0] (+|Y| bias) */
  FX_CONV_TORCH_BWD, /* grad input + grad weight (+ grad bias) */
  FX_CONV_LINALG,    /* 2 |Y| x filter dims reduced over (layout from name) */
  FX_POOL_LINALG,    /* |Y| |window| */
  FX_CONV_HLO,       /* 2 |Y| |W|/O, O the output-feature dim (guessed) */
  FX_CONV_TOSA,      /* 2 |Y| |W|/W[0] + |Y| bias, weight [O,...,I] */
  FX_CONV_TOSA_DW,   /* 2 |Y| KH KW + |Y|, weight [KH,KW,C,M] */
  FX_CONV_TOSA_T,    /* 2 |X| |W|/W[last] + |Y|, weight [O,KH,KW,I] */
  FX_ATTN,           /* coef 4 |Q| S, q/k [B,H,L|S,E] at `arg`, `arg`+1 */
  FX_ATTN_BLHE,      /* same with layout [B,L|S,H,E] */
  FX_GENERIC         /* body ops x loop iterations (from AcOpExtra) */
};

typedef struct AcOpRule {
  const char *name;
  uint8_t kind;    /* AcOpKind */
  uint8_t flags;   /* F_* */
  uint8_t formula; /* FX_* */
  uint8_t arg;     /* primary operand index for the formula */
  float coef;      /* formula multiplier */
} AcOpRule;

/* Sorted by strcmp (generated; keep sorted, acCostTableSelfCheck verifies). */
static const AcOpRule acRules[] = {
    {"arith.constant", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"bufferization.to_buffer", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"bufferization.to_memref", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"bufferization.to_tensor", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"linalg.abs", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.add", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.batch_matmul", AC_KIND_MATMUL, F_CI, FX_CONTRACT_B0, 0, 1.0f},
    {"linalg.batch_matmul_transpose_a", AC_KIND_MATMUL, F_CI, FX_CONTRACT_B0, 0, 1.0f},
    {"linalg.batch_matmul_transpose_b", AC_KIND_MATMUL, F_CI, FX_CONTRACT_B0, 0, 1.0f},
    {"linalg.batch_matvec", AC_KIND_MATMUL, F_CI, FX_CONTRACT_B0, 0, 1.0f},
    {"linalg.batch_mmt4d", AC_KIND_MATMUL, F_CI, FX_CONTRACT_B0, 0, 1.0f},
    {"linalg.batch_reduce_matmul", AC_KIND_MATMUL, F_CI, FX_CONTRACT, 0, 1.0f},
    {"linalg.batch_vecmat", AC_KIND_MATMUL, F_CI, FX_CONTRACT_B0, 0, 1.0f},
    {"linalg.broadcast", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"linalg.ceil", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.contract", AC_KIND_MATMUL, F_CI, FX_DOT_GENERAL, 0, 1.0f},
    {"linalg.copy", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"linalg.div", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.div_unsigned", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.dot", AC_KIND_MATMUL, F_CI, FX_CONTRACT, 0, 1.0f},
    {"linalg.elementwise", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.erf", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"linalg.exp", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"linalg.fill", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"linalg.floor", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.generic", AC_KIND_ELEMENTWISE, 0, FX_GENERIC, 0, 1.0f},
    {"linalg.log", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"linalg.map", AC_KIND_ELEMENTWISE, 0, FX_GENERIC, 0, 1.0f},
    {"linalg.matmul", AC_KIND_MATMUL, F_CI, FX_CONTRACT, 0, 1.0f},
    {"linalg.matmul_transpose_a", AC_KIND_MATMUL, F_CI, FX_CONTRACT, 0, 1.0f},
    {"linalg.matmul_transpose_b", AC_KIND_MATMUL, F_CI, FX_CONTRACT, 0, 1.0f},
    {"linalg.matvec", AC_KIND_MATMUL, F_CI, FX_CONTRACT, 0, 1.0f},
    {"linalg.max", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.min", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.mmt4d", AC_KIND_MATMUL, F_CI, FX_CONTRACT, 0, 1.0f},
    {"linalg.mul", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.negf", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.pack", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"linalg.powf", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"linalg.quantized_batch_matmul", AC_KIND_MATMUL, F_CI, FX_CONTRACT_B0, 0, 1.0f},
    {"linalg.quantized_matmul", AC_KIND_MATMUL, F_CI, FX_CONTRACT, 0, 1.0f},
    {"linalg.reciprocal", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.reduce", AC_KIND_REDUCTION, 0, FX_GENERIC, 0, 1.0f},
    {"linalg.round", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.rsqrt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"linalg.select", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.softmax", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 5.0f},
    {"linalg.sqrt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"linalg.square", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.sub", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"linalg.tanh", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"linalg.transpose", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"linalg.unpack", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"linalg.vecmat", AC_KIND_MATMUL, F_CI, FX_CONTRACT, 0, 1.0f},
    {"memref.cast", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"memref.collapse_shape", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"memref.copy", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"memref.dim", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"memref.expand_shape", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"memref.memory_space_cast", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"memref.rank", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"memref.reinterpret_cast", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"memref.subview", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"memref.transpose", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"memref.view", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"stablehlo.abs", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.add", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.and", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.atan2", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.batch_norm_grad", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 12.0f},
    {"stablehlo.batch_norm_inference", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"stablehlo.batch_norm_training", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"stablehlo.bitcast_convert", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.broadcast", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.broadcast_in_dim", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.cbrt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.ceil", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.clamp", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"stablehlo.compare", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.complex", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.concatenate", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.constant", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"stablehlo.convert", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.convolution", AC_KIND_CONV, F_CI, FX_CONV_HLO, 0, 1.0f},
    {"stablehlo.cosine", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.count_leading_zeros", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.divide", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.dot", AC_KIND_MATMUL, F_CI, FX_CONTRACT, 0, 1.0f},
    {"stablehlo.dot_general", AC_KIND_MATMUL, F_CI, FX_DOT_GENERAL, 0, 1.0f},
    {"stablehlo.dynamic_broadcast_in_dim", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.dynamic_gather", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.dynamic_iota", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"stablehlo.dynamic_pad", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.dynamic_reshape", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"stablehlo.dynamic_slice", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.dynamic_update_slice", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.exponential", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.exponential_minus_one", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.floor", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.gather", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.get_dimension_size", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"stablehlo.get_tuple_element", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"stablehlo.imag", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.iota", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"stablehlo.is_finite", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.log", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.log_plus_one", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.logistic", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.map", AC_KIND_ELEMENTWISE, 0, FX_GENERIC, 0, 1.0f},
    {"stablehlo.maximum", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.minimum", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.multiply", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.negate", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.not", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.or", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.pad", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.popcnt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.power", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.real", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.real_dynamic_slice", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.reduce", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"stablehlo.reduce_precision", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.reduce_window", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"stablehlo.remainder", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.reshape", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"stablehlo.reverse", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.round_nearest_afz", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.round_nearest_even", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.rsqrt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.scatter", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.select", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.select_and_scatter", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 2.0f},
    {"stablehlo.shift_left", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.shift_right_arithmetic", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.shift_right_logical", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.sign", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.sine", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.slice", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.sort", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"stablehlo.sqrt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.subtract", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"stablehlo.tan", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.tanh", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"stablehlo.torch_index_select", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.transpose", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"stablehlo.tuple", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"stablehlo.xor", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tensor.bitcast", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.cast", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.collapse_shape", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.concat", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tensor.dim", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.empty", AC_KIND_DATA_MOVEMENT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.expand_shape", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.extract", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tensor.extract_slice", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.from_elements", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.gather", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tensor.generate", AC_KIND_ELEMENTWISE, 0, FX_GENERIC, 0, 1.0f},
    {"tensor.insert", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tensor.insert_slice", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tensor.pack", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tensor.pad", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tensor.rank", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.reshape", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.scatter", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tensor.splat", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"tensor.unpack", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.H", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.T", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.__and__", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.__getitem__", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.__lshift__", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.__or__", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.__rshift__", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.__xor__", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten._adaptive_avg_pool2d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten._adaptive_avg_pool2d_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten._adaptive_avg_pool3d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten._adaptive_avg_pool3d_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten._addmm_activation", AC_KIND_MATMUL, F_CI, FX_MM_ADD, 1, 1.0f},
    {"torch.aten._conj", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten._convolution", AC_KIND_CONV, F_CI, FX_CONV_TORCH, 0, 1.0f},
    {"torch.aten._efficient_attention_backward", AC_KIND_ATTENTION, F_CI, FX_ATTN_BLHE, 1, 2.5f},
    {"torch.aten._efficient_attention_forward", AC_KIND_ATTENTION, F_CI, FX_ATTN_BLHE, 0, 1.0f},
    {"torch.aten._embedding_bag", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten._flash_attention_backward", AC_KIND_ATTENTION, F_CI, FX_ATTN_BLHE, 1, 2.5f},
    {"torch.aten._flash_attention_forward", AC_KIND_ATTENTION, F_CI, FX_ATTN_BLHE, 0, 1.0f},
    {"torch.aten._fused_rms_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 5.0f},
    {"torch.aten._fused_rms_norm_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten._indices", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten._int_mm", AC_KIND_MATMUL, F_CI, FX_MM, 0, 1.0f},
    {"torch.aten._log_softmax", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 5.0f},
    {"torch.aten._log_softmax_backward_data", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten._native_batch_norm_legit", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten._native_batch_norm_legit_functional", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten._native_batch_norm_legit_no_training", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten._reshape_alias", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten._scaled_dot_product_attention_math", AC_KIND_ATTENTION, F_CI, FX_ATTN, 0, 1.0f},
    {"torch.aten._scaled_dot_product_cudnn_attention", AC_KIND_ATTENTION, F_CI, FX_ATTN, 0, 1.0f},
    {"torch.aten._scaled_dot_product_cudnn_attention_backward", AC_KIND_ATTENTION, F_CI, FX_ATTN, 1, 2.5f},
    {"torch.aten._scaled_dot_product_efficient_attention", AC_KIND_ATTENTION, F_CI, FX_ATTN, 0, 1.0f},
    {"torch.aten._scaled_dot_product_efficient_attention_backward", AC_KIND_ATTENTION, F_CI, FX_ATTN, 1, 2.5f},
    {"torch.aten._scaled_dot_product_flash_attention", AC_KIND_ATTENTION, F_CI, FX_ATTN, 0, 1.0f},
    {"torch.aten._scaled_dot_product_flash_attention_backward", AC_KIND_ATTENTION, F_CI, FX_ATTN, 1, 2.5f},
    {"torch.aten._scaled_dot_product_flash_attention_for_cpu", AC_KIND_ATTENTION, F_CI, FX_ATTN, 0, 1.0f},
    {"torch.aten._scaled_dot_product_flash_attention_for_cpu_backward", AC_KIND_ATTENTION, F_CI, FX_ATTN, 1, 2.5f},
    {"torch.aten._scaled_dot_product_fused_attention_overrideable", AC_KIND_ATTENTION, F_CI, FX_ATTN, 0, 1.0f},
    {"torch.aten._scaled_dot_product_fused_attention_overrideable_backward", AC_KIND_ATTENTION, F_CI, FX_ATTN, 1, 2.5f},
    {"torch.aten._scaled_mm", AC_KIND_MATMUL, F_CI, FX_MM, 0, 1.0f},
    {"torch.aten._softmax", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 5.0f},
    {"torch.aten._softmax_backward_data", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten._to_copy", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten._unsafe_index", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten._unsafe_index_put", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten._unsafe_view", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten._values", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.abs", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.acos", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.acosh", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.adaptive_avg_pool1d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.adaptive_avg_pool2d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.adaptive_avg_pool3d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.adaptive_max_pool1d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.adaptive_max_pool2d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.adaptive_max_pool2d_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.add", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.addbmm", AC_KIND_MATMUL, F_CI, FX_ADDBMM, 1, 1.0f},
    {"torch.aten.addcdiv", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"torch.aten.addcmul", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"torch.aten.addmm", AC_KIND_MATMUL, F_CI, FX_MM_ADD, 1, 1.0f},
    {"torch.aten.addmv", AC_KIND_MATMUL, F_CI, FX_MM_ADD, 1, 1.0f},
    {"torch.aten.addr", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"torch.aten.adjoint", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.alias", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.all", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.amax", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.amin", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.aminmax", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.any", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.arange", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.argmax", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.argmin", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.argsort", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.as_strided", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.as_strided_scatter", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.asin", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.asinh", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.atan", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.atan2", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.atanh", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.avg_pool1d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.avg_pool2d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.avg_pool2d_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.avg_pool3d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.avg_pool3d_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.baddbmm", AC_KIND_MATMUL, F_CI, FX_MM_ADD, 1, 1.0f},
    {"torch.aten.batch_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.binary_cross_entropy", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 6.0f},
    {"torch.aten.binary_cross_entropy_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 6.0f},
    {"torch.aten.binary_cross_entropy_with_logits", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.bitwise_and", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.bitwise_left_shift", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.bitwise_not", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.bitwise_or", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.bitwise_right_shift", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.bitwise_xor", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.bmm", AC_KIND_MATMUL, F_CI, FX_MM, 0, 1.0f},
    {"torch.aten.broadcast_to", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.cat", AC_KIND_DATA_MOVEMENT, F_LISTIN, FX_ZERO, 0, 1.0f},
    {"torch.aten.ceil", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.channel_shuffle", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.chunk", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.clamp", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.clamp_max", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.clamp_min", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.clip", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.clone", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.col2im", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.concat", AC_KIND_DATA_MOVEMENT, F_LISTIN, FX_ZERO, 0, 1.0f},
    {"torch.aten.concatenate", AC_KIND_DATA_MOVEMENT, F_LISTIN, FX_ZERO, 0, 1.0f},
    {"torch.aten.conj", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.constant_pad_nd", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.contiguous", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.conv1d", AC_KIND_CONV, F_CI, FX_CONV_TORCH, 0, 1.0f},
    {"torch.aten.conv2d", AC_KIND_CONV, F_CI, FX_CONV_TORCH, 0, 1.0f},
    {"torch.aten.conv3d", AC_KIND_CONV, F_CI, FX_CONV_TORCH, 0, 1.0f},
    {"torch.aten.conv_transpose1d", AC_KIND_CONV, F_CI, FX_CONV_TORCH_T, 0, 1.0f},
    {"torch.aten.conv_transpose2d", AC_KIND_CONV, F_CI, FX_CONV_TORCH_T, 0, 1.0f},
    {"torch.aten.conv_transpose3d", AC_KIND_CONV, F_CI, FX_CONV_TORCH_T, 0, 1.0f},
    {"torch.aten.convolution", AC_KIND_CONV, F_CI, FX_CONV_TORCH, 0, 1.0f},
    {"torch.aten.convolution_backward", AC_KIND_CONV, F_CI, FX_CONV_TORCH_BWD, 0, 1.0f},
    {"torch.aten.convolution_backward_overrideable", AC_KIND_CONV, F_CI, FX_CONV_TORCH_BWD, 0, 1.0f},
    {"torch.aten.convolution_overrideable", AC_KIND_CONV, F_CI, FX_CONV_TORCH, 0, 1.0f},
    {"torch.aten.copy", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.copysign", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.cos", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.cosh", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.count_nonzero", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.cross_entropy_loss", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 6.0f},
    {"torch.aten.cudnn_batch_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.cudnn_batch_norm_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 12.0f},
    {"torch.aten.cudnn_convolution", AC_KIND_CONV, F_CI, FX_CONV_TORCH, 0, 1.0f},
    {"torch.aten.cudnn_convolution_transpose", AC_KIND_CONV, F_CI, FX_CONV_TORCH_T, 0, 1.0f},
    {"torch.aten.cummax", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.cummin", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.cumprod", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.cumsum", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.deg2rad", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.detach", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.diagonal", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.diagonal_scatter", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.digamma", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 8.0f},
    {"torch.aten.dim", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.div", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.dot", AC_KIND_MATMUL, F_CI, FX_MM, 0, 1.0f},
    {"torch.aten.dsplit", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.einsum", AC_KIND_MATMUL, F_CI, FX_ELEM, 0, 2.0f},
    {"torch.aten.elu", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.elu_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.embedding", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.embedding_bag", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.embedding_dense_backward", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.empty", AC_KIND_DATA_MOVEMENT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.empty_like", AC_KIND_DATA_MOVEMENT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.empty_strided", AC_KIND_DATA_MOVEMENT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.eq", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.erf", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.erfc", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.erfinv", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.exp", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.exp2", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.expand", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.expand_as", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.expm1", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.eye", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.fill", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.fix", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.flatten", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.flip", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.fliplr", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.flipud", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.float_power", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.floor", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.floor_divide", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.fmax", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.fmin", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.fmod", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.frac", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.frobenius_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 2.0f},
    {"torch.aten.full", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.full_like", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.gather", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.ge", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.gelu", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 8.0f},
    {"torch.aten.gelu_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 12.0f},
    {"torch.aten.ger", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.glu", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 5.0f},
    {"torch.aten.group_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.gt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.hardshrink", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.hardsigmoid", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 3.0f},
    {"torch.aten.hardsigmoid_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"torch.aten.hardswish", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.hardswish_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.hardtanh", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.hardtanh_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.heaviside", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.hsplit", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.hstack", AC_KIND_DATA_MOVEMENT, F_LISTIN, FX_ZERO, 0, 1.0f},
    {"torch.aten.huber_loss", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten.hypot", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.im2col", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.imag", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.index", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.index_add", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.index_copy", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.index_fill", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.index_put", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.index_select", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.inner", AC_KIND_MATMUL, F_CI, FX_MM, 0, 1.0f},
    {"torch.aten.instance_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.isfinite", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.isinf", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.isnan", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.isneginf", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.isposinf", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.kl_div", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten.kthvalue", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten.l1_loss", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 2.0f},
    {"torch.aten.layer_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.le", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.leaky_relu", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.leaky_relu_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.len", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.lerp", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"torch.aten.lgamma", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 8.0f},
    {"torch.aten.lift_fresh", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.lift_fresh_copy", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.linalg_vector_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 2.0f},
    {"torch.aten.linear", AC_KIND_MATMUL, F_CI, FX_LINEAR, 0, 1.0f},
    {"torch.aten.linspace", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.log", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.log10", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.log1p", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.log2", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.log_sigmoid_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 6.0f},
    {"torch.aten.log_sigmoid_forward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 6.0f},
    {"torch.aten.log_softmax", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 5.0f},
    {"torch.aten.logcumsumexp", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten.logical_and", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.logical_not", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.logical_or", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.logical_xor", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.logit", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.logspace", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.logsumexp", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten.lt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.mH", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.mT", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.masked_fill", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.masked_scatter", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.masked_select", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.matmul", AC_KIND_MATMUL, F_CI, FX_MM, 0, 1.0f},
    {"torch.aten.max", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.max_pool1d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.max_pool2d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.max_pool2d_with_indices", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.max_pool2d_with_indices_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.max_pool3d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.max_pool3d_with_indices", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.max_pool3d_with_indices_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.maximum", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.mean", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.median", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten.min", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.minimum", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.mish", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 8.0f},
    {"torch.aten.mish_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 12.0f},
    {"torch.aten.mkldnn_convolution", AC_KIND_CONV, F_CI, FX_CONV_TORCH, 0, 1.0f},
    {"torch.aten.mm", AC_KIND_MATMUL, F_CI, FX_MM, 0, 1.0f},
    {"torch.aten.mode", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten.moveaxis", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.movedim", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.mse_loss", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 3.0f},
    {"torch.aten.mse_loss_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 3.0f},
    {"torch.aten.mul", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.mv", AC_KIND_MATMUL, F_CI, FX_MM, 0, 1.0f},
    {"torch.aten.nan_to_num", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.nansum", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.narrow", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.native_batch_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.native_batch_norm_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 12.0f},
    {"torch.aten.native_channel_shuffle", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.native_dropout_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"torch.aten.native_group_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.native_group_norm_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 12.0f},
    {"torch.aten.native_layer_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.native_layer_norm_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 12.0f},
    {"torch.aten.ne", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.neg", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.negative", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.new_empty", AC_KIND_DATA_MOVEMENT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.new_empty_strided", AC_KIND_DATA_MOVEMENT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.new_full", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.new_ones", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.new_zeros", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.nll_loss", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.nll_loss2d_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.nll_loss2d_forward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.nll_loss_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.nll_loss_forward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.nonzero", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 2.0f},
    {"torch.aten.numel", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.numpy_T", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.one_hot", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.ones", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.ones_like", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.outer", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.pad", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.permute", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.pixel_shuffle", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.pixel_unshuffle", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.positive", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.pow", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.prelu", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"torch.aten.prod", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.rad2deg", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.ravel", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.real", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.reciprocal", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.reflection_pad1d", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.reflection_pad2d", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.reflection_pad3d", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.relu", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.relu6", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.remainder", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.repeat", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.repeat_interleave", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.replication_pad1d", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.replication_pad2d", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.replication_pad3d", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.reshape", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.resolve_conj", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.resolve_neg", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.rms_norm", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 5.0f},
    {"torch.aten.roll", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.rot90", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.round", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.rsqrt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.rsub", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.scalar_tensor", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.scaled_dot_product_attention", AC_KIND_ATTENTION, F_CI, FX_ATTN, 0, 1.0f},
    {"torch.aten.scatter", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.scatter_add", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.scatter_reduce", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.select", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.select_scatter", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.sgn", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.sigmoid", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.sigmoid_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 3.0f},
    {"torch.aten.sign", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.signbit", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.silu", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 5.0f},
    {"torch.aten.silu_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 8.0f},
    {"torch.aten.sin", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.sinh", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.size", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.slice", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.slice_scatter", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.smooth_l1_loss", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten.smooth_l1_loss_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten.softmax", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 5.0f},
    {"torch.aten.softplus", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.softplus_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.softshrink", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.sort", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 8.0f},
    {"torch.aten.split", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.split_with_sizes", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.sqrt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.square", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.squeeze", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.stack", AC_KIND_DATA_MOVEMENT, F_LISTIN, FX_ZERO, 0, 1.0f},
    {"torch.aten.std", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 3.0f},
    {"torch.aten.std_mean", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 3.0f},
    {"torch.aten.stride", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.sub", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.sum", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.swapaxes", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.swapdims", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.sym_numel", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.sym_size", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.sym_stride", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.t", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.take", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.take_along_dim", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.tan", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.tanh", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.tanh_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"torch.aten.tensor", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.tensor_split", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.threshold", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.threshold_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.tile", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.to", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.topk", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 4.0f},
    {"torch.aten.trace", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.transpose", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.tril", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.triu", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.true_divide", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.trunc", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.type_as", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.unbind", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.unflatten", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.unfold", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.unsafe_chunk", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.unsafe_split", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.unsafe_split_with_sizes", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.unsqueeze", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.upsample_bilinear2d", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.upsample_bilinear2d_backward", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.upsample_nearest1d", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.upsample_nearest2d", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.upsample_nearest2d_backward", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"torch.aten.upsample_nearest3d", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.aten.var", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 3.0f},
    {"torch.aten.var_mean", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 3.0f},
    {"torch.aten.vdot", AC_KIND_MATMUL, F_CI, FX_MM, 0, 1.0f},
    {"torch.aten.view", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.view_as", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.view_as_complex", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.view_as_real", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.vsplit", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.vstack", AC_KIND_DATA_MOVEMENT, F_LISTIN, FX_ZERO, 0, 1.0f},
    {"torch.aten.where", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"torch.aten.xlogy", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"torch.aten.zeros", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.aten.zeros_like", AC_KIND_DATA_MOVEMENT, F_OUTBYTES, FX_ZERO, 0, 1.0f},
    {"torch.copy.to_tensor", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.copy.to_vtensor", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"torch.derefine", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.overwrite.tensor.contents", AC_KIND_INPLACE, F_NOREC, FX_ZERO, 0, 1.0f},
    {"torch.prim.DictConstruct", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.ListConstruct", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.ListUnpack", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.NumToTensor", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.TupleConstruct", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.TupleIndex", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.TupleUnpack", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.Uninitialized", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.abs", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.device", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.dtype", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.layout", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.max", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.min", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.prim.unchecked_cast", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.tensor.literal", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"torch.vtensor.literal", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tosa.abs", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.add", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.argmax", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"tosa.arithmetic_right_shift", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.avg_pool2d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"tosa.bitwise_and", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.bitwise_not", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.bitwise_or", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.bitwise_xor", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.cast", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.ceil", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.clamp", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"tosa.clz", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.concat", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tosa.const", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tosa.const_shape", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tosa.conv2d", AC_KIND_CONV, F_CI, FX_CONV_TOSA, 0, 1.0f},
    {"tosa.conv3d", AC_KIND_CONV, F_CI, FX_CONV_TOSA, 0, 1.0f},
    {"tosa.cos", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"tosa.depthwise_conv2d", AC_KIND_CONV, F_CI, FX_CONV_TOSA_DW, 0, 1.0f},
    {"tosa.equal", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.erf", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"tosa.exp", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"tosa.floor", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.fully_connected", AC_KIND_MATMUL, F_CI, FX_LINEAR, 0, 1.0f},
    {"tosa.gather", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tosa.greater", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.greater_equal", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.identity", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tosa.int_div", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.intdiv", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.log", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"tosa.logical_and", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.logical_left_shift", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.logical_not", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.logical_or", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.logical_right_shift", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.logical_xor", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.matmul", AC_KIND_MATMUL, F_CI, FX_CONTRACT_B0, 0, 1.0f},
    {"tosa.max_pool2d", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
    {"tosa.maximum", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.minimum", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.mul", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.negate", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.pad", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tosa.pow", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"tosa.reciprocal", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.rescale", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 3.0f},
    {"tosa.reshape", AC_KIND_VIEW, F_VIEW|F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"tosa.resize", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tosa.reverse", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tosa.rsqrt", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"tosa.scatter", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tosa.select", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.sigmoid", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"tosa.sin", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"tosa.slice", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tosa.sub", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.table", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"tosa.tanh", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"tosa.tile", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tosa.transpose", AC_KIND_DATA_MOVEMENT, 0, FX_ZERO, 0, 1.0f},
    {"tosa.transpose_conv2d", AC_KIND_CONV, F_CI, FX_CONV_TOSA_T, 0, 1.0f},
};

#define AC_NUM_RULES ((long)(sizeof acRules / sizeof acRules[0]))

/* Prefix rules, tried in order when no exact entry matches. */
static const AcOpRule acPrefixRules[] = {
    {"torch.constant.", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"arith.", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"math.", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"complex.", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"chlo.", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"linalg.conv_", AC_KIND_CONV, F_CI, FX_CONV_LINALG, 0, 1.0f},
    {"linalg.depthwise_conv_", AC_KIND_CONV, F_CI, FX_CONV_LINALG, 0, 1.0f},
    {"linalg.pooling_", AC_KIND_REDUCTION, 0, FX_POOL_LINALG, 0, 1.0f},
    {"tosa.reduce_", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
};

static int acRuleCmp(const void *key, const void *elem) {
  return strcmp((const char *)key, ((const AcOpRule *)elem)->name);
}

static const AcOpRule *acFindRule(const char *key) {
  return bsearch(key, acRules, (size_t)AC_NUM_RULES, sizeof acRules[0],
                 acRuleCmp);
}

long acCostTableSelfCheck(void) {
  for (long i = 1; i < AC_NUM_RULES; ++i)
    if (strcmp(acRules[i - 1].name, acRules[i].name) >= 0)
      return -i;
  return AC_NUM_RULES;
}

static int acHasPrefix(const char *s, const char *p) {
  return strncmp(s, p, strlen(p)) == 0;
}
static int acHasSuffix(const char *s, size_t n, const char *suf) {
  size_t m = strlen(suf);
  return n >= m && memcmp(s + n - m, suf, m) == 0;
}

/*===----------------------------- names ----------------------------------===*/

/* Builds the lookup key for `name` into buf; returns 0 if it does not fit.
 * For torch ops sets *base and *baseLen to the base name within `name`. */
static int acMakeKey(const char *name, char *buf, size_t cap, const char **base,
                     size_t *baseLen) {
  *base = NULL;
  *baseLen = 0;
  const char *prefix = NULL, *rest = NULL;
  size_t restLen;
  if (acHasPrefix(name, "torch.aten.") || acHasPrefix(name, "torch.prim.")) {
    prefix = acHasPrefix(name, "torch.aten.") ? "torch.aten." : "torch.prim.";
    rest = name + 11;
    const char *dot = strchr(rest, '.');
    restLen = dot ? (size_t)(dot - rest) : strlen(rest);
    *base = rest;
    *baseLen = restLen;
  } else if (acHasPrefix(name, "mhlo.")) {
    prefix = "stablehlo.";
    rest = name + 5;
    restLen = strlen(rest);
  } else {
    prefix = "";
    rest = name;
    restLen = strlen(rest);
  }
  size_t pl = strlen(prefix);
  if (pl + restLen + 1 > cap)
    return 0;
  memcpy(buf, prefix, pl);
  memcpy(buf + pl, rest, restLen);
  buf[pl + restLen] = '\0';
  return 1;
}

/* Case-sensitive substring search within s[0..n). */
static int acContains(const char *s, size_t n, const char *needle) {
  size_t m = strlen(needle);
  for (size_t i = 0; i + m <= n; ++i)
    if (memcmp(s + i, needle, m) == 0)
      return 1;
  return 0;
}

/* Replayable random ops: counter-based generators whose result is a pure
 * function of their operands (a seed, an offset, a generator state), so a
 * rerun with the same operands gives the same bits (docs/contract.md,
 * "Randomness").  The op that draws their seed is an ordinary random op. */
static int acIsReplayableRandomName(const char *name) {
  static const char *const exact[] = {
      "linalg.fill_rng_2d",          /* LCG of (seed, index) */
      "stablehlo.rng_bit_generator", /* state in -> (state, bits) */
      "mhlo.rng_bit_generator",
      "torch.rngprims.philox_rand",  /* AOT autograd's functional RNG */
      "torch.prims.philox_rand",
      "autoac.replay"};               /* the PyTorch partitioner's rerun of a
                                         draw under its captured state */
  for (size_t i = 0; i < sizeof exact / sizeof exact[0]; ++i)
    if (strcmp(name, exact[i]) == 0)
      return 1;
  return acHasPrefix(name, "autoac.rng."); /* autoac's own (rng=replay) */
}

/* Random-number ops: never recomputed (a rerun draws different numbers). */
static int acIsRandomName(const char *name, const char *base, size_t baseLen) {
  if (base && acHasPrefix(name, "torch.aten.")) {
    static const char *const anywhere[] = {
        "bernoulli", "multinomial", "poisson", "rrelu",  "uniform",
        "normal",    "exponential", "geometric", "cauchy", "binomial",
        "_standard_gamma", "_sample_dirichlet"};
    for (size_t i = 0; i < sizeof anywhere / sizeof anywhere[0]; ++i)
      if (acContains(base, baseLen, anywhere[i]))
        return 1;
    if (baseLen >= 4 && memcmp(base, "rand", 4) == 0) /* rand randn randint
                                                          randperm random_ */
      return 1;
    if (acContains(base, baseLen, "dropout") &&
        !acContains(base, baseLen, "dropout_backward"))
      return 1;
    return 0;
  }
  const char *op = strchr(name, '.');
  op = op ? op + 1 : name;
  size_t n = strlen(op);
  if (acHasPrefix(op, "rng") || acContains(op, n, "_rng") ||
      acContains(op, n, "random") || acContains(op, n, "bernoulli"))
    return 1;
  if (acContains(op, n, "dropout") && !acContains(op, n, "dropout_backward"))
    return 1;
  return 0;
}

/*===------------------------- shape helpers ------------------------------===*/

typedef struct AcCtx {
  const AcTensorType *ops;
  intptr_t nOps;
  const AcTensorType *res;
  intptr_t nRes;
  const AcOpExtra *extra;
} AcCtx;

static int acRank(const AcTensorType *t) {
  if (!t || !t->isTensor)
    return 0;
  return t->rank < 0 ? 0 : (t->rank > AC_MAX_RANK ? AC_MAX_RANK : t->rank);
}

static double acElems(const AcTensorType *t) {
  if (!t || !t->isTensor)
    return 0.0;
  double n = 1.0;
  for (int i = 0; i < acRank(t); ++i)
    n *= t->dims[i] > 0 ? (double)t->dims[i] : 0.0;
  return n;
}

static double acBytes(const AcTensorType *t) {
  if (!t || !t->isTensor || t->elemBits <= 0)
    return 0.0;
  return acElems(t) * (double)t->elemBits / 8.0;
}

/* Dimension i (negative: from the end); 0 if out of range. */
static double acDim(const AcTensorType *t, int i) {
  int r = acRank(t);
  if (i < 0)
    i += r;
  if (!t || !t->isTensor || i < 0 || i >= r || t->dims[i] < 0)
    return 0.0;
  return (double)t->dims[i];
}

static const AcTensorType *acOperand(const AcCtx *c, intptr_t i) {
  if (!c->ops || i < 0 || i >= c->nOps || !c->ops[i].isTensor)
    return NULL;
  return &c->ops[i];
}
static const AcTensorType *acResult(const AcCtx *c, intptr_t i) {
  if (!c->res || i < 0 || i >= c->nRes || !c->res[i].isTensor)
    return NULL;
  return &c->res[i];
}

/* The primary output: result 0, or (destination-passing on buffers, no
 * results) the last tensor operand. */
static const AcTensorType *acOutput(const AcCtx *c) {
  const AcTensorType *r = acResult(c, 0);
  if (r || c->nRes > 0)
    return r;
  for (intptr_t i = c->nOps - 1; i >= 0; --i)
    if (acOperand(c, i))
      return &c->ops[i];
  return NULL;
}

static double acMaxElems(const AcTensorType *ts, intptr_t n) {
  double m = 0.0;
  for (intptr_t i = 0; ts && i < n; ++i) {
    double e = acElems(&ts[i]);
    if (e > m)
      m = e;
  }
  return m;
}
static double acOutElems(const AcCtx *c) {
  double m = acMaxElems(c->res, c->nRes);
  return m > 0 ? m : acMaxElems(c->ops, c->nOps);
}
static double acAllElems(const AcCtx *c) {
  double a = acMaxElems(c->res, c->nRes), b = acMaxElems(c->ops, c->nOps);
  return a > b ? a : b;
}

/* Elements of t divided by dimension d (per-output-channel work); 0 if the
 * dimension is absent or zero. */
static double acPer(const AcTensorType *t, double d) {
  return d > 0 ? acElems(t) / d : 0.0;
}

/* Per-output-element work of a linalg convolution: the product of the filter
 * dims the convolution reduces over, found from the filter layout in the
 * op name ("linalg.conv_2d_nhwc_hwcf" -> h w c; depthwise: spatial only). */
static double acLinalgConvPer(const char *name, const AcTensorType *f) {
  int depthwise = strstr(name, "depthwise") != NULL;
  const char *p = strchr(name, '.');
  p = p ? p + 1 : name;
  /* Tokens separated by '_': find "Nd", then input layout, then filter. */
  const char *tok[8];
  size_t len[8];
  int nt = 0;
  while (*p && nt < 8) {
    const char *e = strchr(p, '_');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    tok[nt] = p;
    len[nt++] = l;
    if (!e)
      break;
    p = e + 1;
  }
  int nd = -1;
  for (int i = 0; i < nt; ++i)
    if (len[i] == 2 && tok[i][1] == 'd' && tok[i][0] >= '1' && tok[i][0] <= '3') {
      nd = i;
      break;
    }
  int r = acRank(f);
  if (nd < 0 || nd + 2 >= nt || (int)len[nd + 2] != r)
    return acElems(f); /* no layout (conv_2d): the whole filter is reduced */
  const char *lay = tok[nd + 2];
  double per = 1.0;
  for (int i = 0; i < r; ++i) {
    char ch = lay[i];
    int reduced = ch == 'd' || ch == 'h' || ch == 'w' || (!depthwise && ch == 'c');
    if (reduced)
      per *= acDim(f, i);
  }
  return per;
}

/* Batch dimensions of an unknown dot_general/contract: leading dims equal in
 * A, B and C, limited so that at least one contracting dim remains and the
 * rank arithmetic (rA + rB - rC = batch + 2 x contracting) works out. */
static double acGuessBatch(const AcTensorType *a, const AcTensorType *b,
                           const AcTensorType *c) {
  int ra = acRank(a), rb = acRank(b), rc = acRank(c);
  int s = ra + rb - rc;
  int nb = 0;
  while (nb < ra && nb < rb && nb < rc && a->dims[nb] == b->dims[nb] &&
         a->dims[nb] == c->dims[nb])
    ++nb;
  if (nb > s - 2)
    nb = s - 2;
  if (nb > 0 && ((s - nb) & 1))
    --nb;
  double batch = 1.0;
  for (int i = 0; i < nb; ++i)
    batch *= acDim(c, i);
  return batch;
}

static double acContract(const AcTensorType *a, const AcTensorType *b,
                         const AcTensorType *c, double batch) {
  if (batch <= 0)
    return 0.0;
  return 2.0 * sqrt(acElems(a) * acElems(b) * acElems(c) / batch);
}

/* Forward flops of a torch convolution from output y, input x, weight w;
 * `transposed` < 0: detect (weight [Cin, Cout/g, ...] does not match y). */
static double acTorchConv(const AcTensorType *y, const AcTensorType *x,
                          const AcTensorType *w, int transposed) {
  double per = acPer(w, acDim(w, 0));
  if (transposed < 0)
    transposed = acRank(y) >= 2 && acDim(w, 0) != acDim(y, 1) && x &&
                 acRank(x) >= 2 && acDim(w, 0) == acDim(x, 1);
  return 2.0 * (transposed ? acElems(x) : acElems(y)) * per;
}

/* Loop iterations and body ops of a region op from AcOpExtra. */
static void acGenericWork(const AcCtx *c, double *iters, double *ops) {
  const AcOpExtra *x = c->extra;
  *iters = (x && x->loopIterations > 0) ? x->loopIterations : acAllElems(c);
  if (x && x->bodyArithOps > 0)
    *ops = x->bodyArithOps;
  else if (x && x->loopIterations > 0)
    *ops = 0; /* counted, and the body has no arithmetic (a copy) */
  else
    *ops = 1; /* nothing known */
}

static double acFlops(const AcOpRule *r, const char *name, const AcCtx *c) {
  const double coef = r->coef;
  const AcTensorType *y = acOutput(c);
  const AcTensorType *a = acOperand(c, r->arg), *b = acOperand(c, r->arg + 1);
  double out = acOutElems(c);
  switch (r->formula) {
  case FX_ZERO:
    return 0.0;
  case FX_ELEM:
    return coef * out;
  case FX_REDUCE:
    return coef * acAllElems(c);
  case FX_MM:
  case FX_MM_ADD: {
    if (!a || !y)
      return 2.0 * out;
    double k = acRank(a) ? acDim(a, -1) : 1.0;
    double f = 2.0 * acElems(y) * k;
    return r->formula == FX_MM_ADD ? f + acElems(y) : f;
  }
  case FX_ADDBMM:
    if (!a || !b || !y)
      return 2.0 * out;
    return acContract(a, b, y, 1.0) + acElems(y);
  case FX_LINEAR: {
    const AcTensorType *x = acOperand(c, 0), *w = acOperand(c, 1);
    if (!x || !w || !y)
      return 2.0 * out;
    double in = acDim(w, -1);
    return 2.0 * acElems(y) * in + (acOperand(c, 2) ? acElems(y) : 0.0);
  }
  case FX_CONTRACT:
  case FX_CONTRACT_B0:
    if (!a || !b || !y)
      return 2.0 * out;
    return acContract(a, b, y,
                      r->formula == FX_CONTRACT_B0 && acRank(y) ? acDim(y, 0) : 1.0);
  case FX_DOT_GENERAL:
    if (c->extra && c->extra->loopIterations > 0)
      return 2.0 * c->extra->loopIterations;
    if (!a || !b || !y)
      return 2.0 * out;
    return acContract(a, b, y, acGuessBatch(a, b, y));
  case FX_CONV_TORCH:
  case FX_CONV_TORCH_T: {
    const AcTensorType *x = acOperand(c, 0), *w = acOperand(c, 1);
    if (!x || !w || !y)
      return 2.0 * out;
    double f = acTorchConv(y, x, w, r->formula == FX_CONV_TORCH_T ? 1 : -1);
    return f + (acOperand(c, 2) ? acElems(y) : 0.0);
  }
  case FX_CONV_TORCH_BWD: {
    const AcTensorType *go = acOperand(c, 0), *x = acOperand(c, 1),
                       *w = acOperand(c, 2);
    if (!go || !w)
      return 2.0 * out;
    double fwd = acTorchConv(go, x, w, -1);
    if (c->nRes <= 0 || !c->res)
      return 2.0 * fwd;
    return (acResult(c, 0) ? fwd : 0.0) + (acResult(c, 1) ? fwd : 0.0) +
           (acResult(c, 2) ? acElems(go) : 0.0);
  }
  case FX_CONV_LINALG: {
    const AcTensorType *f = acOperand(c, 1);
    if (!f || !y)
      return 2.0 * out;
    return 2.0 * acElems(y) * acLinalgConvPer(name, f);
  }
  case FX_POOL_LINALG: {
    const AcTensorType *win = acOperand(c, 1);
    if (!win || !y)
      return out;
    return coef * acElems(y) * acElems(win);
  }
  case FX_CONV_HLO: {
    const AcTensorType *w = acOperand(c, 1);
    if (!w || !y)
      return 2.0 * out;
    double o, first = acDim(w, 0), last = acDim(w, -1);
    double c1 = acDim(y, 1), cl = acDim(y, -1);
    if (first > 0 && (first == c1 || first == cl))
      o = first;
    else if (last > 0 && (last == c1 || last == cl))
      o = last;
    else {
      o = 0;
      for (int i = 0; i < acRank(w); ++i)
        if (acDim(w, i) > o)
          o = acDim(w, i);
    }
    return 2.0 * acElems(y) * acPer(w, o);
  }
  case FX_CONV_TOSA:
  case FX_CONV_TOSA_DW:
  case FX_CONV_TOSA_T: {
    const AcTensorType *x = acOperand(c, 0), *w = acOperand(c, 1);
    if (!x || !w || !y)
      return 2.0 * out;
    double bias = acOperand(c, 2) ? acElems(y) : 0.0;
    if (r->formula == FX_CONV_TOSA)
      return 2.0 * acElems(y) * acPer(w, acDim(w, 0)) + bias;
    if (r->formula == FX_CONV_TOSA_DW)
      return 2.0 * acElems(y) * acPer(w, acDim(w, -2) * acDim(w, -1)) + bias;
    return 2.0 * acElems(x) * acPer(w, acDim(w, -1)) + bias;
  }
  case FX_ATTN:
  case FX_ATTN_BLHE: {
    if (!a || !b || acRank(b) < 2)
      return coef * 4.0 * out;
    double s = r->formula == FX_ATTN ? acDim(b, -2) : acDim(b, 1);
    return coef * 4.0 * acElems(a) * s;
  }
  case FX_GENERIC: {
    double iters, ops;
    acGenericWork(c, &iters, &ops);
    return coef * ops * iters;
  }
  }
  return 0.0;
}

static double acBytesMoved(uint8_t flags, const AcCtx *c) {
  if (flags & F_NOBYTES)
    return 0.0;
  double in = 0.0, out = 0.0;
  for (intptr_t i = 0; c->res && i < c->nRes; ++i)
    out += acBytes(&c->res[i]);
  if (flags & F_OUTBYTES)
    return out;
  for (intptr_t i = 0; c->ops && i < c->nOps; ++i)
    in += acBytes(&c->ops[i]);
  if ((flags & F_LISTIN) && in == 0.0)
    in = out;
  return in + out;
}

/*===--------------------------- estimate ---------------------------------===*/

void acCostEstimate(const char *opName, const AcTensorType *operands,
                    intptr_t numOperands, const AcTensorType *results,
                    intptr_t numResults, const AcOpExtra *extra,
                    AcOpCost *out) {
  if (!out)
    return;
  memset(out, 0, sizeof *out);
  out->kind = AC_KIND_UNKNOWN;
  out->mutatesOperand = -1;
  AcCtx c = {operands, operands ? numOperands : 0, results,
             results ? numResults : 0, extra};
  static const AcOpRule unknownRule = {"", AC_KIND_UNKNOWN, 0, FX_ZERO, 0, 1.0f};
  static const AcOpRule elemRule = {"", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f};
  if (!opName) {
    out->bytesMoved = acBytesMoved(0, &c);
    return;
  }
  /* overwrite.tensor.contents(%value, %overwritten) writes its second. */
  if (strcmp(opName, "torch.overwrite.tensor.contents") == 0 && numOperands > 1)
    out->mutatesOperand = 1;

  char key[160];
  const char *base = NULL;
  size_t baseLen = 0;
  const AcOpRule *rule = NULL;
  AcOpRule copyRule;
  int inplace = 0;
  if (acMakeKey(opName, key, sizeof key, &base, &baseLen)) {
    /* torch's in-place variants ("relu_", "copy_", "bernoulli_") write
     * their first operand (dunders such as "__and__" do not). */
    if (base && acHasPrefix(opName, "torch.aten.") && baseLen > 1 &&
        base[baseLen - 1] == '_' && !(base[0] == '_' && base[1] == '_') &&
        numOperands > 0)
      out->mutatesOperand = 0;
    rule = acFindRule(key);
    if (!rule && base && acHasPrefix(opName, "torch.aten.")) {
      size_t kl = strlen(key);
      /* In-place variant "add_" (dunders such as "__and__" are not). */
      if (baseLen > 1 && base[baseLen - 1] == '_' &&
          !(baseLen >= 2 && base[0] == '_' && base[1] == '_')) {
        inplace = 1;
        key[kl - 1] = '\0';
        rule = acFindRule(key);
      } else if (acHasSuffix(key, kl, "_copy")) {
        /* Functional copy of a view ("view_copy", "transpose_copy"). */
        key[kl - 5] = '\0';
        const AcOpRule *v = acFindRule(key);
        if (v && v->kind == AC_KIND_VIEW) {
          copyRule = *v;
          copyRule.kind = AC_KIND_DATA_MOVEMENT;
          copyRule.flags = 0;
          rule = &copyRule;
        }
      }
    }
  }
  if (!rule && !inplace)
    for (size_t i = 0; i < sizeof acPrefixRules / sizeof acPrefixRules[0]; ++i)
      if (acHasPrefix(opName, acPrefixRules[i].name)) {
        rule = &acPrefixRules[i];
        break;
      }

  /* Replayable generators: recomputable, about as costly per element as a
     short integer hash (Philox-style rounds). */
  if (acIsReplayableRandomName(opName)) {
    static const AcOpRule rngRule = {"", AC_KIND_RNG_REPLAY, 0, FX_ELEM, 0,
                                     AC_RNG_FLOPS_PER_ELEMENT};
    int effects = extra && extra->hasMemoryEffects;
    out->kind = effects ? AC_KIND_INPLACE : AC_KIND_RNG_REPLAY;
    out->flops = acFlops(&rngRule, opName, &c);
    out->bytesMoved = acBytesMoved(0, &c);
    out->recomputable = !effects;
    return;
  }
  /* Random ops: never recomputed, whatever the table says. */
  if (acIsRandomName(opName, base, baseLen)) {
    const AcOpRule *r = rule ? rule : &elemRule;
    out->kind = AC_KIND_RANDOM;
    out->flops = acFlops(r, opName, &c);
    out->bytesMoved = acBytesMoved(0, &c);
    return;
  }
  if (inplace) {
    const AcOpRule *r = rule ? rule : &unknownRule;
    out->kind = AC_KIND_INPLACE;
    out->flops = acFlops(r, opName, &c);
    out->bytesMoved = acBytesMoved(0, &c);
    out->computeIntensive = (r->flags & F_CI) != 0;
    out->unknown = rule == NULL;
    return;
  }

  if (rule) {
    out->kind = (AcOpKind)rule->kind;
    out->flops = acFlops(rule, opName, &c);
    out->bytesMoved = acBytesMoved(rule->flags, &c);
    out->recomputable = !(rule->flags & F_NOREC);
    out->computeIntensive = (rule->flags & F_CI) != 0;
    out->isView = (rule->flags & F_VIEW) != 0;
    /* linalg.generic: what the importer learned of its body decides. */
    if (strcmp(opName, "linalg.generic") == 0 && extra) {
      double iters, ops;
      acGenericWork(&c, &iters, &ops);
      double outElems = acMaxElems(c.res, c.nRes);
      if (outElems <= 0) {
        const AcTensorType *y = acOutput(&c);
        outElems = acElems(y);
      }
      if (extra->isContraction) {
        out->kind = AC_KIND_MATMUL;
        out->computeIntensive = 1;
        out->flops = iters * (ops > 2 ? ops : 2);
      } else if (extra->loopIterations > 0 && outElems > 0 &&
                 extra->loopIterations > outElems * (1.0 + 1e-9)) {
        out->kind = AC_KIND_REDUCTION;
      } else if (extra->loopIterations > 0 && extra->bodyArithOps == 0) {
        out->kind = AC_KIND_DATA_MOVEMENT;
      }
    }
  } else {
    out->unknown = 1;
    out->bytesMoved = acBytesMoved(0, &c);
    if (extra && extra->knownPure && !extra->hasMemoryEffects) {
      out->kind = AC_KIND_DATA_MOVEMENT;
      out->recomputable = 1;
    }
  }

  if (extra && extra->hasMemoryEffects) {
    out->kind = AC_KIND_INPLACE;
    out->recomputable = 0;
    out->isView = 0;
    out->bytesMoved = acBytesMoved(0, &c);
  }
}
