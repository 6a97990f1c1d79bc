// Shape of the split output (docs/rewrite.md, contract section 3), one small
// case per part.  Each part holds its own checks: SAVE for
// --ac-strategy=save-all, CUT for --ac-strategy=mincut.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: ac-opt %t/basic.mlir --ac-mode=split --ac-strategy=save-all | FileCheck %t/basic.mlir --check-prefix=SAVE
// RUN: ac-opt %t/basic.mlir --ac-mode=split --ac-strategy=mincut | FileCheck %t/basic.mlir --check-prefix=CUT
// RUN: ac-opt %t/results.mlir --ac-mode=split --ac-strategy=save-all | FileCheck %t/results.mlir --check-prefix=SAVE
// RUN: ac-opt %t/results.mlir --ac-mode=split --ac-strategy=mincut | FileCheck %t/results.mlir --check-prefix=CUT
// RUN: ac-opt %t/groups.mlir --ac-mode=split --ac-strategy=mincut | FileCheck %t/groups.mlir --check-prefix=CUT
// RUN: ac-opt %t/capture.mlir --ac-mode=split --ac-strategy=mincut | FileCheck %t/capture.mlir --check-prefix=CUT
// RUN: ac-opt %t/two.mlir --ac-mode=split --ac-strategy=mincut | FileCheck %t/two.mlir --check-prefix=CUT
// RUN: ac-opt %t/private.mlir --ac-mode=split --ac-strategy=save-all | FileCheck %t/private.mlir --check-prefix=SAVE
// RUN: ac-opt %t/operands.mlir --ac-mode=split --ac-strategy=mincut | FileCheck %t/operands.mlir --check-prefix=CUT

//--- basic.mlir
// @f keeps its signature and attributes (ac.joint dropped) and calls the two
// halves (no_inline: see cse.mlir); the new functions follow @f; other
// functions are untouched.

// SAVE-LABEL: func.func @f(
// SAVE-SAME:      %[[X:[^:]*]]: tensor<4xf32>, %[[W:[^:]*]]: tensor<4xf32> {ac.param}, %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent})
// SAVE-SAME:      -> (tensor<4xf32> {ac.output}, tensor<4xf32> {ac.grad})
// SAVE-SAME:      attributes {keep.me = 1 : i32} {
// SAVE-NEXT:    %[[F:.*]]:2 = call @f_fwd(%[[X]], %[[W]]) {no_inline}
// SAVE-NEXT:    %[[B:.*]] = call @f_bwd(%[[F]]#1, %[[DY]]) {no_inline}
// SAVE-NEXT:    return %[[F]]#0, %[[B]]
// SAVE-NEXT:  }
// SAVE-LABEL: func.func @f_fwd(
// SAVE-SAME:      %[[X:[^:]*]]: tensor<4xf32>, %[[W:[^:]*]]: tensor<4xf32> {ac.param})
// SAVE-SAME:      -> (tensor<4xf32> {ac.output}, tensor<4xf32>)
// SAVE-SAME:      attributes {ac.fwd_of = "f"}
// SAVE-NEXT:    %[[A:.*]] = math.exp %[[X]]
// SAVE-NEXT:    %[[Y:.*]] = arith.mulf %[[A]], %[[W]]
// SAVE-NEXT:    return %[[Y]], %[[A]]
// @f_bwd owns the saved activation (ac.owned: it frees it after its last
// use once bufferized, docs/contract.md section 3).
// SAVE-LABEL: func.func @f_bwd(
// SAVE-SAME:      %[[A:[^:]*]]: tensor<4xf32> {ac.owned}, %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent})
// SAVE-SAME:      -> (tensor<4xf32> {ac.grad})
// SAVE-SAME:      attributes {ac.bwd_of = "f"}
// SAVE-NEXT:    %[[DW:.*]] = arith.mulf %[[DY]], %[[A]]
// SAVE-NEXT:    return %[[DW]]
// SAVE-LABEL: func.func @other(
// SAVE-NOT:     ac.joint

// min-cut recomputes exp(x) from the primal input: @f_bwd takes x instead.
// CUT-LABEL: func.func @f(
// CUT-SAME:      %[[X:[^:]*]]: tensor<4xf32>, %[[W:[^:]*]]: tensor<4xf32> {ac.param}, %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent})
// CUT-NEXT:    %[[Y:.*]] = call @f_fwd(%[[X]], %[[W]]) {no_inline} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CUT-NEXT:    %[[DW:.*]] = call @f_bwd(%[[DY]], %[[X]]) {no_inline}
// CUT-NEXT:    return %[[Y]], %[[DW]]
// CUT-LABEL: func.func @f_fwd(
// CUT-SAME:      -> (tensor<4xf32> {ac.output})
// CUT:           math.exp
// CUT:           arith.mulf
// CUT-LABEL: func.func @f_bwd(
// CUT-SAME:      %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent}, %[[X:[^:]*]]: tensor<4xf32>)
// CUT-NEXT:    %[[R:.*]] = scf.execute_region -> tensor<4xf32> {
// CUT-NEXT:      %[[A:.*]] = math.exp %[[X]]
// CUT-NEXT:      scf.yield %[[A]]
// CUT-NEXT:    } {ac.recompute}
// CUT-NEXT:    %[[DW:.*]] = arith.mulf %[[DY]], %[[R]]
// CUT-NEXT:    return %[[DW]]
// CUT-LABEL: func.func @other(
module {
  func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32> {ac.param},
               %dy: tensor<4xf32> {ac.tangent})
      -> (tensor<4xf32> {ac.output}, tensor<4xf32> {ac.grad})
      attributes {ac.joint, keep.me = 1 : i32} {
    %a = math.exp %x : tensor<4xf32>
    %y = arith.mulf %a, %w : tensor<4xf32>
    %dw = arith.mulf %dy, %a : tensor<4xf32>
    return %y, %dw : tensor<4xf32>, tensor<4xf32>
  }
  func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

//--- results.mlir
// Where each result of @g comes from: a gradient from @g_bwd; the output and
// a forward value returned unmarked from @g_fwd; a tangent and a primal input
// returned as they are straight from @g's arguments.  @g_fwd returns the
// forward results, then the saved values (a value may be both).  A saved
// value @g_fwd also returns as a result stays @g's (no ac.owned): @g_bwd
// must not free what @g returns.

// SAVE-LABEL: func.func @g(
// SAVE-SAME:      %[[X:[^:]*]]: tensor<4xf32>, %[[W:[^:]*]]: tensor<4xf32> {ac.param}, %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent})
// SAVE-NEXT:    %[[F:.*]]:4 = call @g_fwd(%[[X]], %[[W]])
// SAVE-NEXT:    %[[B:.*]] = call @g_bwd(%[[F]]#2, %[[F]]#3, %[[DY]])
// SAVE-NEXT:    return %[[B]], %[[F]]#0, %[[F]]#1, %[[DY]], %[[X]]
// SAVE-LABEL: func.func @g_fwd(
// SAVE-SAME:      -> (tensor<4xf32> {ac.output}, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// SAVE-NEXT:    %[[A:.*]] = math.exp
// SAVE-NEXT:    %[[Y:.*]] = arith.mulf %[[A]]
// SAVE-NEXT:    return %[[Y]], %[[A]], %[[A]], %[[Y]]
// SAVE-LABEL: func.func @g_bwd(
// SAVE-SAME:      %[[A:[^:]*]]: tensor<4xf32>, %[[Y:[^:]*]]: tensor<4xf32>, %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent})
// SAVE-NEXT:    %[[T:.*]] = arith.mulf %[[DY]], %[[Y]]
// SAVE-NEXT:    %[[DW:.*]] = arith.mulf %[[T]], %[[A]]
// SAVE-NEXT:    return %[[DW]]

// With nothing saved, @g_bwd reads the primal input and the parameter it
// needs to rebuild a and y, after the tangent.
// CUT-LABEL: func.func @g(
// CUT-SAME:      %[[X:[^:]*]]: tensor<4xf32>, %[[W:[^:]*]]: tensor<4xf32> {ac.param}, %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent})
// CUT-NEXT:    %[[F:.*]]:2 = call @g_fwd(%[[X]], %[[W]])
// CUT-NEXT:    %[[B:.*]] = call @g_bwd(%[[DY]], %[[X]], %[[W]])
// CUT-NEXT:    return %[[B]], %[[F]]#0, %[[F]]#1, %[[DY]], %[[X]]
// CUT-LABEL: func.func @g_bwd(
// CUT-SAME:      %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent}, %[[X:[^:]*]]: tensor<4xf32>, %[[W:[^:]*]]: tensor<4xf32> {ac.param})
// CUT-NEXT:    %[[R:.*]]:2 = scf.execute_region -> (tensor<4xf32>, tensor<4xf32>) {
// CUT-NEXT:      %[[A:.*]] = math.exp %[[X]]
// CUT-NEXT:      %[[Y:.*]] = arith.mulf %[[A]], %[[W]]
// CUT-NEXT:      scf.yield %[[A]], %[[Y]]
// CUT-NEXT:    } {ac.recompute}
// CUT-NEXT:    %[[T:.*]] = arith.mulf %[[DY]], %[[R]]#1
// CUT-NEXT:    %[[DW:.*]] = arith.mulf %[[T]], %[[R]]#0
// CUT-NEXT:    return %[[DW]]
module {
  func.func @g(%x: tensor<4xf32>, %w: tensor<4xf32> {ac.param},
               %dy: tensor<4xf32> {ac.tangent})
      -> (tensor<4xf32> {ac.grad}, tensor<4xf32> {ac.output}, tensor<4xf32>,
          tensor<4xf32> {ac.grad}, tensor<4xf32> {ac.grad})
      attributes {ac.joint} {
    %a = math.exp %x : tensor<4xf32>
    %y = arith.mulf %a, %w : tensor<4xf32>
    %t = arith.mulf %dy, %y : tensor<4xf32>
    %dw = arith.mulf %t, %a : tensor<4xf32>
    return %dw, %y, %a, %dy, %x
        : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

//--- groups.mlir
// One region per backward op that first needs recomputed values, right
// before it; a later region reads what an earlier one yields; values only a
// region itself needs are not yielded.

// CUT-LABEL: func.func @h_bwd(
// CUT-SAME:      %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent}, %[[X:[^:]*]]: tensor<4xf32>)
// CUT-NEXT:    %[[A:.*]] = scf.execute_region -> tensor<4xf32> {
// CUT-NEXT:      %[[E:.*]] = math.exp %[[X]]
// CUT-NEXT:      scf.yield %[[E]]
// CUT-NEXT:    } {ac.recompute}
// CUT-NEXT:    %[[G1:.*]] = arith.mulf %[[DY]], %[[A]]
// CUT-NEXT:    %[[BC:.*]]:2 = scf.execute_region -> (tensor<4xf32>, tensor<4xf32>) {
// CUT-NEXT:      %[[B:.*]] = math.tanh %[[A]]
// CUT-NEXT:      %[[C:.*]] = math.sin %[[B]]
// CUT-NEXT:      scf.yield %[[B]], %[[C]]
// CUT-NEXT:    } {ac.recompute}
// CUT-NEXT:    %[[G2:.*]] = arith.mulf %[[G1]], %[[BC]]#1
// CUT-NEXT:    %[[G3:.*]] = arith.mulf %[[G2]], %[[BC]]#0
// CUT-NEXT:    return %[[G3]]
// CUT-NOT:     math.cos
module {
  func.func @h(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent})
      -> (tensor<4xf32> {ac.output}, tensor<4xf32>) attributes {ac.joint} {
    %a = math.exp %x : tensor<4xf32>
    %b = math.tanh %a : tensor<4xf32>
    %c = math.sin %b : tensor<4xf32>
    %y = math.cos %c : tensor<4xf32>
    %g1 = arith.mulf %dy, %a : tensor<4xf32>
    %g2 = arith.mulf %g1, %c : tensor<4xf32>
    %g3 = arith.mulf %g2, %b : tensor<4xf32>
    return %y, %g3 : tensor<4xf32>, tensor<4xf32>
  }
}

//--- capture.mlir
// A recomputed op whose region reads a value of the function body (the
// constant in the linalg.generic body): the constant is cloned too, in
// front of the recompute region (constants are never inside one: some
// users need them in sight, tosa.reshape's shape among them), and the
// clone's body reads the new one.

// CUT-LABEL: func.func @k_bwd(
// CUT-SAME:      %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent}, %[[X:[^:]*]]: tensor<4xf32>)
// CUT-NEXT:    %[[S:.*]] = arith.constant 3.0
// CUT-NEXT:    %[[R:.*]] = scf.execute_region -> tensor<4xf32> {
// CUT-NEXT:      %[[E:.*]] = tensor.empty()
// CUT-NEXT:      %[[A:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CUT-NEXT:      ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CUT-NEXT:        %[[M:.*]] = arith.mulf %[[V]], %[[S]] : f32
// CUT-NEXT:        linalg.yield %[[M]]
// CUT-NEXT:      } -> tensor<4xf32>
// CUT-NEXT:      scf.yield %[[A]]
// CUT-NEXT:    } {ac.recompute}
// CUT-NEXT:    arith.mulf %[[DY]], %[[R]]
#id = affine_map<(i) -> (i)>
module {
  func.func @k(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent})
      -> (tensor<4xf32> {ac.output}, tensor<4xf32>) attributes {ac.joint} {
    %s = arith.constant 3.0 : f32
    %e = tensor.empty() : tensor<4xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.mulf %v, %s : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    %y = math.exp %a : tensor<4xf32>
    %g = arith.mulf %dy, %a : tensor<4xf32>
    return %y, %g : tensor<4xf32>, tensor<4xf32>
  }
}

//--- two.mlir
// Two joint functions: each gets its halves right after it.  A name already
// taken (@p_fwd) is made unique and the call follows the new name.

// CUT-LABEL: func.func @p(
// CUT:         call @[[PF:p_fwd_[0-9]+]](
// CUT:         call @p_bwd(
// CUT:       func.func @[[PF]](
// CUT-SAME:      attributes {ac.fwd_of = "p"}
// CUT:       func.func @p_bwd(
// CUT-SAME:      attributes {ac.bwd_of = "p"}
// CUT:       func.func @between()
// CUT-LABEL: func.func @q(
// CUT:         call @q_fwd(
// CUT:         call @q_bwd(
// CUT:       func.func @q_fwd(
// CUT:       func.func @q_bwd(
// CUT:         scf.execute_region
// CUT:           math.tanh
// CUT:       func.func @p_fwd() {
// CUT-NEXT:    return
module {
  func.func @p(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent})
      -> (tensor<4xf32> {ac.output}, tensor<4xf32>) attributes {ac.joint} {
    %a = math.exp %x : tensor<4xf32>
    %g = arith.mulf %dy, %a : tensor<4xf32>
    return %a, %g : tensor<4xf32>, tensor<4xf32>
  }
  func.func @between() { return }
  func.func @q(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent})
      -> (tensor<4xf32> {ac.output}, tensor<4xf32>) attributes {ac.joint} {
    %a = math.tanh %x : tensor<4xf32>
    %b = math.exp %a : tensor<4xf32>
    %g = arith.mulf %dy, %a : tensor<4xf32>
    return %b, %g : tensor<4xf32>, tensor<4xf32>
  }
  func.func @p_fwd() { return }
}

//--- private.mlir
// The halves are as visible as @f.
// SAVE: func.func private @f(
// SAVE: func.func private @f_fwd(
// SAVE: func.func private @f_bwd(
module {
  func.func private @f(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent})
      -> (tensor<4xf32> {ac.output}, tensor<4xf32>) attributes {ac.joint} {
    %a = math.exp %x : tensor<4xf32>
    %g = arith.mulf %dy, %a : tensor<4xf32>
    return %a, %g : tensor<4xf32>, tensor<4xf32>
  }
}

//--- operands.mlir
// Operands that change place: an op reading an argument twice (in @r_fwd
// and, recomputed, in @r_bwd), an op of many operands reading saved values
// and arguments several times each.  The input markers (ac.save, also
// false, and ac.phase) are dropped from the ops the halves hold; other
// attributes stay.  @r_bwd reads %x and %w too, so @r_fwd may not write
// into them in place (bufferization.writable = false: a write copies inside
// @r_fwd, where the planner counts it, not in the caller).

// CUT-LABEL: func.func @r_fwd(
// CUT-SAME:      %[[X:[^:]*]]: tensor<4xf32> {bufferization.writable = false}, %[[W:[^:]*]]: tensor<4xf32> {ac.param, bufferization.writable = false})
// CUT-NEXT:    %[[A:.*]] = arith.mulf %[[X]], %[[X]] {keep = 1 : i32} : tensor<4xf32>
// CUT-NEXT:    %[[C:.*]] = arith.addf %[[W]], %[[W]] : tensor<4xf32>
// CUT-NEXT:    %[[Y:.*]] = arith.mulf %[[A]], %[[C]] : tensor<4xf32>
// CUT-NEXT:    return %[[Y]], %[[A]]
// CUT-LABEL: func.func @r_bwd(
// CUT-SAME:      %[[A:[^:]*]]: tensor<4xf32> {ac.owned}, %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent}, %[[X:[^:]*]]: tensor<4xf32>, %[[W:[^:]*]]: tensor<4xf32> {ac.param})
// CUT-NEXT:    %[[R:.*]] = scf.execute_region -> tensor<4xf32> {
// CUT-NEXT:      %[[C:.*]] = arith.addf %[[W]], %[[W]] : tensor<4xf32>
// CUT-NEXT:      scf.yield %[[C]]
// CUT-NEXT:    } {ac.recompute}
// CUT-NEXT:    %[[G:.*]] = "test.many"(%[[DY]], %[[A]], %[[X]], %[[DY]], %[[A]], %[[X]], %[[R]], %[[A]], %[[DY]], %[[X]]) {keep = 2 : i32}
// CUT-NEXT:    %[[H:.*]] = arith.mulf %[[G]], %[[G]]
// CUT-NEXT:    return %[[H]]
// CUT-NOT:     ac.save
// CUT-NOT:     ac.phase
module {
  func.func @r(%x: tensor<4xf32>, %w: tensor<4xf32> {ac.param},
               %dy: tensor<4xf32> {ac.tangent})
      -> (tensor<4xf32> {ac.output}, tensor<4xf32>) attributes {ac.joint} {
    %a = arith.mulf %x, %x {ac.save, keep = 1 : i32} : tensor<4xf32>
    %c = arith.addf %w, %w {ac.save = false} : tensor<4xf32>
    %y = arith.mulf %a, %c {ac.phase = "fwd"} : tensor<4xf32>
    %g = "test.many"(%dy, %a, %x, %dy, %a, %x, %c, %a, %dy, %x)
        {ac.phase = "bwd", keep = 2 : i32}
        : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
           tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
        -> tensor<4xf32>
    %h = arith.mulf %g, %g : tensor<4xf32>
    return %y, %h : tensor<4xf32>, tensor<4xf32>
  }
}
