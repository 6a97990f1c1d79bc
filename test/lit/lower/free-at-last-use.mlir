// auto-ac-free-at-last-use on bufferized IR written by hand: every free moves
// up to right after the last use of its buffer or of any alias (views,
// captures in nested regions, values yielded by region ops), ac.owned
// arguments are freed by the callee and no longer by the caller.  The pass
// runs the same in mlir-opt with the plugin (file split) and in ac-opt (whole
// file as one module), and a second run changes nothing.
//
// RUN: ac-opt %s --pass-pipeline='builtin.module(auto-ac-free-at-last-use)' | FileCheck %s
// RUN: ac-opt %s --pass-pipeline='builtin.module(auto-ac-free-at-last-use,auto-ac-free-at-last-use)' | FileCheck %s
// RUN: %if plugin %{ mlir-opt %s --allow-unregistered-dialect --load-pass-plugin=%plugin -split-input-file --pass-pipeline='builtin.module(auto-ac-free-at-last-use)' | FileCheck %s %}

// CHECK-LABEL: func.func @chain
// CHECK:      %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[B]]
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %[[B]], %[[C]]
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: return %[[C]]
func.func @chain(%x: memref<4xf32>) -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.copy %b, %c : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  return %c : memref<4xf32>
}

// -----

// A chain of views: the free waits for the last view's use.
// CHECK-LABEL: func.func @views
// CHECK:      %[[A:.*]] = memref.alloc() : memref<16xf32>
// CHECK:      %[[E:.*]] = memref.expand_shape %[[A]]
// CHECK-NEXT: %[[S:.*]] = memref.subview %[[E]]
// CHECK-NEXT: "test.other"() {n = 1
// CHECK-NEXT: %[[C:.*]] = memref.cast %[[S]]
// CHECK-NEXT: "test.read"(%[[C]])
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: "test.other"() {n = 2
// CHECK-NEXT: return
func.func @views(%x: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %e = memref.expand_shape %a [[0, 1]] output_shape [2, 8] : memref<16xf32> into memref<2x8xf32>
  %s = memref.subview %e[0, 0] [1, 4] [1, 1] : memref<2x8xf32> to memref<4xf32, strided<[1]>>
  "test.other"() {n = 1} : () -> ()
  %c = memref.cast %s : memref<4xf32, strided<[1]>> to memref<4xf32, strided<[?], offset: ?>>
  "test.read"(%c) : (memref<4xf32, strided<[?], offset: ?>>) -> ()
  "test.other"() {n = 2} : () -> ()
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// memref.view, reinterpret_cast and collapse_shape are views too.
// CHECK-LABEL: func.func @raw_views
// CHECK:      %[[RAW:.*]] = memref.alloc() : memref<64xi8>
// CHECK-NEXT: %[[V:.*]] = memref.view %[[RAW]]
// CHECK-NEXT: %[[R:.*]] = memref.reinterpret_cast %[[V]]
// CHECK-NEXT: %[[K:.*]] = memref.collapse_shape %[[R]]
// CHECK-NEXT: memref.copy %[[K]], %{{.*}}
// CHECK-NEXT: memref.dealloc %[[RAW]]
// CHECK-NEXT: "test.other"()
func.func @raw_views(%y: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %raw = memref.alloc() : memref<64xi8>
  %v = memref.view %raw[%c0][] : memref<64xi8> to memref<16xf32>
  %r = memref.reinterpret_cast %v to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<16xf32> to memref<4x4xf32>
  %k = memref.collapse_shape %r [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  memref.copy %k, %y : memref<16xf32> to memref<16xf32>
  "test.other"() : () -> ()
  memref.dealloc %raw : memref<64xi8>
  return
}

// -----

// A buffer captured by a loop body: its last use is the loop.
// CHECK-LABEL: func.func @captured
// CHECK:      %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK:      scf.for
// CHECK:        memref.load %[[A]]
// CHECK:      }
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: "test.other"()
func.func @captured(%x: memref<4xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf32>
    memref.store %v, %y[%i] : memref<4xf32>
  }
  "test.other"() : () -> ()
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// Values yielded by a region op alias both buffers; the frees keep their order.
// CHECK-LABEL: func.func @yielded
// CHECK:      %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: "test.other"() {n = 1
// CHECK-NEXT: %[[R:.*]] = scf.if
// CHECK:      memref.copy %[[R]], %{{.*}}
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: "test.other"() {n = 2
func.func @yielded(%cond: i1, %y: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  "test.other"() {n = 1} : () -> ()
  %r = scf.if %cond -> memref<4xf32> {
    scf.yield %a : memref<4xf32>
  } else {
    scf.yield %b : memref<4xf32>
  }
  memref.copy %r, %y : memref<4xf32> to memref<4xf32>
  "test.other"() {n = 2} : () -> ()
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  return
}

// -----

// A conditional free (what lower-deallocations makes of a runtime
// ownership) moves as a whole, after the definition of its condition.
// CHECK-LABEL: func.func @conditional
// CHECK:      %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT: %[[F:.*]] = "test.flag"()
// CHECK-NEXT: "test.read"(%[[A]])
// CHECK-NEXT: scf.if %[[F]] {
// CHECK-NEXT:   memref.dealloc %[[A]]
// CHECK-NEXT: }
// CHECK-NEXT: "test.other"()
func.func @conditional(%x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %f = "test.flag"() : () -> i1
  "test.read"(%a) : (memref<4xf32>) -> ()
  "test.other"() : () -> ()
  scf.if %f {
    memref.dealloc %a : memref<4xf32>
  }
  return
}

// -----

// A free whose buffer a later op may alias (an unknown op with a memref
// result counts as a view) waits for that op's uses too.
// CHECK-LABEL: func.func @unknown_alias
// CHECK:      %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[U:.*]] = "test.view"(%[[A]])
// CHECK-NEXT: "test.other"() {n = 1
// CHECK-NEXT: "test.read"(%[[U]])
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: "test.other"() {n = 2
func.func @unknown_alias() {
  %a = memref.alloc() : memref<4xf32>
  %u = "test.view"(%a) : (memref<4xf32>) -> memref<4xf32>
  "test.other"() {n = 1} : () -> ()
  "test.read"(%u) : (memref<4xf32>) -> ()
  "test.other"() {n = 2} : () -> ()
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// Ownership across a call: @bwd frees its ac.owned argument after the last
// use of any alias; @fwd_bwd no longer frees what it gave away, and marks
// the call so that a second run does not give it again.
// CHECK-LABEL: func.func @fwd_bwd
// CHECK:      %[[A:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: "test.fill"(%[[A]])
// CHECK-NEXT: call @bwd(%[[A]], %{{.*}}) {ac.owned_transferred}
// CHECK-NOT:  memref.dealloc
// CHECK:      return
// CHECK-LABEL: func.func @bwd
// CHECK-SAME: {ac.owned}
// CHECK:      %[[E:.*]] = memref.expand_shape %arg0
// CHECK-NEXT: "test.other"() {n = 1
// CHECK-NEXT: memref.copy %[[E]], %arg1
// CHECK-NEXT: memref.dealloc %arg0
// CHECK-NEXT: "test.other"() {n = 2
// CHECK-NEXT: return
func.func @fwd_bwd(%y: memref<4x4xf32>) {
  %a = memref.alloc() : memref<16xf32>
  "test.fill"(%a) : (memref<16xf32>) -> ()
  call @bwd(%a, %y) : (memref<16xf32>, memref<4x4xf32>) -> ()
  "test.other"() : () -> ()
  memref.dealloc %a : memref<16xf32>
  return
}
func.func @bwd(%s: memref<16xf32> {ac.owned}, %y: memref<4x4xf32>) {
  %e = memref.expand_shape %s [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  "test.other"() {n = 1} : () -> ()
  memref.copy %e, %y : memref<4x4xf32> to memref<4x4xf32>
  "test.other"() {n = 2} : () -> ()
  return
}

// -----

// An ac.owned argument nothing reads is freed first thing.
// CHECK-LABEL: func.func @unused_owned
// CHECK-NEXT: memref.dealloc %arg0
// CHECK-NEXT: "test.other"()
func.func @unused_owned(%s: memref<16xf32> {ac.owned}) {
  "test.other"() : () -> ()
  return
}

// -----

// Buffers that come from a call: ownership moves when the callee returns
// each in a storage of its own (@fresh2)...
// CHECK-LABEL: func.func @from_call
// CHECK:      %[[R:.*]]:2 = call @fresh2()
// CHECK-NEXT: memref.dealloc %[[R]]#1
// CHECK-NEXT: call @take_one(%[[R]]#0, %{{.*}}) {ac.owned_transferred}
// CHECK-NEXT: return
// CHECK-LABEL: func.func @take_one
// CHECK-SAME: {ac.owned}
// CHECK-NEXT: memref.copy %arg0, %arg1
// CHECK-NEXT: memref.dealloc %arg0
// CHECK-NEXT: return
func.func @from_call(%y: memref<4xf32>) {
  %r:2 = call @fresh2() : () -> (memref<4xf32>, memref<4xf32>)
  call @take_one(%r#0, %y) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %r#0 : memref<4xf32>
  memref.dealloc %r#1 : memref<4xf32>
  return
}
func.func @fresh2() -> (memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  return %a, %b : memref<4xf32>, memref<4xf32>
}
func.func @take_one(%s: memref<4xf32> {ac.owned}, %y: memref<4xf32>) {
  memref.copy %s, %y : memref<4xf32> to memref<4xf32>
  return
}

// -----

// When it may return one storage twice (a saved value and a view of it,
// a saved tensor.empty and the op written into it in place), and the call
// gives both results to ac.owned arguments: they are one group, freed once
// by @take_pair after the last use of either (the second copy), the
// others marked ac.owned_with = <the group's least argument>; the caller
// frees neither (difftest seed 10001020: a saved slice and its base were
// freed only after the backward, 64 B over the simulated peak).
// CHECK-LABEL: func.func @shared_results
// CHECK:      %[[R:.*]]:2 = call @same_twice()
// CHECK-NEXT: call @take_pair(%[[R]]#0, %[[R]]#1, %{{.*}}) {ac.owned_transferred} : (
// CHECK-NEXT: return
// CHECK-LABEL: func.func @take_pair
// CHECK-SAME: %[[S:[^:]*]]: memref<4xf32> {ac.owned}, %[[T:[^:]*]]: memref<4xf32> {ac.owned, ac.owned_with = 0 : i64}
// CHECK-NEXT: memref.copy %[[S]]
// CHECK-NEXT: memref.copy %[[T]]
// CHECK-NEXT: memref.dealloc %[[S]]
// CHECK-NOT:  memref.dealloc
// CHECK:      return
func.func @shared_results(%y: memref<4xf32>) {
  %r:2 = call @same_twice() : () -> (memref<4xf32>, memref<4xf32>)
  call @take_pair(%r#0, %r#1, %y) : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %r#0 : memref<4xf32>
  memref.dealloc %r#1 : memref<4xf32>
  return
}
func.func @same_twice() -> (memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  return %a, %a : memref<4xf32>, memref<4xf32>
}
func.func @take_pair(%s: memref<4xf32> {ac.owned}, %t: memref<4xf32> {ac.owned}, %y: memref<4xf32>) {
  memref.copy %s, %y : memref<4xf32> to memref<4xf32>
  memref.copy %t, %y : memref<4xf32> to memref<4xf32>
  return
}

// -----

// ...but when the storage's other result is not given to an ac.owned
// argument of the same call (the caller still frees it), ownership cannot
// move: the argument becomes ac.owned = false, nothing is freed in
// @take_first, the caller keeps its frees.
// CHECK-LABEL: func.func @shared_kept
// CHECK:      %[[R:.*]]:2 = call @same_twice2()
// CHECK-NEXT: call @take_first(%[[R]]#0, %{{.*}}) : (
// CHECK-NEXT: memref.dealloc %[[R]]#0
// CHECK-LABEL: func.func @take_first
// CHECK-SAME: {ac.owned = false}
// CHECK-NOT:  memref.dealloc
// CHECK:      return
func.func @shared_kept(%y: memref<4xf32>) {
  %r:2 = call @same_twice2() : () -> (memref<4xf32>, memref<4xf32>)
  call @take_first(%r#0, %y) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %r#0 : memref<4xf32>
  memref.copy %r#1, %y : memref<4xf32> to memref<4xf32>
  return
}
func.func @same_twice2() -> (memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  return %a, %a : memref<4xf32>, memref<4xf32>
}
func.func @take_first(%s: memref<4xf32> {ac.owned}, %y: memref<4xf32>) {
  memref.copy %s, %y : memref<4xf32> to memref<4xf32>
  return
}
