/* cost_internal.h - private to lib/cost and its unit test. */
#ifndef AUTOAC_COST_INTERNAL_H
#define AUTOAC_COST_INTERNAL_H

/// Returns the number of op-table entries if the table is sorted (strcmp
/// order) without duplicates, or -(index) of the first entry out of order.
long acCostTableSelfCheck(void);

#endif
