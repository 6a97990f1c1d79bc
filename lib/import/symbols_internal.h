/*===- import/symbols_internal.h - the symbols stage's own layers -*- C -*-===*
 *
 * The symbols stage (import/symbols.h) in three layers, each calling only
 * those below it: symbol_nodes.c, the dimension nodes of values and their
 * union-find; symbol_rules.c, the ops' shape rules uniting nodes;
 * symbols.c, the analysis of a function (nodes for every value, the rules
 * op by op, bounds and symbols of the classes) and the public API.
 * Invariant: nodes are only ever united when their sizes are equal at run
 * time, so a class never mixes two sizes.  Internal to lib/import.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_SYMBOLS_INTERNAL_H
#define AUTOAC_IMPORT_SYMBOLS_INTERNAL_H

#include "import/symbols.h"
#include "support/ptrmap.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One dimension of a value (or a size-carrying scalar): a union-find node.
typedef struct AcDimNode {
  int32_t parent;
  int32_t rank;      /* rank of the value the node belongs to (scalar: 0) */
  int64_t konst;     /* the class's static size, or -1 */
  int64_t bound;     /* least bound given to a member, or -1 */
  int32_t arg, dim;  /* least argument dimension in the class (arg -1: none) */
  int32_t sym;       /* root: its symbol, or -1 */
  uint8_t dyn;       /* a dynamic dimension of its value's type */
} AcDimNode;

/// One entry of the option max-dim (`N`, `argI.D=N`, `FUNC:argI.D=N`).
typedef struct AcMaxEntry {
  char *func;        /* NULL: any function */
  int32_t arg, dim;  /* arg -1: the entry for every dimension */
  int64_t n;
  int used;
} AcMaxEntry;

/// The symbols of one import (import/symbols.h): nodes, option, symbols.
struct AcSymbols {
  AcDimNode *nodes;
  intptr_t numNodes, capNodes;
  AcPtrMap base;     /* MlirValue.ptr -> its first node */
  AcPtrMap done;     /* analysed func ops */
  AcMaxEntry *entries;
  intptr_t numEntries;
  int64_t global;    /* the option's N, or -1 */
  intptr_t numJoint;
  char **names;
  char **args;       /* per symbol: its argument dimensions, "arg0.0,arg3.0" */
  int64_t *bounds;
  intptr_t numSyms, capSyms;
};

/// The MlirStringRef of `s` (acStr of import/ir.h, kept for the rules).
static inline MlirStringRef acSymStr(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

/*===------------------------ nodes (symbol_nodes.c) ----------------------===*/

/// The shape of type `t`: its rank (dims into `dims`, AC_DIM_DYNAMIC for a
/// dynamic one), 0 with *scalar set for a scalar that may carry a size, -1
/// for anything else.  *elemBytes: bytes per element.
int acSymTypeShape(MlirType t, int64_t *dims, int32_t *elemBytes, int *scalar);
/// Gives value v its nodes (none for types acSymTypeShape does not shape).
/// AC_OK or AC_ERR_NOMEM.
AcStatus acSymAddValue(AcSymbols *s, MlirValue v);
/// The class (root node) of node x, without compressing the path.
int32_t acSymFindConst(const AcSymbols *s, int32_t x);
/// The class (root node) of node x, compressing the path.
int32_t acSymFind(AcSymbols *s, int32_t x);
/// Unites the classes of nodes a and b (either -1: nothing).
void acSymUnite(AcSymbols *s, int32_t a, int32_t b);
/// The node of dimension k of value v (a scalar: k 0), or -1.
int32_t acSymNode(const AcSymbols *s, MlirValue v, int64_t k);
/// The rank of v's nodes (a scalar: 0), or -1 when v has none.
int32_t acSymRank(const AcSymbols *s, MlirValue v);
/// Whether v is a scalar that may carry a size (index, integer, !torch.int).
int acSymIsScalar(const AcSymbols *s, MlirValue v);
/// 1 with the value in *k when v is made by an integer constant op.
int acSymLiteral(MlirValue v, int64_t *k);
/// The constant an integer value holds, or -1 (unknown or negative).
int64_t acSymConstOf(AcSymbols *s, MlirValue v);
/// Unites v's dims with w's, dimension by dimension (same rank).
void acSymUniteShapes(AcSymbols *s, MlirValue v, MlirValue w);

/*===------------------------ rules (symbol_rules.c) ----------------------===*/

/// Applies the shape rules of one top-level op (its results have their
/// nodes already): unites the nodes the rules say are equal.
void acSymRuleOp(AcSymbols *s, MlirOperation op);

#ifdef __cplusplus
}
#endif
#endif
