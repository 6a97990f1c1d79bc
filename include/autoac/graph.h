/*===- autoac/graph.h - the plain-C joint graph ------------------*- C -*-===*
 *
 * The planner's core works on this graph; MLIR is met only at import and
 * rewrite.  A graph holds one or more joint functions.
 *
 * Invariants (established by acGraphBuilderFinish, read-only afterwards):
 *  - ops of a function are contiguous in `ops`, in program order, and
 *    functions appear in module order;  ops[i].func == f for
 *    funcs[f].firstOp <= i < funcs[f].firstOp + funcs[f].numOps.
 *  - values are function arguments (producer == AC_NONE, index = arg number)
 *    or op results (index = result number); an op's results are the
 *    contiguous ids [firstResult, firstResult + numResults).
 *  - operands[op.firstOperand .. +numOperands) are value ids defined earlier
 *    in the same function (SSA dominance in a single block).  Values an op's
 *    nested regions capture from the function body are included as operands.
 *  - uses[v.firstUse .. +numUses) are the distinct ops reading v, ascending.
 *  - aliasRoot: a view's storage owner (transitively); a value that owns its
 *    storage has aliasRoot == itself.  Views have bytes == 0.
 *  - phase: every op is AC_PHASE_FWD or AC_PHASE_BWD; forward ops never read
 *    backward values.  A value's phase is its producer's (arguments: primal
 *    and param are FWD, tangents are BWD).  Inferred (docs/contract.md): FWD
 *    when it feeds a forward output and no tangent, or when it is dead (a
 *    known kind, no result read or returned, no in-place write) and reads
 *    only FWD values (none written by a BWD op before it); else BWD.
 *    "Feeds" and "depends" follow data edges and the program order of
 *    in-place writes (acGraphBuilderFinish).
 *  - saveCandidate[v]: v is a forward value (op result) read by a backward op
 *    (directly, or through a backward view of it).
 *  - mutation: a storage root is mutated when an op writes a value of it in
 *    place (AcOp.mutates) or one of its values has reference semantics
 *    (AcValue.mutableStorage).  Every op that reads or produces a value of a
 *    mutated storage has recomputable == 0 (a recompute could read the
 *    storage after it was written); mutationPinned == 1 on those the rule
 *    made so (recomputable by the cost model).
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_GRAPH_H
#define AUTOAC_GRAPH_H

#include "autoac/support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The most bytes autoac counts in one value, one graph's memory over its
/// schedule, or the static memory: 2^62 - 1 (4 EiB).  acGraphBuilderFinish
/// and acSimStaticBytesChecked refuse more, so a peak (live + static) always
/// fits in int64_t.
#define AC_MAX_BYTES ((INT64_C(1) << 62) - 1)

/// Execution phase of an op.
typedef enum AcPhase { AC_PHASE_FWD = 0, AC_PHASE_BWD = 1 } AcPhase;

/// Role of a value.
typedef enum AcRole {
  AC_ROLE_RESULT = 0,  ///< produced by an op
  AC_ROLE_PRIMAL = 1,  ///< argument without marker: batch data
  AC_ROLE_PARAM = 2,   ///< argument marked ac.param
  AC_ROLE_TANGENT = 3  ///< argument marked ac.tangent
} AcRole;

/// Flags on a value returned by its function.
enum {
  AC_RET_OUTPUT = 1, ///< returned as a forward output (ac.output)
  AC_RET_GRAD = 2    ///< returned as a gradient (ac.grad or unmarked)
};

/// How the backward's gradients reach the parameters (docs/contract.md,
/// option `grads`), which decides how the simulator counts them.
typedef enum AcGradMode {
  /// Gradient buffers exist for the whole step and the backward writes into
  /// them: static memory (a compiled runtime, the MLIR pipeline).
  AC_GRADS_BUFFERS = 0,
  /// The backward returns new gradient tensors, alive from their op to the
  /// end of the backward, and they are then added into gradients that exist
  /// for the whole step (static): PyTorch's zero_grad(set_to_none=False).
  AC_GRADS_ACCUMULATE = 1,
  /// New gradient tensors as in ACCUMULATE, with no gradient before the
  /// backward (PyTorch's zero_grad(set_to_none=True)): no static gradients.
  AC_GRADS_ASSIGN = 2
} AcGradMode;

/// How long the backward's tangents (the incoming gradients of the forward
/// outputs) live.
typedef enum AcTangentMode {
  /// Through the whole backward: the caller holds them (the compiled MLIR
  /// program's arguments; torch 1.13's AOT autograd runtime).
  AC_TANGENTS_HELD = 0,
  /// Until their last use in the backward: the backward owns them and frees
  /// each there (torch 2.x's AOT autograd runtime steals its arguments).
  AC_TANGENTS_LAST_USE = 1
} AcTangentMode;

/// Classification of ops by the cost model.
typedef enum AcOpKind {
  AC_KIND_UNKNOWN = 0,    ///< not in the table: never recomputed
  AC_KIND_CONSTANT,       ///< constants and list constructs: free
  AC_KIND_VIEW,           ///< view/alias: allocates nothing
  AC_KIND_ELEMENTWISE,    ///< pointwise math
  AC_KIND_REDUCTION,      ///< sums, means, norms, softmax
  AC_KIND_MATMUL,         ///< matmul family (compute-intensive)
  AC_KIND_CONV,           ///< convolutions and their backward (compute-intensive)
  AC_KIND_ATTENTION,      ///< fused attention (compute-intensive)
  AC_KIND_DATA_MOVEMENT,  ///< copies, cat, gather, pad, fill, empty
  AC_KIND_RANDOM,         ///< RNG: never recomputed
  AC_KIND_INPLACE,        ///< in-place or memory-effecting: never recomputed
  AC_KIND_RNG_REPLAY,     ///< counter-based generator: a pure function of its
                          ///< seed/state operands, so a rerun replays the same
                          ///< bits; recomputable (docs/contract.md, randomness)
  AC_KIND_COUNT
} AcOpKind;

/// One op of a joint function (a top-level op of its single block).
typedef struct AcOp {
  const char *name;       ///< op name, e.g. "torch.aten.mm" (owned by graph)
  AcId func;              ///< owning function
  AcId firstResult;       ///< first result value id
  int32_t numResults;
  int32_t firstOperand;   ///< index into AcGraph.operands
  int32_t numOperands;
  uint8_t phase;          ///< AcPhase
  uint8_t kind;           ///< AcOpKind
  uint8_t recomputable;   ///< known pure and deterministic
  uint8_t computeIntensive; ///< matmul/conv/attention: min-cut never recomputes
  uint8_t mustSave;       ///< ac.save
  uint8_t mustRecompute;  ///< ac.recompute
  uint8_t phaseForced;    ///< phase came from ac.phase
  uint8_t mutationPinned; ///< would be recomputable but reads or makes
                          ///< storage written in place (acGraphBuilderFinish)
  double flops;           ///< floating-point operations
  double bytesMoved;      ///< bytes read + written
  double seconds;         ///< roofline time on the graph's device profile
  int64_t workspace;      ///< scratch bytes live only while the op runs, at
                          ///< each of its steps (acCostWorkspace), in
                          ///< [0, AC_MAX_BYTES]
  AcId dpsInit;           ///< destination-style init result 0 is written into
                          ///< (linalg `outs`), or AC_NONE
  uint8_t initAlsoRead;   ///< the op reads its dpsInit value again (another
                          ///< operand, or a capture in a nested region): never
                          ///< written in place (acGraphInPlaceRoot)
  AcId mutates;           ///< (first) value this op writes in place (torch
                          ///< `relu_`, `copy_`, overwrite.tensor.contents,
                          ///< any declared write effect), or AC_NONE
} AcOp;

/// One SSA value: a function argument or an op result.
typedef struct AcValue {
  int64_t bytes;          ///< bytes it allocates (0 for views, non-tensors)
  int64_t logicalBytes;   ///< bytes of its tensor type (views included)
  AcId producer;          ///< producing op, or AC_NONE for an argument
  int32_t index;          ///< result number, or argument number
  AcId func;              ///< owning function
  AcId aliasRoot;         ///< storage owner (itself unless a view)
  int32_t firstUse;       ///< index into AcGraph.uses
  int32_t numUses;
  uint8_t role;           ///< AcRole
  uint8_t phase;          ///< AcPhase
  uint8_t retFlags;       ///< AC_RET_* if returned
  uint8_t saveCandidate;  ///< forward result read (maybe via views) by a bwd op
  uint8_t mutableStorage; ///< of a type with reference semantics
                          ///< (`!torch.tensor`): anything may write it
  uint8_t noOffload;      ///< never offloaded: the rewrite cannot copy it
                          ///< (set by the pass: not a builtin ranked tensor)
} AcValue;

/// One joint function.
typedef struct AcFunc {
  char *name;             ///< symbol name without '@' (owned)
  AcId firstOp;
  int32_t numOps;
  AcId firstArg;          ///< arguments are values [firstArg, firstArg+numArgs)
  int32_t numArgs;
  int32_t firstRet;       ///< index into AcGraph.rets
  int32_t numRets;
} AcFunc;

/// One entry of the module's execution schedule (ac.schedule).
typedef struct AcSchedEntry {
  AcId func;
  uint8_t phase;          ///< AcPhase
  int32_t microbatch;     ///< 0 unless given as "A.fwd@k"
  int32_t partner;        ///< the entry of the other phase of the same
                          ///< (func, microbatch); set by acGraphBuilderFinish
} AcSchedEntry;

/// The whole graph.  Owns every array.
typedef struct AcGraph {
  AcOp *ops;         intptr_t numOps;
  AcValue *values;   intptr_t numValues;
  AcId *operands;    intptr_t numOperands;
  AcId *uses;        intptr_t numUses;
  AcFunc *funcs;     intptr_t numFuncs;
  AcId *rets;        intptr_t numRets;   ///< returned value ids, per function
  uint8_t *retFlags;                     ///< AC_RET_* per entry of rets
  AcSchedEntry *sched; intptr_t numSched; ///< execution order of phases
  char *strings;     intptr_t stringsSize; ///< pool holding op names, each once
  AcGradMode gradMode; ///< how gradients are counted (AC_GRADS_BUFFERS: 0)
  AcTangentMode tangentMode; ///< how long tangents live (AC_TANGENTS_HELD: 0)
  double hostBandwidth; ///< bytes/s of the device's host link, per direction
                        ///< (offload, docs/cost-model.md); 0: no offload
  double hostLatency;   ///< seconds per host copy on top of bytes/bandwidth
  int64_t hostBudget;   ///< host bytes offloaded saves may hold; 0: no limit
                        ///< (the pass gives a host budget of 0 no link)
} AcGraph;

/// Frees a graph and everything it owns; NULL is accepted.
void acGraphDestroy(AcGraph *graph);

/// Returns the value id of operand `i` of op `op`.
static inline AcId acOpOperand(const AcGraph *g, AcId op, int32_t i) {
  return g->operands[g->ops[op].firstOperand + i];
}

/// The operand of view `v`'s producer that shares v's storage root (the
/// view's direct parent), or the root itself when no operand does.
static inline AcId acValueViewParent(const AcGraph *g, AcId v) {
  const AcValue *val = &g->values[v];
  const AcOp *op = &g->ops[val->producer];
  for (int32_t i = 0; i < op->numOperands; ++i) {
    AcId u = acOpOperand(g, val->producer, i);
    if (g->values[u].aliasRoot == val->aliasRoot)
      return u;
  }
  return val->aliasRoot;
}
/// Whether return entry `r` is a gradient written into static storage
/// (AC_RET_GRAD under AC_GRADS_BUFFERS).  Any other gradient is a returned
/// backward value: it lives from its op to the end of the backward.
static inline int acGraphRetIsStaticGrad(const AcGraph *g, intptr_t r) {
  return (g->retFlags[r] & AC_RET_GRAD) && g->gradMode == AC_GRADS_BUFFERS;
}
/// Returns the op id of use `i` of value `v`.
static inline AcId acValueUse(const AcGraph *g, AcId v, int32_t i) {
  return g->uses[g->values[v].firstUse + i];
}

/*===-------------------------- builder ------------------------------------===*/

/// Incremental construction of an AcGraph (used by import and by tests).
typedef struct AcGraphBuilder AcGraphBuilder;

/// Creates an empty builder; NULL on allocation failure.
AcGraphBuilder *acGraphBuilderCreate(void);
/// Frees a builder (and any graph it was building); NULL is accepted.
void acGraphBuilderDestroy(AcGraphBuilder *b);

/// Makes room for `ops` more ops, `values` more values and `operands` more
/// operands (each may be 0), so that adding that many copies no array; a
/// hint only: a failed reservation is left to the Add calls to report.
void acGraphBuilderReserve(AcGraphBuilder *b, intptr_t ops, intptr_t values,
                           intptr_t operands);
/// Starts a new function; later args and ops belong to it.  Returns its id
/// or AC_NONE on allocation failure.
AcId acGraphBuilderAddFunc(AcGraphBuilder *b, const char *name);
/// Adds an argument with `role` and `bytes`; returns its value id or AC_NONE.
AcId acGraphBuilderAddArg(AcGraphBuilder *b, AcRole role, int64_t bytes);
/// Adds an op with the given operands and `numResults` results of the given
/// sizes (`resultBytes` may be NULL: all 0).  Cost fields are zero,
/// kind AC_KIND_UNKNOWN, recomputable 0: set them through acGraphBuilderOp.
/// Returns the op id or AC_NONE.
AcId acGraphBuilderAddOp(AcGraphBuilder *b, const char *name,
                         const AcId *operands, int32_t numOperands,
                         int32_t numResults, const int64_t *resultBytes);
/// Mutable access to an op added so far (valid until the next Add call).
AcOp *acGraphBuilderOp(AcGraphBuilder *b, AcId op);
/// Marks result `resultValue` as the `aliasOf` view (bytes become 0).
void acGraphBuilderSetAlias(AcGraphBuilder *b, AcId resultValue, AcId aliasOf);
/// Sets the logical byte size of a value (defaults to its bytes).
void acGraphBuilderSetLogicalBytes(AcGraphBuilder *b, AcId value, int64_t bytes);
/// Records that `op` writes `value` in place (see AcOp.mutates, which is the
/// first value recorded for `op`); call once per value an op writes.  Phase
/// inference orders every write with the accesses of the storage it writes
/// (see acGraphBuilderFinish).
void acGraphBuilderSetMutates(AcGraphBuilder *b, AcId op, AcId value);
/// Marks `value` as mutable storage (see AcValue.mutableStorage).
void acGraphBuilderSetMutable(AcGraphBuilder *b, AcId value);
/// Forces the phase of `op` (ac.phase).
void acGraphBuilderForcePhase(AcGraphBuilder *b, AcId op, AcPhase phase);
/// Appends `value` to the current function's returned values with AC_RET_*.
AcStatus acGraphBuilderAddRet(AcGraphBuilder *b, AcId value, uint8_t flags);
/// Appends a schedule entry; without any, acGraphBuilderFinish makes the
/// default order (forwards in module order, backwards in reverse).
AcStatus acGraphBuilderAddSched(AcGraphBuilder *b, AcId func, AcPhase phase,
                                int32_t microbatch);

/// Completes the graph: builds use lists and alias roots, infers phases
/// (forward = some forward output depends on it and it does not depend on a
/// tangent; forced phases honoured and checked; dependences are data edges
/// and, for every storage root written in place, program order: a write
/// depends on every earlier access of its storage, every later access on it,
/// and a forward output on every write of its storage; a forward op after a
/// backward write of its storage, or a forward write after a backward
/// access, is an error naming the op), marks save candidates, and fills the
/// default schedule.  On success transfers the graph to `*out`
/// (the builder is left empty).  Errors (a forced phase that contradicts
/// dependences, a schedule missing or repeating a phase) name the op; a value
/// of negative size or above AC_MAX_BYTES, or values that over the schedule
/// add up to more than AC_MAX_BYTES, are AC_ERR_INVALID naming the value or
/// function.
AcStatus acGraphBuilderFinish(AcGraphBuilder *b, AcGraph **out, AcError *err);

/// Puts the ops of a finished graph in another order, in place: op k
/// becomes the op that was `order[k]` ([numOps], a permutation that keeps
/// each function's ops in its range and reads every value after the op
/// making it).  The graph is then what acGraphBuilderFinish makes from the
/// same ops, values and flags added in the new order: values renumbered
/// (arguments keep their ids, results follow their ops), operands, uses,
/// alias roots, returns, dpsInit and mutates renumbered; phases, pins and
/// save candidates carried over (they follow from the dataflow, which a
/// reorder keeps).  The string pool is kept as it is (op names point into
/// it).  `valueOrder` ([numValues]) receives, for each new value id, the
/// old one, for the caller's own per-value arrays (acPermuteInPlace).
/// AC_ERR_NOMEM leaves the graph unchanged.
AcStatus acGraphReorderOps(AcGraph *g, const AcId *order, AcId *valueOrder);

/*===-------------------------- queries ------------------------------------===*/

/// Sum of bytes of values with role AC_ROLE_PARAM.
int64_t acGraphParamBytes(const AcGraph *g);
/// Sum of bytes of returned gradients (AC_RET_GRAD) whose storage is not a
/// parameter or input (counted once per storage root).
int64_t acGraphGradBytes(const AcGraph *g);
/// Sets root[r] = 1 ([numValues], not cleared first) for every storage the
/// simulator counts as static memory: parameters and, under
/// AC_GRADS_BUFFERS, the storage roots of returned gradients that ops
/// produce.
void acGraphMarkStaticRoots(const AcGraph *g, uint8_t *root);
/// Counts ops of function `f` in `phase`.
intptr_t acGraphCountPhase(const AcGraph *g, AcId f, AcPhase phase);

/// The cost model's estimate of one step of the original program: the sum
/// of op seconds (AcOp.seconds) over every schedule entry (each function's
/// forward ops for its forward entries, backward ops for its backward ones,
/// once per microbatch), recomputation excluded.  `flops` (may be NULL)
/// receives the FLOPs summed the same way.
double acGraphStepSeconds(const AcGraph *g, double *flops);

/// The storage root op `o` may write its result in place of: the root of its
/// destination-style init (dpsInit) when o has one result, that result is
/// its own storage root, the init's root is an op result of the same
/// bytes, and `o` reads that storage through its init alone (not
/// initAlsoRead, no other operand of the same root: bufferization would
/// copy); AC_NONE otherwise.  Whether it does depends on liveness
/// (simulate.h); this is the part that depends on the graph alone.
AcId acGraphInPlaceRoot(const AcGraph *g, AcId o);

#ifdef __cplusplus
}
#endif
#endif
