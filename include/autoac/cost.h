/*===- autoac/cost.h - op cost model, device profiles, type and size text -*- C -*-===*
 *
 * Ops are recognised by name (torch-mlir, StableHLO, TOSA, linalg, tensor,
 * arith, math).  For each the model gives a kind, FLOPs and bytes moved
 * derived from operand/result shapes, whether it allocates (views do not),
 * and whether it may be recomputed: only ops known to be pure.  Random ops,
 * in-place torch ops (trailing '_'), ops with memory effects and unknown ops
 * are never recomputed.  Time is a roofline on a device profile:
 * max(flops / peakFlops, bytes / bandwidth).
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_COST_H
#define AUTOAC_COST_H

#include "autoac/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AC_MAX_RANK 16

/// A value's type as the cost model sees it.
typedef struct AcTensorType {
  uint8_t isTensor;        ///< 0: non-tensor (costs no memory)
  int32_t rank;
  int64_t dims[AC_MAX_RANK];
  int32_t elemBits;        ///< bits per element (i1 counts as 8)
} AcTensorType;

/// A dynamic dimension in AcTensorType.dims (acTypeParseTorchDynamic and
/// the import, before it puts the dimension's bound there).
#define AC_DIM_DYNAMIC (-1)

/// Elements of a tensor type (1 for rank 0, 0 for non-tensors).
int64_t acTensorElements(const AcTensorType *t);
/// Bytes of a tensor type (0 for non-tensors); -1 on overflow.
int64_t acTensorBytes(const AcTensorType *t);

/// Bits per element of a dtype spelled as in torch-mlir or builtin types
/// ("f32", "bf16", "si64", "ui8", "i1", "f8E4M3FN", ...); 0 if unknown.
int32_t acElemBitsFromName(const char *dtype, size_t len);

/// Parses the text of `!torch.vtensor<[d0,d1,...],dtype>` (the whole type
/// text, or its body `[...],dtype`).  Non-tensor torch types
/// (`!torch.int`, `!torch.list<int>`, `!torch.none`...) parse as isTensor=0.
/// AC_ERR_INVALID with a message quoting the text for a dynamic dimension
/// (`?` or -1), an unranked `!torch.vtensor`, an unknown dtype or bad syntax.
AcStatus acTypeParseTorch(const char *text, size_t len, AcTensorType *out,
                          AcError *err);
/// As acTypeParseTorch, with dynamic dimensions (`?`, or -1 in a torch
/// shape) accepted as AC_DIM_DYNAMIC (their size checked as 1).
AcStatus acTypeParseTorchDynamic(const char *text, size_t len,
                                 AcTensorType *out, AcError *err);

/// Extra facts the importer may know about an op (all optional, 0 = unknown).
typedef struct AcOpExtra {
  double loopIterations;   ///< linalg.generic: product of the loop ranges
  int32_t bodyArithOps;    ///< linalg.generic: arithmetic ops in the body
  uint8_t isContraction;   ///< linalg.generic with reduction and mul-add body
  uint8_t hasMemoryEffects;///< a registered op declaring memory effects
  uint8_t knownPure;       ///< registered op known to have no side effects
} AcOpExtra;

/// What the model says about one op.
typedef struct AcOpCost {
  AcOpKind kind;
  double flops;
  double bytesMoved;
  uint8_t recomputable;
  uint8_t computeIntensive;
  uint8_t isView;          ///< results alias operand 0 (no allocation)
  int32_t mutatesOperand;  ///< direct operand the op writes in place, or -1
  uint8_t unknown;         ///< no rule matched the name: FLOPs are 0 and the
                           ///< op is pinned (unless knownPure), a guess
} AcOpCost;

/// Estimates an op's cost from its name and types; `extra` may be NULL.
/// The same as acCostResolveName followed by acCostEstimateNamed.
void acCostEstimate(const char *opName, const AcTensorType *operands,
                    intptr_t numOperands, const AcTensorType *results,
                    intptr_t numResults, const AcOpExtra *extra,
                    AcOpCost *out);

/// What the model concludes from an op's name alone: which rule of the
/// table applies (and how), and how the name classifies the op (random,
/// replayable, in place).  Plain data, no ownership: an importer resolves it
/// once per distinct op name and estimates every op of that name from it.
typedef struct AcOpNameCost {
  uint8_t hasRule;      ///< a rule applies (its fields follow)
  uint8_t ruleKind;     ///< the rule's AcOpKind
  uint8_t ruleFlags;    ///< the rule's flags (optable.c)
  uint8_t ruleFormula;  ///< the rule's FLOP formula (optable.c)
  uint8_t ruleArg;      ///< the formula's primary operand
  float ruleCoef;       ///< the formula's multiplier
  uint8_t inplace;      ///< a torch in-place variant ("add_") of a rule
  uint8_t writesFirst;  ///< torch "name_" (not a dunder): writes operand 0
  uint8_t overwrites;   ///< torch.overwrite.tensor.contents: writes operand 1
  uint8_t random;       ///< draws random numbers: never recomputed
  uint8_t replayable;   ///< a counter-based generator (recomputable)
  uint8_t linalgGeneric; ///< linalg.generic: its body decides (AcOpExtra)
} AcOpNameCost;

/// Resolves the name-only part of the model for `opName` (NULL: nothing
/// known) into *out.
void acCostResolveName(const char *opName, AcOpNameCost *out);

/// Estimates an op's cost from its resolved name `nc` (acCostResolveName of
/// `opName`, which the FLOP formulas may still read), its types and
/// `extra` (may be NULL): exactly what acCostEstimate gives.
void acCostEstimateNamed(const AcOpNameCost *nc, const char *opName,
                         const AcTensorType *operands, intptr_t numOperands,
                         const AcTensorType *results, intptr_t numResults,
                         const AcOpExtra *extra, AcOpCost *out);

/// Whose kernels run the ops on a device: what their workspaces are
/// (acCostWorkspace, docs/cost-model.md "Workspaces").
typedef enum AcBackend {
  AC_BACKEND_GPU = 0,      ///< cuDNN / cuBLAS through PyTorch: 0 (see docs)
  AC_BACKEND_TORCH_CPU = 1 ///< PyTorch's CPU kernels (ATen, oneDNN)
} AcBackend;

/// A device profile for roofline time and op workspaces.
typedef struct AcDevice {
  const char *name;
  double peakFlops;        ///< FLOP/s (dense, the dtype training uses)
  double bandwidth;        ///< bytes/s of device memory
  AcBackend backend;       ///< whose kernels: decides the workspaces
  int32_t threads;         ///< CPU threads the kernels run on
                           ///< (torch.get_num_threads()); 0 on GPUs
  double hostBandwidth;    ///< bytes/s of the host link per direction
                           ///< (pinned copies); 0: none, no offload
  double hostLatency;      ///< seconds per host copy besides the bytes
} AcDevice;

/// Looks up a profile by name ("h100", "a100", "h200", "cpu", ...); NULL if
/// unknown.
const AcDevice *acDeviceLookup(const char *name);
/// Comma-separated list of known profile names (for error messages).
const char *acDeviceNames(void);
/// Roofline seconds: max(flops / peakFlops, bytes / bandwidth).
double acCostSeconds(const AcDevice *dev, double flops, double bytesMoved);

/// Workspace bytes of one op on `dev`: scratch memory the op's kernel
/// allocates and frees inside itself, live only while it runs (on top of
/// its operands and results).  A formula of the operand and result types
/// per class of op and backend (docs/cost-model.md, "Workspaces"): on the
/// `cpu*` profiles what PyTorch 1.13's CPU kernels allocate (oneDNN
/// convolutions, mse_loss, batch/layer norm backward, ...), measured; 0 for
/// every op elsewhere and on the GPU profiles.  `dev` NULL: 0.  Never
/// negative, at most AC_MAX_BYTES.  A non-tensor operand (isTensor 0) with
/// rank > 0 is a constant int list whose values are its dims (the importer
/// reads torch.prim.ListConstruct of torch.constant.int so): a
/// convolution's stride, padding and dilation; without them its workspace
/// assumes dilation 1 and infers stride and padding from the shapes.
int64_t acCostWorkspace(const AcDevice *dev, const char *opName,
                        const AcTensorType *operands, intptr_t numOperands,
                        const AcTensorType *results, intptr_t numResults);

/*===--------------------- user cost table (--ac-cost-table) ---------------===*/

/// One entry of a cost table: what a user says about ops of one name.  A
/// field the entry does not give (has* == 0) keeps the model's value.
typedef struct AcCostOverride {
  const char *name;        ///< op name the entry is for (owned by the table)
  uint8_t hasFlops, hasBytes, hasSeconds, hasRecomputable, hasWorkspace;
  double flops;            ///< FLOPs per execution
  double bytes;            ///< bytes moved per execution
  double seconds;          ///< time per execution (replaces the roofline)
  uint8_t recomputable;    ///< may be rerun in the backward
  int64_t workspace;       ///< scratch bytes while it runs (acCostWorkspace)
} AcCostOverride;

/// Op costs given by a user, by op name (docs/cost-model.md, "Cost tables").
typedef struct AcCostTable AcCostTable;

/// Parses a cost table from JSON `text` of `len` bytes; `sourceName` names
/// it in messages (the file).  The text is an object mapping op names
/// (dialect.op) to objects with any of "flops", "bytes", "seconds" (finite
/// numbers >= 0), "workspace" (whole bytes, 0 to 2^62 - 1) and
/// "recomputable" (a boolean), e.g.
/// {"my.op": {"flops": 1e9, "bytes": 4096, "recomputable": true}}.
/// AC_ERR_INVALID with a message naming the source and the entry for bad
/// JSON, a duplicate or malformed name, an unknown key, a wrong type, a
/// negative or non-finite number, an entry that sets nothing, or
/// "recomputable": true for a random or in-place op; AC_ERR_NOMEM.
AcStatus acCostTableCreateFromString(const char *text, size_t len,
                                     const char *sourceName,
                                     AcCostTable **out, AcError *err);
/// As acCostTableCreateFromString, reading the file `path` (AC_ERR_IO when
/// it cannot be read, naming it).
AcStatus acCostTableCreateFromFile(const char *path, AcCostTable **out,
                                   AcError *err);
/// Frees a table; NULL is accepted.
void acCostTableDestroy(AcCostTable *table);
/// The host link of `dev` (AcDevice.hostBandwidth, hostLatency; 0 without a
/// device), with what the table's "@device" entry gives in its place
/// ({"@device": {"host_bandwidth": 5.5e10, "host_latency": 1e-5}}: finite
/// numbers >= 0; bandwidth 0: no link).  `table` may be NULL.
void acCostTableHostLink(const AcCostTable *table, const AcDevice *dev,
                         double *bandwidth, double *latency);
/// Number of entries.
intptr_t acCostTableSize(const AcCostTable *table);
/// The name the table was read from (for messages).
const char *acCostTableSource(const AcCostTable *table);
/// The entry for `opName`: its exact name, else, for torch ops, the name
/// without the overload ("torch.aten.add" for "torch.aten.add.Tensor");
/// NULL when none (or `table` is NULL).
const AcCostOverride *acCostTableLookup(const AcCostTable *table,
                                        const char *opName);
/// Applies `entry` to `cost`: the FLOPs, bytes moved and recomputability it
/// gives replace the model's, and the op is no longer unknown.  Returns the
/// op's seconds on `dev`: the entry's, else the roofline of the result.
/// (The entry's workspace, when it has one, replaces acCostWorkspace's:
/// the importer reads it from the entry.)
double acCostApplyOverride(const AcCostOverride *entry, const AcDevice *dev,
                           AcOpCost *cost);

/// Ops of one name the cost model has no rule for and no cost table entry
/// covers: they cost 0 FLOPs and are never recomputed (unless registered and
/// free of memory effects).  Listed so that users see them (warnings,
/// summary, report's unknown_ops).
typedef struct AcUnknownOp {
  const char *name;        ///< op name (not owned)
  intptr_t count;          ///< ops of that name in the joint functions
  AcId firstOp;            ///< the first of them in program order
  char *location;          ///< its location as text ("file:line:col"; owned
                           ///< by the list's owner, may be NULL)
  uint8_t recomputable;    ///< registered and free of memory effects
} AcUnknownOp;

/// Parses a size: bytes, or a number with B, KB, MB, GB, TB (powers of 1000)
/// or KiB, MiB, GiB, TiB (powers of 1024); "24GB", "1.5GiB", "3e9".  Rejects
/// negatives, NaN, overflow and junk with AC_ERR_INVALID quoting the text.
AUTOAC_API AcStatus acParseSize(const char *text, int64_t *out, AcError *err);

#ifdef __cplusplus
}
#endif
#endif
