// auto-ac-copy-before-write (lib/lower/writecopy.c), the step of
// auto-ac-lower-cpu/gpu before one-shot-bufferize: a destination-style write
// whose init's storage (the base of its view chain, through recompute
// regions) is read after it writes into a fresh copy made right before it,
// which is where the planner counts the copy (simulate.c, acSimInPlace).
// Bufferization then has no conflict left to place a copy of its own
// (difftest seed 30309).  Shared inits after `cse` get one copy per writer
// first, as the import gives them.  Writes inside loops and ifs are left
// alone, except that an scf.if whose branches write into one value made
// before it is a writer of that value, as the import counts it, and that
// an scf.if or index_switch result the planner counts as a new buffer is
// one, made before the op.  A second run changes nothing.
//
// RUN: ac-opt %s --pass-pipeline='builtin.module(auto-ac-copy-before-write)' | FileCheck %s
// RUN: ac-opt %s --pass-pipeline='builtin.module(auto-ac-copy-before-write,auto-ac-copy-before-write)' | FileCheck %s
// RUN: %if plugin %{ mlir-opt %s --load-pass-plugin=%plugin -split-input-file --pass-pipeline='builtin.module(auto-ac-copy-before-write)' | FileCheck %s %}

// The insert writes into a view of %y, and %y is read after it: the copy
// (16x32xf32, 2048 B) is made at the insert, not up the view chain.
// CHECK-LABEL: func.func @insert_into_view_read_later
// CHECK-SAME:    %[[X:[^:]*]]: tensor<16x32xf32>, %[[Y:[^:]*]]: tensor<32x16xf32>
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[Y]]
// CHECK-NEXT:    %[[V:.*]] = tensor.expand_shape %[[C]]
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<16x32xf32>
// CHECK-NEXT:    %[[M:.*]] = bufferization.materialize_in_destination %[[V]] in %[[E]]
// CHECK-NEXT:    %[[I:.*]] = tensor.insert_slice %[[X]] into %[[M]]
// CHECK:         linalg.add ins(%[[Y]], %[[Y]]
func.func @insert_into_view_read_later(%x: tensor<16x32xf32>, %y: tensor<32x16xf32>) -> (tensor<16x32xf32>, tensor<32x16xf32>) {
  %c = tensor.collapse_shape %y [[0, 1]] : tensor<32x16xf32> into tensor<512xf32>
  %v = tensor.expand_shape %c [[0, 1]] output_shape [16, 32] : tensor<512xf32> into tensor<16x32xf32>
  %i = tensor.insert_slice %x into %v[0, 0] [16, 32] [1, 1] : tensor<16x32xf32> into tensor<16x32xf32>
  %e = tensor.empty() : tensor<32x16xf32>
  %r = linalg.add ins(%y, %y : tensor<32x16xf32>, tensor<32x16xf32>) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %i, %r : tensor<16x32xf32>, tensor<32x16xf32>
}

// -----

// Nothing reads %t after the insert: it writes in place, no copy.
// CHECK-LABEL: func.func @insert_last_read
// CHECK-NOT:     materialize_in_destination
// CHECK-NOT:     tensor.empty
// CHECK:         tensor.insert_slice
func.func @insert_last_read(%x: tensor<4xf32>, %t: tensor<8xf32>) -> tensor<8xf32> {
  %i = tensor.insert_slice %x into %t[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %i : tensor<8xf32>
}

// -----

// The payload never reads its init (%a is read later by the add): a fresh
// tensor.empty, no copy of the contents.
// CHECK-LABEL: func.func @outs_not_read
// CHECK:         %[[A:.*]] = linalg.exp
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:    %[[B:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<8xf32>)
// CHECK-NOT:     materialize_in_destination
// CHECK:         linalg.add ins(%[[A]], %[[B]]
func.func @outs_not_read(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.exp ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %s = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// A shared zero-filled init after cse: every writer gets its own fill of its
// own empty right before it, the shared one is erased; then nothing is
// read after a write, so there is no copy.
// CHECK-LABEL: func.func @shared_fill
// CHECK-NOT:     materialize_in_destination
// CHECK:         %[[E1:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT:    %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]]
// CHECK-NEXT:    linalg.matmul ins({{.*}}) outs(%[[F1]]
// CHECK-NEXT:    %[[E2:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT:    %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2]]
// CHECK-NEXT:    linalg.matmul ins({{.*}}) outs(%[[F2]]
// CHECK-NOT:     linalg.fill
// CHECK:         return
func.func @shared_fill(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul ins(%b, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m1, %m2 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Recompute regions: the insert in the second region writes into a view of
// the first region's result, which the mul after it reads: the copy is made
// in the second region, at the insert.
// CHECK-LABEL: func.func @across_regions
// CHECK:         %[[R:.*]] = scf.execute_region
// CHECK:         scf.execute_region
// CHECK:           %[[V:.*]] = tensor.collapse_shape %[[R]]
// CHECK-NEXT:      %[[E:.*]] = tensor.empty() : tensor<16xf32>
// CHECK-NEXT:      %[[M:.*]] = bufferization.materialize_in_destination %[[V]] in %[[E]]
// CHECK-NEXT:      tensor.insert_slice %{{.*}} into %[[M]]
// CHECK:         linalg.mul ins(%[[R]], %[[R]]
func.func @across_regions(%x: tensor<4x4xf32>, %s: tensor<4xf32>) -> (tensor<16xf32>, tensor<4x4xf32>) {
  %r = scf.execute_region -> tensor<4x4xf32> {
    %e = tensor.empty() : tensor<4x4xf32>
    %n = linalg.negf ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %n : tensor<4x4xf32>
  } {ac.recompute}
  %i = scf.execute_region -> tensor<16xf32> {
    %v = tensor.collapse_shape %r [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
    %w = tensor.insert_slice %s into %v[4] [4] [1] : tensor<4xf32> into tensor<16xf32>
    scf.yield %w : tensor<16xf32>
  } {ac.recompute}
  %e2 = tensor.empty() : tensor<4x4xf32>
  %m = linalg.mul ins(%r, %r : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %i, %m : tensor<16xf32>, tensor<4x4xf32>
}

// -----

// A collapse of a strided slice is a copy (a buffer of its own), so writing
// into it conflicts with nothing: no copy.
// CHECK-LABEL: func.func @own_storage
// CHECK-NOT:     materialize_in_destination
// CHECK:         return
func.func @own_storage(%x: tensor<4x8xf32>, %s: tensor<2xf32>) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %sl = tensor.extract_slice %x[0, 0] [2, 4] [1, 1] : tensor<4x8xf32> to tensor<2x4xf32>
  %c = tensor.collapse_shape %sl [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %w = tensor.insert_slice %s into %c[0] [2] [1] : tensor<2xf32> into tensor<8xf32>
  return %w, %x : tensor<8xf32>, tensor<4x8xf32>
}

// -----

// A loop writes into its init, which is returned too: the copy is made at
// the loop (the planner's op); the write inside the body is the loop's own
// business and is left alone.
// CHECK-LABEL: func.func @loop_init
// CHECK-SAME:    %[[X:[^:]*]]: tensor<4x8xf32>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[M:.*]] = bufferization.materialize_in_destination %[[X]] in %[[E]]
// CHECK-NEXT:    scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[M]])
// CHECK-NEXT:      linalg.negf ins(%[[ACC]] : tensor<4x8xf32>) outs(%[[ACC]] : tensor<4x8xf32>)
// CHECK-NOT:     materialize_in_destination
// CHECK:         return
func.func @loop_init(%x: tensor<4x8xf32>, %n: index) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<4x8xf32> {
    %t = linalg.negf ins(%acc : tensor<4x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %t : tensor<4x8xf32>
  }
  return %l, %x : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Both branches of the if yield an in-place chain into an empty of their
// own: the empties become one, made before the if (the result is then a
// buffer owned where it is made: no clone by the deallocation pipeline, an
// identity layout, so the collapse after it is a view).
// CHECK-LABEL: func.func @if_branch_empties
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT:    scf.if
// CHECK-NOT:       tensor.empty
// CHECK:           linalg.exp ins(%{{.*}} : tensor<4x4xf32>) outs(%[[E]] : tensor<4x4xf32>)
// CHECK:         } else {
// CHECK-NOT:       tensor.empty
// CHECK:           %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4x4xf32>)
// CHECK-NEXT:      linalg.add ins({{.*}}) outs(%[[F]] : tensor<4x4xf32>)
// CHECK:         tensor.collapse_shape
func.func @if_branch_empties(%c: i1, %x: tensor<4x4xf32>) -> tensor<16xf32> {
  %r = scf.if %c -> tensor<4x4xf32> {
    %e = tensor.empty() : tensor<4x4xf32>
    %a = linalg.exp ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %a : tensor<4x4xf32>
  } else {
    %z = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %a = linalg.add ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %a : tensor<4x4xf32>
  }
  %v = tensor.collapse_shape %r [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  return %v : tensor<16xf32>
}

// -----

// One branch yields a value from outside: the planner counts the result as
// a new buffer at the if, so both branches put their result in one empty
// made before it, the outside value by a copy (bufferization would yield
// one branch's buffer or the other's, whose owner the deallocation
// pipeline cannot know: it cloned the result, difftest seed 120115).
// CHECK-LABEL: func.func @if_outside_value
// CHECK-SAME:    %{{[^:]*}}: i1, %[[X:[^:]*]]: tensor<4xf32>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      linalg.exp {{.*}} outs(%[[E]] :
// CHECK:         } else {
// CHECK-NEXT:      %[[C:.*]] = bufferization.materialize_in_destination %[[X]] in %[[E]]
// CHECK-NEXT:      scf.yield %[[C]]
func.func @if_outside_value(%c: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %c -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Dynamic sizes: the copy's empty takes the init's sizes (tensor.dim).
// CHECK-LABEL: func.func @dynamic_insert
// CHECK-SAME:    %[[X:[^:]*]]: tensor<?x32xf32>, %[[Y:[^:]*]]: tensor<?x32xf32>
// CHECK:         tensor.dim %[[X]]
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = tensor.dim %[[Y]], %[[C0]]
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x32xf32>
// CHECK-NEXT:    %[[M:.*]] = bufferization.materialize_in_destination %[[Y]] in %[[E]]
// CHECK-NEXT:    tensor.insert_slice %[[X]] into %[[M]]
func.func @dynamic_insert(%x: tensor<?x32xf32>, %y: tensor<?x32xf32>) -> (tensor<?x32xf32>, tensor<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x32xf32>
  %i = tensor.insert_slice %x into %y[0, 0] [%n, 32] [1, 1] : tensor<?x32xf32> into tensor<?x32xf32>
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %r = linalg.add ins(%y, %y : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %i, %r : tensor<?x32xf32>, tensor<?x32xf32>
}

// -----

// The loop writes into a 9x1 slice of a 19x1 tensor that nothing reads
// later: in place, the 76 B base would live as long as the result; the
// planner counts a new 36 B buffer (a storage of another size is never
// written in place), so the slice is copied (difftest seed 70450).
// CHECK-LABEL: func.func @loop_into_slice
// CHECK:         %[[S:.*]] = tensor.extract_slice
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<9x1xf32>
// CHECK-NEXT:    %[[M:.*]] = bufferization.materialize_in_destination %[[S]] in %[[E]]
// CHECK-NEXT:    scf.for {{.*}} iter_args(%{{.*}} = %[[M]])
func.func @loop_into_slice(%x: tensor<19x1xf32>, %n: index) -> tensor<9x1xf32> {
  %s = tensor.extract_slice %x[3, 0] [9, 1] [1, 1] : tensor<19x1xf32> to tensor<9x1xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s) -> tensor<9x1xf32> {
    %t = linalg.negf ins(%acc : tensor<9x1xf32>) outs(%acc : tensor<9x1xf32>) -> tensor<9x1xf32>
    scf.yield %t : tensor<9x1xf32>
  }
  return %l : tensor<9x1xf32>
}

// -----

// After cse, two scf.ifs decided at run time write (in both branches) into
// one shared tensor.empty, and the first if's result is read after the
// second writes: each if is a writer of the shared empty and gets its own,
// made right before it (difftest seed 110289: bufferization had resolved
// the conflict inside the branches, and the deallocation pipeline cloned
// the result, 128 B the planner never counted).
// CHECK-LABEL: func.func @if_shared_init
// CHECK:         %[[E1:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[A:.*]] = scf.if
// CHECK:           linalg.negf {{.*}} outs(%[[E1]] :
// CHECK:           linalg.abs {{.*}} outs(%[[E1]] :
// CHECK:         %[[E2:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    scf.if
// CHECK:           linalg.negf ins(%[[A]] : {{.*}} outs(%[[E2]] :
// CHECK:           linalg.exp ins(%[[A]] : {{.*}} outs(%[[E2]] :
func.func @if_shared_init(%x: tensor<4x8xf32>, %c: i1, %d: i1) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %a = scf.if %c -> (tensor<4x8xf32>) {
    %t = linalg.negf ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %t : tensor<4x8xf32>
  } else {
    %t = linalg.abs ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %t : tensor<4x8xf32>
  }
  %b = scf.if %d -> (tensor<4x8xf32>) {
    %t = linalg.negf ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %t : tensor<4x8xf32>
  } else {
    %t = linalg.exp ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %t : tensor<4x8xf32>
  }
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// An scf.if whose branches write into %y, which is read after the if: the
// if gets its own copy of %y, made right before it, as the planner counts a
// new buffer at the if (in place would clobber %y's later reader).
// CHECK-LABEL: func.func @if_init_read_later
// CHECK:         %[[Y:.*]] = linalg.exp
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[M:.*]] = bufferization.materialize_in_destination %[[Y]] in %[[E]]
// CHECK-NEXT:    scf.if
// CHECK:           linalg.negf {{.*}} outs(%[[M]] :
// CHECK:           linalg.abs {{.*}} outs(%[[M]] :
// CHECK:         linalg.add ins(%{{.*}}, %[[Y]] :
func.func @if_init_read_later(%x: tensor<4x8xf32>, %c: i1) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.exp ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = scf.if %c -> (tensor<4x8xf32>) {
    %t = linalg.negf ins(%x : tensor<4x8xf32>) outs(%y : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %t : tensor<4x8xf32>
  } else {
    %t = linalg.abs ins(%x : tensor<4x8xf32>) outs(%y : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %t : tensor<4x8xf32>
  }
  %e1 = tensor.empty() : tensor<4x8xf32>
  %r = linalg.add ins(%a, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A loop whose body passes on a tensor made inside it (here the generic's
// fresh tensor.empty) is refused by one-shot bufferization ("Yield operand
// #0 is not equivalent to the corresponding iter bbArg"); the value is
// copied into the iter_arg right before the yield, where the planner
// counts the loop writing into its init.  The counter is not a tensor; the
// second iter_arg is passed on unchanged (already in place).
// CHECK-LABEL: func.func @for_yields_new_tensor
// CHECK:         scf.for {{.*}} iter_args(%[[T:.*]] = %{{.*}}, %[[U:.*]] = %{{.*}}, %[[K:.*]] = %{{.*}})
// CHECK:           %[[N:.*]] = linalg.exp ins(%[[T]] : {{.*}}) outs(%{{.*}} :
// CHECK:           %[[M:.*]] = bufferization.materialize_in_destination %[[N]] in %[[T]]
// CHECK-NOT:       materialize_in_destination
// CHECK-NEXT:      scf.yield %[[M]], %[[U]], %{{.*}} :
func.func @for_yields_new_tensor(%x: tensor<4x8xf32>, %n: index) -> (tensor<4x8xf32>, tensor<4x8xf32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 0 : i32
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%t = %x, %u = %x, %k = %k0) -> (tensor<4x8xf32>, tensor<4x8xf32>, i32) {
    %e = tensor.empty() : tensor<4x8xf32>
    %v = linalg.exp ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %k1 = arith.addi %k, %k : i32
    scf.yield %v, %u, %k1 : tensor<4x8xf32>, tensor<4x8xf32>, i32
  }
  return %r#0, %r#1, %r#2 : tensor<4x8xf32>, tensor<4x8xf32>, i32
}

// -----

// A body writing into its iter_arg (outs(%t)) is in place already: no copy.
// A body passing on an scf.if result is left alone (a copy there could
// read what it overwrites).
// CHECK-LABEL: func.func @for_in_place_and_if
// CHECK-NOT:     materialize_in_destination
// CHECK:         return
func.func @for_in_place_and_if(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %z: tensor<4x8xf32>, %n: index, %c: i1) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = scf.for %i = %c0 to %n step %c1 iter_args(%t = %x) -> (tensor<4x8xf32>) {
    %v = linalg.exp ins(%y : tensor<4x8xf32>) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %v : tensor<4x8xf32>
  }
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%t = %z) -> (tensor<4x8xf32>) {
    %v = scf.if %c -> (tensor<4x8xf32>) {
      %w = linalg.negf ins(%y : tensor<4x8xf32>) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
      scf.yield %w : tensor<4x8xf32>
    } else {
      scf.yield %t : tensor<4x8xf32>
    }
    scf.yield %v : tensor<4x8xf32>
  }
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// scf.while: the after region's yield of a new tensor is copied into the
// after region's argument; the condition forwards its argument (in place).
// CHECK-LABEL: func.func @while_yields_new_tensor
// CHECK:         scf.while (%[[B:.*]] = %{{.*}}) :
// CHECK-NOT:       materialize_in_destination
// CHECK:           scf.condition(%{{.*}}) %[[B]]
// CHECK:         ^bb0(%[[A:.*]]: tensor<4x8xf32>):
// CHECK:           %[[N:.*]] = linalg.exp ins(%[[A]] : {{.*}}) outs(%{{.*}} :
// CHECK-NEXT:      %[[M:.*]] = bufferization.materialize_in_destination %[[N]] in %[[A]]
// CHECK-NEXT:      scf.yield %[[M]] :
func.func @while_yields_new_tensor(%x: tensor<4x8xf32>, %c: i1) -> tensor<4x8xf32> {
  %r = scf.while (%t = %x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    scf.condition(%c) %t : tensor<4x8xf32>
  } do {
  ^bb0(%t2: tensor<4x8xf32>):
    %e = tensor.empty() : tensor<4x8xf32>
    %v = linalg.exp ins(%t2 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %v : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// After cse a body's tensor.empty may be one made before the loop: the
// generic writing into it still makes a new tensor each iteration
// (bufferization allocates in the loop), copied into the iter_arg.
// CHECK-LABEL: func.func @for_yields_into_outer_empty
// CHECK:         %[[E:.*]] = tensor.empty()
// CHECK:         scf.for {{.*}} iter_args(%[[T:.*]] = %{{.*}})
// CHECK:           %[[N:.*]] = linalg.exp ins(%[[T]] : {{.*}}) outs(%[[E]] :
// CHECK-NEXT:      %[[M:.*]] = bufferization.materialize_in_destination %[[N]] in %[[T]]
// CHECK-NEXT:      scf.yield %[[M]] :
func.func @for_yields_into_outer_empty(%x: tensor<4x8xf32>, %n: index) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %x) -> (tensor<4x8xf32>) {
    %v = linalg.exp ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %v : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
