// Tie rules on builtin ops: every ? below is one of x's two dimensions
// (arg0.0 = n rows, arg0.1 = m columns) or dy's (tied to n by the mulf), so
// the module imports with two symbols and no other bound: elementwise
// arith on tensors, tensor.dim into tensor.empty / tensor.splat /
// extract_slice sizes / expand_shape's output_shape, collapse_shape of a
// unit group, an scf.for's result (its init's shape), linalg.reduce and
// linalg.broadcast (their indexing maps), a generic's reduction.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=WARN --allow-empty
// WARN-NOT: error
// RUN: %python %inputs/jq.py %t/r.json symbols | FileCheck %s
// CHECK: symbols = [{"args":["arg0.0","arg1.0"],"bound":8,"name":"arg0.0"},{"args":["arg0.1"],"bound":6,"name":"arg0.1"}]
// Without the tie of a rule, its result's dimension would need a bound of
// its own: the same function with the slice's sizes from an addi.
// RUN: sed -e 's/\[%%n, %%m\] \[1, 1\]/[%%n2, %%m] [1, 1]/' -e 's/^  %%m = tensor.dim/  %%n2 = arith.addi %%n, %%c0 : index\n  %%m = tensor.dim/' %s > %t/untied.mlir
// RUN: not ac-opt %t/untied.mlir -o %t/u.mlir 2>&1 | FileCheck %s --check-prefix=UNTIED
// UNTIED: error: dimension 0 of result #0 of 'tensor.extract_slice' is dynamic, tied to no argument dimension, and has no bound
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @f(%x: tensor<?x?xf32> {ac.max_shape = array<i64: 8, 6>}, %dy: tensor<?xf32> {ac.tangent}) -> (tensor<?xf32> {ac.output}) attributes {ac.joint} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %m = tensor.dim %x, %c1 : tensor<?x?xf32>
  // elementwise arith on tensors
  %a = arith.addf %x, %x : tensor<?x?xf32>
  // a slice: m rows of the first n... sizes from dims
  %s = tensor.extract_slice %a[0, 0] [%n, %m] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  // collapse with a unit dim, expand back
  %e3 = tensor.expand_shape %s [[0], [1, 2]] output_shape [%n, %m, 1] : tensor<?x?xf32> into tensor<?x?x1xf32>
  %c = tensor.collapse_shape %e3 [[0], [1, 2]] : tensor<?x?x1xf32> into tensor<?x?xf32>
  // a loop carrying a dynamic tensor
  %l = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %c) -> (tensor<?x?xf32>) {
    %u = linalg.map { math.exp } ins(%t : tensor<?x?xf32>) outs(%t : tensor<?x?xf32>)
    scf.yield %u : tensor<?x?xf32>
  }
  // a row reduction (linalg.reduce) and a broadcast back (linalg.broadcast)
  %re = tensor.empty(%n) : tensor<?xf32>
  %rf = linalg.fill ins(%zero : f32) outs(%re : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%l : tensor<?x?xf32>) outs(%rf : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  %be = tensor.empty(%n, %m) : tensor<?x?xf32>
  %b = linalg.broadcast ins(%r : tensor<?xf32>) outs(%be : tensor<?x?xf32>) dimensions = [1]
  %sp = tensor.splat %zero[%n] : tensor<?xf32>
  %o = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%b : tensor<?x?xf32>) outs(%sp : tensor<?xf32>) {
  ^bb0(%v: f32, %w: f32):
    %z = arith.addf %v, %w : f32
    linalg.yield %z : f32
  } -> tensor<?xf32>
  %g = arith.mulf %o, %dy : tensor<?xf32>
  return %g : tensor<?xf32>
}
