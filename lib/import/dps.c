/* dps.c - destination-style writes: which init a result is written into
 * (import/dps.h).  acDpsResultInit, acDpsBase and acLoopCopiesPassed recurse
 * into one another through nested region ops, up to AC_DPS_DEPTH deep. */
#include "import/dps.h"
#include "import/ir.h"
#include "import/layout.h"

#include "mlir-c/BuiltinAttributes.h"

#include <string.h>

/* Destination-style writes: which storage a result is written into in
 * place (when nothing reads that storage afterwards, one-shot bufferization
 * gives the result its buffer; else it copies the storage first).
 *
 * The operand number of the one init of a linalg op `op` with one result:
 * the last entry of `operandSegmentSizes` is 1 (the last direct operand);
 * linalg.broadcast, linalg.transpose, linalg.map, linalg.reduce (one result:
 * its operands are as many inputs as inits) and linalg.softmax carry no
 * segment sizes and have their one init last.  -1 when it is not such an op. */
static intptr_t acLinalgInitOperand(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  intptr_t nops = mlirOperationGetNumOperands(op);
  if (mlirOperationGetNumResults(op) != 1 || nops < 1 || n.length < 7 ||
      strncmp(n.data, "linalg.", 7) != 0)
    return -1;
  MlirAttribute seg =
      mlirOperationGetAttributeByName(op, acStr("operandSegmentSizes"));
  int fixedInit = acStrRefEq(n, "linalg.broadcast") ||
                  acStrRefEq(n, "linalg.transpose") || acStrRefEq(n, "linalg.map") ||
                  acStrRefEq(n, "linalg.reduce") || acStrRefEq(n, "linalg.softmax");
  if (!mlirAttributeIsNull(seg) && mlirAttributeIsADenseI32Array(seg) &&
      mlirDenseArrayGetNumElements(seg) >= 2 &&
      mlirDenseI32ArrayGetElement(seg, mlirDenseArrayGetNumElements(seg) - 1) == 1)
    return nops - 1;
  if (fixedInit && mlirAttributeIsNull(seg) && nops >= 2)
    return nops - 1;
  return -1;
}

enum { AC_DPS_DEPTH = 16 }; /* region ops nested deeper are not followed */


/* Whether `v` is defined inside a region of `op`. */
static int acDefinedIn(MlirValue v, MlirOperation op) {
  MlirOperation p = mlirValueIsAOpResult(v)
                        ? mlirOperationGetParentOperation(mlirOpResultGetOwner(v))
                        : mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  for (; !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if (mlirOperationEqual(p, op))
      return 1;
  return 0;
}

/* The value whose storage `v`, a value yielded inside region op `in`,
 * ends up in: follows in-place writers inside `in` back (a writer's result
 * to its init) while there are any, to a block argument or a value defined
 * outside `in`. */
static MlirValue acDpsBase(MlirValue v, MlirOperation in, int depth) {
  for (int guard = 0; guard < 4096 && mlirValueIsAOpResult(v) &&
                      acDefinedIn(v, in); ++guard) {
    MlirValue init = acDpsResultInit(mlirOpResultGetOwner(v),
                                     mlirOpResultGetResultNumber(v), depth);
    if (mlirValueIsNull(init))
      break;
    v = init;
  }
  return v;
}

int acLoopCopiesPassed(MlirOperation loop, MlirValue passed, MlirValue arg,
                       int depth) {
  MlirValue v = passed;
  for (int guard = 0; guard < 256; ++guard) {
    v = acDpsBase(v, loop, depth + 1);
    if (mlirValueEqual(v, arg))
      return 0; /* in place */
    if (!acDefinedIn(v, loop))
      return 1; /* written from outside (an empty cse hoisted, a saved one) */
    if (!mlirValueIsAOpResult(v))
      return 0; /* another argument of the loop: may alias */
    MlirOperation d = mlirOpResultGetOwner(v);
    if (acOpIs(d, "bufferization.materialize_in_destination") &&
        mlirOperationGetNumOperands(d) == 2) {
      v = mlirOperationGetOperand(d, 1); /* the copy made: into its dest */
      continue;
    }
    if (mlirOperationGetNumRegions(d) > 0)
      return 0; /* a branch's or region's result: may be the argument */
    if (!acLayoutIsView(d) || mlirOperationGetNumOperands(d) < 1)
      return 1; /* made in the body */
    v = mlirOperationGetOperand(d, 0);
  }
  return 0;
}

/* Whether loop operand `passed` reaches argument `arg` in place or is
 * copied into it (acLoopCopiesPassed). */
static int acLoopKeepsArg(MlirOperation loop, MlirValue passed, MlirValue arg,
                          int depth) {
  return mlirValueEqual(acDpsBase(passed, loop, depth + 1), arg) ||
         acLoopCopiesPassed(loop, passed, arg, depth);
}

/* The init of result `k` of `op`, or a null value:
 *  - a linalg op with one init, `tensor.insert_slice`, `tensor.insert`;
 *  - `scf.for`: iter_arg k's init, when the body yields (through in-place
 *    writers) that iter_arg itself, as one-shot bufferization requires for
 *    the result to share the init's buffer, or a tensor it made, which
 *    the lowering copies into the iter_arg (acLoopCopiesPassed);
 *  - `scf.while`: init k, when the condition forwards (through in-place
 *    writers) the before region's argument k as result k and the after
 *    region yields its argument k back as operand k (or, for either, a
 *    tensor made in the region: copied);
 *  - `scf.if`: the value both branches yield (through in-place writers) as
 *    result k, when it is defined outside the `scf.if`. */
MlirValue acDpsResultInit(MlirOperation op, intptr_t k, int depth) {
  MlirValue none = {NULL};
  intptr_t at = acLinalgInitOperand(op);
  if (at >= 0)
    return mlirOperationGetOperand(op, at);
  if (acOpIs(op, "tensor.insert_slice") || acOpIs(op, "tensor.insert"))
    return mlirOperationGetNumOperands(op) >= 2 ? mlirOperationGetOperand(op, 1)
                                                : none;
  if (depth >= AC_DPS_DEPTH)
    return none;
  intptr_t nres = mlirOperationGetNumResults(op);
  if (acOpIs(op, "scf.for") && mlirOperationGetNumOperands(op) == 3 + nres &&
      mlirOperationGetNumRegions(op) == 1) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    if (mlirBlockIsNull(body) || mlirBlockGetNumArguments(body) != 1 + nres)
      return none;
    MlirOperation y = mlirBlockGetTerminator(body);
    if (mlirOperationIsNull(y) || mlirOperationGetNumOperands(y) != nres)
      return none;
    return acLoopKeepsArg(op, mlirOperationGetOperand(y, k),
                          mlirBlockGetArgument(body, 1 + k), depth)
               ? mlirOperationGetOperand(op, 3 + k) : none;
  }
  if (acOpIs(op, "scf.while") && mlirOperationGetNumRegions(op) == 2 &&
      mlirOperationGetNumOperands(op) == nres) {
    MlirBlock before = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    MlirBlock after = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
    if (mlirBlockIsNull(before) || mlirBlockIsNull(after) ||
        mlirBlockGetNumArguments(before) != nres ||
        mlirBlockGetNumArguments(after) != nres)
      return none;
    MlirOperation cond = mlirBlockGetTerminator(before);
    MlirOperation y = mlirBlockGetTerminator(after);
    if (mlirOperationIsNull(cond) || mlirOperationIsNull(y) ||
        mlirOperationGetNumOperands(cond) != 1 + nres ||
        mlirOperationGetNumOperands(y) != nres)
      return none;
    return acLoopKeepsArg(op, mlirOperationGetOperand(cond, 1 + k),
                          mlirBlockGetArgument(before, k), depth) &&
                   acLoopKeepsArg(op, mlirOperationGetOperand(y, k),
                                  mlirBlockGetArgument(after, k), depth)
               ? mlirOperationGetOperand(op, k) : none;
  }
  if (acOpIs(op, "scf.if") && mlirOperationGetNumRegions(op) == 2) {
    MlirValue base = none;
    for (intptr_t r = 0; r < 2; ++r) {
      MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
      if (mlirBlockIsNull(blk))
        return none;
      MlirOperation y = mlirBlockGetTerminator(blk);
      if (mlirOperationIsNull(y) || mlirOperationGetNumOperands(y) != nres)
        return none;
      MlirValue b = acDpsBase(mlirOperationGetOperand(y, k), op, depth + 1);
      if (r == 1 && !mlirValueEqual(b, base))
        return none;
      base = b;
    }
    /* Defined outside: not a block argument or a result inside the if. */
    return acDefinedIn(base, op) ? none : base;
  }
  return none;
}

/* Walk callback: whether a nested op reads the value in `user`. */
static MlirWalkResult acReadsValueWalk(MlirOperation op, void *user) {
  MlirValue *v = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (mlirValueEqual(mlirOperationGetOperand(op, i), *v)) {
      v->ptr = NULL;
      return MlirWalkResultInterrupt;
    }
  return MlirWalkResultAdvance;
}

/* Whether `op` reads its init `init` (a direct operand: not an scf.if's
 * captured one) again: as a second direct operand, or captured by an op of
 * a nested region (an scf.for body reading the loop's init itself, not its
 * iter_arg).  Bufferization then copies the init rather than write into it
 * (graph initAlsoRead; lower.h acCopyBeforeWrite does the same). */
int acDpsInitAlsoRead(MlirOperation op, MlirValue init) {
  int direct = 0;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    direct += mlirValueEqual(mlirOperationGetOperand(op, i), init);
  if (direct == 0)
    return 0;  /* scf.if: its init is a capture of its branches */
  if (direct > 1)
    return 1;
  MlirValue v = init;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op) && v.ptr; ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b) && v.ptr; b = mlirBlockGetNextInRegion(b))
      for (MlirOperation no = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(no) && v.ptr; no = mlirOperationGetNextInBlock(no))
        mlirOperationWalk(no, acReadsValueWalk, &v, MlirWalkPreOrder);
  return v.ptr == NULL;
}

/* The operand number of the init of `op`, a destination-style writer
 * (graph dpsInit): the dest of `tensor.insert_slice` and `tensor.insert`,
 * the iter_arg init of a one-result `scf.for` or `scf.while`, -1 for an
 * `scf.if` (its init is captured by its branches), else the last operand
 * (a linalg op's one `outs`). */
intptr_t acDpsInitOperand(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (acStrRefEq(n, "tensor.insert_slice") || acStrRefEq(n, "tensor.insert"))
    return 1;
  if (acStrRefEq(n, "scf.for"))
    return 3;
  if (acStrRefEq(n, "scf.while"))
    return 0;
  if (acStrRefEq(n, "scf.if"))
    return -1; /* a value captured by a branch, not an operand */
  return mlirOperationGetNumOperands(op) - 1;
}
