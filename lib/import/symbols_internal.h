/*===- import/symbols_internal.h - what symbols.c and its rules share -*- C -*-===*
 *
 * The union-find over dimension nodes (symbols.c) and the shape rules that
 * unite them (symbol_rules.c).  Internal to lib/import.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_SYMBOLS_INTERNAL_H
#define AUTOAC_IMPORT_SYMBOLS_INTERNAL_H

#include "import/symbols.h"
#include "support/ptrmap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct AcDimNode {
  int32_t parent;
  int32_t rank;      /* rank of the value the node belongs to (scalar: 0) */
  int64_t konst;     /* the class's static size, or -1 */
  int64_t bound;     /* least bound given to a member, or -1 */
  int32_t arg, dim;  /* least argument dimension in the class (arg -1: none) */
  int32_t sym;       /* root: its symbol, or -1 */
  uint8_t dyn;       /* a dynamic dimension of its value's type */
} AcDimNode;

typedef struct AcMaxEntry {
  char *func;        /* NULL: any function */
  int32_t arg, dim;  /* arg -1: the entry for every dimension */
  int64_t n;
  int used;
} AcMaxEntry;

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

static inline MlirStringRef acSymStr(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

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
/// Applies the shape rules of one top-level op (symbol_rules.c); its
/// results have their nodes already.
void acSymRuleOp(AcSymbols *s, MlirOperation op);

#ifdef __cplusplus
}
#endif
#endif
