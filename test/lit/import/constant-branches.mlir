// Branches decided at compile time are folded before planning, as the
// lowering's canonicalization folds them (docs/fidelity.md, cause 8): the
// planner counts what the compiled program allocates, not the larger of
// two branches.  Branches decided at run time stay.
// RUN: ac-opt %s --ac-strategy=mincut 2>/dev/null | FileCheck %s

// An i1 constant: the then branch.
// CHECK-LABEL: func.func @const_true_fwd(
// CHECK-NOT: scf.if
// CHECK: math.tanh
// CHECK-NOT: math.exp
// CHECK: return
func.func @const_true(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent}) -> (tensor<4xf32> {ac.output}, tensor<4xf32> {ac.grad}) attributes {ac.joint} {
  %t = arith.constant true
  %r = scf.if %t -> tensor<4xf32> {
    %a = math.tanh %x : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    %b = math.exp %x : tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  }
  %g = arith.mulf %dy, %r : tensor<4xf32>
  return %r, %g : tensor<4xf32>, tensor<4xf32>
}


// arith.cmpi on i8 constants: -1 is 255 unsigned (ult 1: false, the else
// branch) and -1 signed (slt 1: true, the then branch).
// CHECK-LABEL: func.func @cmpi_widths_fwd(
// CHECK-NOT: scf.if
// CHECK-DAG: math.exp
// CHECK-DAG: math.sin
// CHECK-NOT: math.tanh
// CHECK-NOT: math.cos
// CHECK: return
func.func @cmpi_widths(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent}) -> (tensor<4xf32> {ac.output}, tensor<4xf32> {ac.grad}) attributes {ac.joint} {
  %m1 = arith.constant -1 : i8
  %one = arith.constant 1 : i8
  %u = arith.cmpi ult, %m1, %one : i8
  %s = arith.cmpi slt, %m1, %one : i8
  %r = scf.if %u -> tensor<4xf32> {
    %a = math.tanh %x : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    %b = math.exp %x : tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  }
  %q = scf.if %s -> tensor<4xf32> {
    %a = math.sin %r : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    %b = math.cos %r : tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  }
  %g = arith.mulf %dy, %q : tensor<4xf32>
  return %q, %g : tensor<4xf32>, tensor<4xf32>
}


// scf.index_switch on a constant: the matching case, else the default.
// CHECK-LABEL: func.func @switch_fwd(
// CHECK-NOT: scf.index_switch
// CHECK-DAG: math.sin
// CHECK-DAG: math.tanh
// CHECK-NOT: math.exp
// CHECK-NOT: math.cos
// CHECK: return
func.func @switch(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent}) -> (tensor<4xf32> {ac.output}, tensor<4xf32> {ac.grad}) attributes {ac.joint} {
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %r = scf.index_switch %c2 -> tensor<4xf32>
  case 1 {
    %a = math.exp %x : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  case 2 {
    %a = math.sin %x : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  default {
    %a = math.cos %x : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  %q = scf.index_switch %c7 -> tensor<4xf32>
  case 1 {
    %a = math.exp %r : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  default {
    %a = math.tanh %r : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  %g = arith.mulf %dy, %q : tensor<4xf32>
  return %q, %g : tensor<4xf32>, tensor<4xf32>
}


// Nested: constant ifs inside the taken branch fold too; those inside the
// branch not taken go with it.  A condition known only at run time stays.
// CHECK-LABEL: func.func @nested_fwd(
// CHECK: tensor.extract
// CHECK: arith.cmpf
// CHECK: scf.if
// CHECK-NOT: scf.if
// CHECK-NOT: math.exp
// CHECK-NOT: math.cos
// CHECK: return
func.func @nested(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent}) -> (tensor<4xf32> {ac.output}, tensor<4xf32> {ac.grad}) attributes {ac.joint} {
  %t = arith.constant true
  %f = arith.constant false
  %r = scf.if %t -> tensor<4xf32> {
    %in = scf.if %f -> tensor<4xf32> {
      %a = math.exp %x : tensor<4xf32>
      scf.yield %a : tensor<4xf32>
    } else {
      %c0 = arith.constant 0 : index
      %e = tensor.extract %x[%c0] : tensor<4xf32>
      %z = arith.constant 0.0 : f32
      %d = arith.cmpf ogt, %e, %z : f32
      %dyn = scf.if %d -> tensor<4xf32> {
        %a = math.sin %x : tensor<4xf32>
        scf.yield %a : tensor<4xf32>
      } else {
        %a = math.tanh %x : tensor<4xf32>
        scf.yield %a : tensor<4xf32>
      }
      scf.yield %dyn : tensor<4xf32>
    }
    scf.yield %in : tensor<4xf32>
  } else {
    %b = scf.if %t -> tensor<4xf32> {
      %a = math.cos %x : tensor<4xf32>
      scf.yield %a : tensor<4xf32>
    } else {
      scf.yield %x : tensor<4xf32>
    }
    scf.yield %b : tensor<4xf32>
  }
  %g = arith.mulf %dy, %r : tensor<4xf32>
  return %r, %g : tensor<4xf32>, tensor<4xf32>
}

// A condition known only at run time whose branches both yield the same
// value defined before the if: the result is that value (canonicalization
// replaces it; bufferization gives it that value's buffer), so the if goes
// and nothing is counted as a write into the value's storage.  An if whose
// branches differ stays.
// CHECK-LABEL: func.func @same_yield_fwd(
// CHECK:       %[[A:.*]] = math.tanh
// CHECK:       %[[C:.*]] = arith.cmpf
// CHECK-NOT:   scf.yield %[[A]]
// CHECK:       scf.if %[[C]]
// CHECK:       math.sin
// CHECK:       math.cos
// CHECK:       return
func.func @same_yield(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent}) -> (tensor<4xf32> {ac.output}, tensor<4xf32> {ac.grad}) attributes {ac.joint} {
  %a = math.tanh %x : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %e = tensor.extract %x[%c0] : tensor<4xf32>
  %z = arith.constant 0.0 : f32
  %d = arith.cmpf ogt, %e, %z : f32
  %same = scf.if %d -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  %diff = scf.if %d -> tensor<4xf32> {
    %s = math.sin %same : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    %c = math.cos %same : tensor<4xf32>
    scf.yield %c : tensor<4xf32>
  }
  %g = arith.mulf %dy, %diff : tensor<4xf32>
  %r = arith.addf %diff, %a : tensor<4xf32>
  return %r, %g : tensor<4xf32>, tensor<4xf32>
}
