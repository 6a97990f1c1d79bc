// Offloaded saves on the GPU pipeline (docs/rewrite.md, "Offload"): the
// rewrite marks an offloaded save's host buffer and device->host copy
// (ac.offload) and, in the backward, its device buffer and host->device copy
// (ac.prefetch).  auto-ac-offload-locs names them in their locations, which
// one-shot bufferization keeps; auto-ac-gpu-buffers then
//  - keeps the host buffer in host memory (memref.alloc) and pins it right
//    after (gpu.host_register); its free unpins first (gpu.host_unregister);
//  - makes each copy asynchronous on a stream of its own, issued right after
//    the later of its two buffers' definitions (after the pinning) and
//    waited for where the copy was, which is where the simulator has it
//    complete: the forward's tanh and the backward's add run in between;
//  - leaves a copy out of a strided view (no gpu.memcpy for it) synchronous.
// Every other buffer goes to GPU memory as before (lower/gpu-buffers.mlir).
//
// RUN: ac-opt %s --pass-pipeline='builtin.module(auto-ac-offload-locs,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-deallocation-pipeline,auto-ac-free-at-last-use,convert-bufferization-to-memref,auto-ac-gpu-buffers)' | FileCheck %s
// The named pipeline lowers them to the runtime's calls (pinning, copies on
// streams of their own); the counting runtimes count pinned bytes as host
// memory (fidelity/offload.mlir's GPU row).
// RUN: ac-opt %s --pass-pipeline='builtin.module(auto-ac-lower-gpu)' | FileCheck %s --check-prefix=LLVM
// LLVM-DAG: llvm.call @mgpuMemHostRegisterMemRef
// LLVM-DAG: llvm.call @mgpuMemHostUnregisterMemRef
// LLVM-DAG: llvm.call @mgpuMemcpy
// LLVM-DAG: llvm.call @mgpuStreamCreate

// CHECK-LABEL: func.func @fwd
// CHECK:      %[[D:.*]] = gpu.alloc host_shared () : memref<4x8xf32>
// CHECK:      linalg.generic {{.*}} outs(%[[D]]
// CHECK:      %[[H:.*]] = memref.alloc() {{.*}}: memref<4x8xf32>
// CHECK-NEXT: %[[HC:.*]] = memref.cast %[[H]] : memref<4x8xf32> to memref<*xf32>
// CHECK-NEXT: gpu.host_register %[[HC]] : memref<*xf32>
// CHECK-NEXT: %[[S:.*]] = gpu.wait async
// CHECK-NEXT: %[[T:.*]] = gpu.memcpy async [%[[S]]] %[[H]], %[[D]]
// CHECK:      math.tanh
// CHECK:      gpu.wait [%[[T]]]
// CHECK-NEXT: %[[S2:.*]] = gpu.wait async
// CHECK-NEXT: gpu.dealloc async [%[[S2]]] %[[D]]
// CHECK-NOT:  memref.copy
// CHECK:      return %{{.*}}, %[[H]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @fwd(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%i: f32, %o: f32):
    %t = math.exp %i : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %h0 = bufferization.alloc_tensor() {ac.offload} : tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%i: f32, %o: f32):
    %t = math.tanh %i : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %h = bufferization.materialize_in_destination %a in %h0 {ac.offload} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %b, %h : tensor<4x8xf32>, tensor<4x8xf32>

// CHECK-LABEL: func.func @bwd
// CHECK-SAME: (%[[HA:.*]]: memref<4x8xf32> {ac.owned}
// CHECK:      %[[D:.*]] = gpu.alloc host_shared () : memref<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = gpu.wait async
// CHECK-NEXT: %[[T:.*]] = gpu.memcpy async [%[[S]]] %[[D]], %[[HA]]
// CHECK:      arith.addf
// CHECK:      gpu.wait [%[[T]]]
// CHECK-NEXT: %[[HC:.*]] = memref.cast %[[HA]] : memref<4x8xf32> to memref<*xf32>
// CHECK-NEXT: gpu.host_unregister %[[HC]] : memref<*xf32>
// CHECK-NEXT: memref.dealloc %[[HA]] : memref<4x8xf32>
// CHECK:      arith.mulf
// CHECK-NOT:  memref.dealloc
// CHECK:      return
}
func.func @bwd(%h: tensor<4x8xf32> {ac.owned}, %g: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d0 = bufferization.alloc_tensor() {ac.prefetch} : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%i: f32, %o: f32):
    %t = arith.addf %i, %i : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %d = bufferization.materialize_in_destination %h in %d0 {ac.prefetch} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%d, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %t = arith.mulf %i, %j : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @fwd_view
// CHECK:      %[[V:.*]] = memref.subview
// CHECK-NEXT: %[[H:.*]] = memref.alloc() {{.*}}: memref<4x8xf32>
// CHECK-NEXT: %[[HC:.*]] = memref.cast %[[H]]
// CHECK-NEXT: gpu.host_register %[[HC]]
// CHECK-NEXT: memref.copy %[[V]], %[[H]] : memref<4x8xf32, strided<[16, 1]>> to memref<4x8xf32>
// CHECK-NOT:  gpu.memcpy
// CHECK:      return
func.func @fwd_view(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %t = math.exp %i : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  %v = tensor.extract_slice %a[0, 0] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
  %h0 = bufferization.alloc_tensor() {ac.offload} : tensor<4x8xf32>
  %h = bufferization.materialize_in_destination %v in %h0 {ac.offload} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a, %h : tensor<4x16xf32>, tensor<4x8xf32>
}
