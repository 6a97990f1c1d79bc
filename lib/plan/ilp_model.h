/* ilp_model.h - the exact planner's model (not installed): the columns,
 * the cost and the memory rows of the MILP over greedy's decisions, in
 * plain C.  ilp_model.c builds the space and the cost and evaluates a plan's
 * columns; ilp_memory.c, above it, builds the memory rows and the whole
 * model (acIlpBuild); ilp_solve.c (the only GLPK user) solves it.
 * docs/optimality.md has the model. */
#ifndef AUTOAC_ILP_MODEL_H
#define AUTOAC_ILP_MODEL_H

#include "plan_internal.h"

typedef struct AcIlpEvent {
  intptr_t pos;   /* from this position on */
  int32_t col;    /* column whose coefficient changes */
  int64_t delta;  /* added to it */
} AcIlpEvent;

/* y >= constant + sum of coef * column over its terms (sense 1), or y <=
 * it (sense -1): the auxiliary columns' definitions, in creation order, so
 * a column's definitions only name earlier columns.  A column bounded from
 * below takes, for a plan, the largest of its bounds (at least 0); one
 * bounded from above the smallest (at most 1). */
typedef struct AcIlpGe {
  int32_t y;
  int32_t constant;
  int32_t sense;
  intptr_t firstTerm, numTerms;  /* into termCol / termCoef */
} AcIlpGe;

/* Columns: d_v for the droppable values [0, numVars), r_p for the forward
 * ops some but not every plan recomputes [numVars, numVars + numOpVars),
 * then auxiliary y columns (a storage kept alive by a late recompute read:
 * y >= r_q for the readers q that reach far enough). */
typedef struct AcIlpModel {
  const AcGraph *g;
  const uint8_t *s0;       /* [numValues] the starting save set */
  intptr_t numVars;
  AcId *vars;              /* [numVars] the droppable values, ascending */
  int32_t *varOf;          /* [numValues] index into vars, or -1 */
  /* cost */
  uint8_t *r0;             /* [numOps] recomputed in the starting plan */
  uint8_t *rmax;           /* [numOps] recomputed with all of D dropped */
  int32_t *opVarOf;        /* [numOps] index of r_p among op columns, or -1 */
  AcId *opVars;            /* [numOpVars] */
  intptr_t numOpVars;
  double *opCost;          /* [numOpVars] seconds x backward instances */
  double baseSeconds;      /* recompute seconds of the starting plan */
  /* memory */
  intptr_t numAux;
  AcIlpGe *ge;
  intptr_t numGe, capGe;
  int32_t *termCol, *termCoef;
  intptr_t numTerms, capTerms;
  uint8_t *auxUpper;       /* [numAux] bounded from above */
  intptr_t capAux;
  intptr_t numPos;         /* forward and backward op steps, all entries */
  int64_t *constDelta;     /* [numPos + 1] difference array of the constant */
  AcIlpEvent *events;
  intptr_t numEvents, capEvents;
} AcIlpModel;


/// Columns of the model: d, r and auxiliary y.
static inline intptr_t acIlpNumCols(const AcIlpModel *m) {
  return m->numVars + m->numOpVars + m->numAux;
}

/// Builds the whole model from the starting save set: the space and cost,
/// then the memory rows (ilp_memory.c; `m` is overwritten; free with
/// acIlpModelFree, also done on failure).
AcStatus acIlpBuild(AcIlpModel *m, const AcGraph *g,
                    const uint8_t *initialSaved, AcError *err);
/// Frees a model's arrays and zeroes it.
void acIlpModelFree(AcIlpModel *m);
/// Column values of a derived plan of the space: d from saved[], r from
/// recompute[], y from their definitions.
void acIlpColumns(const AcIlpModel *m, const AcPlan *plan, double *col);
/// The model's live bytes for column values `col`: the first `cap` steps
/// into `live` (may be NULL), the largest into `*peak`.  0 on allocation
/// failure.
int acIlpEval(const AcIlpModel *m, const double *col, int64_t *live,
              intptr_t cap, int64_t *peak);

/*===-------------------------- building (ilp_model.c) ---------------------===*/
/* ilp_memory.c builds on these; ilp_model.c calls nothing of it. */

/// Builds the model's columns and cost from the starting save set, no
/// memory rows (`m` is overwritten; freed on failure).
AcStatus acIlpBuildSpace(AcIlpModel *m, const AcGraph *g,
                         const uint8_t *initialSaved, AcError *err);

/// Adds y >= (sense 1) or <= (sense -1) constant + sum(coef[i] * col[i]).
/// 0 on allocation failure.
int acIlpPushBound(AcIlpModel *m, int32_t y, int32_t sense, int32_t constant,
                   const int32_t *col, const int32_t *coef, int32_t n);
/// acIlpPushBound with sense 1.
int acIlpPushGe(AcIlpModel *m, int32_t y, int32_t constant, const int32_t *col,
                const int32_t *coef, int32_t n);
/// A new auxiliary column (bounded from above if `upper`); -1 on allocation
/// failure.
int32_t acIlpNewAux(AcIlpModel *m, int upper);
/// Adds `bytes` on positions [lo, hi]: to the constant (col < 0) or to the
/// coefficient of column col.  0 on allocation failure.
int acIlpAdd(AcIlpModel *m, intptr_t lo, intptr_t hi, int32_t col,
             int64_t bytes);
/// qsort order of events: by position, then column.
int acIlpCompareEvents(const void *a, const void *b);
/// Builds the memory rows of a model whose space and cost are built
/// (ilp_memory.c).
AcStatus acIlpBuildMemory(AcIlpModel *m, AcError *err);

#endif
