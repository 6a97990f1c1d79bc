// auto-ac-gpu-buffers: the buffers of host code move to GPU memory that the
// host can still read (gpu.alloc host_shared); each free becomes an
// asynchronous gpu.dealloc on a stream of its own, waited for at once (the
// form gpu-to-llvm lowers), in the free's place.  Buffers of device code
// (inside gpu.launch) stay.
//
// RUN: ac-opt %s --pass-pipeline='builtin.module(auto-ac-gpu-buffers)' | FileCheck %s
// RUN: %if plugin %{ mlir-opt %s --load-pass-plugin=%plugin --pass-pipeline='builtin.module(auto-ac-gpu-buffers)' | FileCheck %s %}

// CHECK-LABEL: func.func @host
// CHECK:      %[[A:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT: %[[B:.*]] = gpu.alloc host_shared (%{{.*}}) : memref<?xf32>
// CHECK-NEXT: %[[T:.*]] = gpu.wait async
// CHECK-NEXT: %[[T2:.*]] = gpu.dealloc async [%[[T]]] %[[A]] : memref<4xf32>
// CHECK-NEXT: gpu.wait [%[[T2]]]
// CHECK:      gpu.launch
// CHECK:        memref.alloca
// CHECK:        memref.alloc() : memref<2xf32>
// CHECK:        memref.dealloc
// CHECK:      gpu.dealloc async
// CHECK-NOT:  memref.alloc(
// CHECK:      return
func.func @host(%x: memref<4xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %a : memref<4xf32>
  gpu.launch blocks(%i, %j, %k) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%ti, %tj, %tk) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<2xf32>
    %d = memref.alloc() : memref<2xf32>
    memref.dealloc %d : memref<2xf32>
    gpu.terminator
  }
  memref.dealloc %b : memref<?xf32>
  return
}
