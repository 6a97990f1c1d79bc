// The split output is ordinary linalg on tensors: it bufferizes, maps to GPU
// kernels and lowers to NVVM/PTX with the standard upstream pipelines (no
// CUDA toolkit or GPU needed: cubin-format=isa stops at PTX text).  The
// recomputed chain exp -> tanh is followed from the recompute region to its
// own kernels in @f_bwd's gpu.binary objects, apart from the forward's.
//
// What happens to the region and its ac.recompute marker on the way:
//  - one-shot-bufferize rebuilds an scf.execute_region whose results are
//    tensors with memref results and drops the discardable ac.recompute
//    attribute (regions with only scalar results keep it); the region itself
//    stays, and the kernels launched inside it are the recomputation;
//  - canonicalize (also run by the inliner) inlines a single-block
//    execute_region into @f_bwd, marker and all; the recomputed ops stay in
//    @f_bwd (second pipeline below);
//  - gpu-lower-to-nvvm-pipeline lowers what is left with scf-to-cf.
//
// RUN: ac-opt %s --ac-mode=split --ac-strategy=mincut -o %t.split.mlir
// RUN: FileCheck %s --check-prefix=SPLIT < %t.split.mlir
// RUN: mlir-opt %t.split.mlir --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries},func.func(convert-linalg-to-parallel-loops,gpu-map-parallel-loops,convert-parallel-loops-to-gpu),gpu-kernel-outlining)' -o %t.outlined.mlir
// RUN: FileCheck %s --check-prefix=OUTLINED < %t.outlined.mlir
// RUN: mlir-opt %t.outlined.mlir --pass-pipeline='builtin.module(gpu-lower-to-nvvm-pipeline{cubin-format=isa})' | FileCheck %s --check-prefix=NVVM
// RUN: mlir-opt %t.split.mlir --pass-pipeline='builtin.module(canonicalize,one-shot-bufferize{bufferize-function-boundaries},func.func(convert-linalg-to-parallel-loops,gpu-map-parallel-loops,convert-parallel-loops-to-gpu),gpu-kernel-outlining,gpu-lower-to-nvvm-pipeline{cubin-format=isa})' | FileCheck %s --check-prefix=CANON

// SPLIT-LABEL: func.func @f_bwd(
// SPLIT:         scf.execute_region -> tensor<4x8xf32> {
// SPLIT:           math.exp
// SPLIT:           math.tanh
// SPLIT:         } {ac.recompute}

// After bufferization and outlining, @f_bwd launches the recomputation from
// inside the (now memref-typed) region, one kernel per recomputed op.
// OUTLINED-LABEL: func.func @f_fwd(
// OUTLINED:         gpu.launch_func @[[FEXP:[a-z_0-9]+]]::
// OUTLINED:       gpu.module @[[FEXP]] {
// OUTLINED:           math.exp
// OUTLINED-LABEL: func.func @f_bwd(
// OUTLINED:         scf.execute_region -> memref<4x8xf32> {
// OUTLINED-NOT:     scf.yield
// OUTLINED:           gpu.launch_func @[[EXP:[a-z_0-9]+]]::@f_bwd_kernel
// OUTLINED-NOT:     scf.yield
// OUTLINED:           gpu.launch_func @[[TANH:[a-z_0-9]+]]::@f_bwd_kernel
// OUTLINED-NEXT:      scf.yield
// OUTLINED:         gpu.launch_func @[[DW:[a-z_0-9]+]]::@f_bwd_kernel
// OUTLINED:       gpu.module @[[EXP]] {
// OUTLINED:           math.exp
// OUTLINED:       gpu.module @[[TANH]] {
// OUTLINED:           math.tanh
// OUTLINED:       gpu.module @[[DW]] {
// OUTLINED-NOT:       math.
// OUTLINED:           arith.mulf
// OUTLINED:           arith.addf

// The named pipeline auto-ac-lower-gpu does the same in one step, with the
// deallocation pipeline, auto-ac-free-at-last-use and auto-ac-gpu-buffers
// before the GPU mapping: every buffer of the host code lives in GPU memory
// (gpu.alloc host_shared: mgpuMemAlloc with isHostShared = 1) and is freed
// right after the last kernel that reads it (mgpuMemFree on a stream of its
// own, synchronized at once).
// RUN: ac-opt %t.split.mlir --pass-pipeline='builtin.module(auto-ac-lower-gpu)' | FileCheck %s --check-prefix=NAMED
// RUN: %if plugin %{ mlir-opt %t.split.mlir --load-pass-plugin=%plugin --pass-pipeline='builtin.module(auto-ac-lower-gpu)' | FileCheck %s --check-prefix=NAMED %}
// NAMED-LABEL: llvm.func @f_fwd(
// NAMED:         %[[ONE:.*]] = llvm.mlir.constant(1 : i8) : i8
// NAMED:         %[[EXP:.*]] = llvm.call @mgpuMemAlloc({{.*}}, %[[ONE]])
// NAMED:         gpu.launch_func
// NAMED:         %[[TANH:.*]] = llvm.call @mgpuMemAlloc(
// NAMED:         gpu.launch_func
// The exp result dies at the tanh, which reads it: freed there.  (The two
// share %e as written; the import gives each writer its own init,
// docs/contract.md "Shared inits", so they are two buffers.)
// NAMED:         %[[S0:.*]] = llvm.call @mgpuStreamCreate()
// NAMED-NEXT:    llvm.call @mgpuMemFree(%[[EXP]], %[[S0]])
// NAMED:         gpu.launch_func
// NAMED:         %[[S:.*]] = llvm.call @mgpuStreamCreate()
// NAMED-NEXT:    llvm.call @mgpuMemFree(%[[TANH]], %[[S]])
// NAMED-NEXT:    llvm.call @mgpuStreamSynchronize(%[[S]])
// NAMED-NEXT:    llvm.call @mgpuStreamDestroy(%[[S]])
// NAMED-NEXT:    llvm.return
// NAMED:       gpu.binary @{{[a-z_0-9]+}} [#gpu.object<#nvvm.target
// NAMED-LABEL: llvm.func @f_bwd(
// NAMED:         llvm.call @mgpuMemAlloc(
// NAMED:         gpu.launch_func
// NAMED:         llvm.call @mgpuMemFree(
// NAMED:       gpu.binary @{{[a-z_0-9]+}} [#gpu.object<#nvvm.target
// NAMED-NOT:   llvm.call @malloc
//
// NVVM-LABEL: llvm.func @f_fwd(
// NVVM:         gpu.launch_func
// NVVM:       gpu.binary @{{[a-z_0-9]+}} [#gpu.object<#nvvm.target
// NVVM-LABEL: llvm.func @f_bwd(
// NVVM:         gpu.launch_func @[[FILL:[a-z_0-9]+]]::
// NVVM:         gpu.launch_func @[[EXP:[a-z_0-9]+]]::
// NVVM:         gpu.launch_func @[[TANH:[a-z_0-9]+]]::
// NVVM:         gpu.launch_func @[[DW:[a-z_0-9]+]]::
// NVVM:       gpu.binary @[[FILL]] [#gpu.object<#nvvm.target
// NVVM:       gpu.binary @[[EXP]] [#gpu.object<#nvvm.target{{.*}}assembly = "{{.*}}.entry f_bwd_kernel{{.*}}{{__nv_expf|ex2\.approx}}
// NVVM:       gpu.binary @[[TANH]] [#gpu.object<#nvvm.target{{.*}}assembly = "{{.*}}.entry f_bwd_kernel{{.*}}{{__nv_tanhf|tanh\.approx|ex2\.approx}}
// NVVM:       gpu.binary @[[DW]] [#gpu.object<#nvvm.target
// NVVM-NOT:   scf.execute_region

// CANON-LABEL: llvm.func @f_bwd(
// CANON:         gpu.launch_func
// CANON:         gpu.launch_func @[[EXP:[a-z_0-9]+]]::
// CANON:       gpu.binary @[[EXP]] [#gpu.object<#nvvm.target{{.*}}{{__nv_expf|ex2\.approx}}

#id = affine_map<(i, j) -> (i, j)>
#tA = affine_map<(i, j, b) -> (b, i)>
#tB = affine_map<(i, j, b) -> (b, j)>
#tO = affine_map<(i, j, b) -> (i, j)>
module {
  func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x8xf32> {ac.param},
               %dy: tensor<4x8xf32> {ac.tangent})
      -> (tensor<4x8xf32> {ac.output}, tensor<8x8xf32> {ac.grad})
      attributes {ac.joint} {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = math.exp %v : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = math.tanh %v : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %h = linalg.matmul ins(%d, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                       outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
    // backward: dw = d^T dy
    %ew = tensor.empty() : tensor<8x8xf32>
    %zw = linalg.fill ins(%zero : f32) outs(%ew : tensor<8x8xf32>) -> tensor<8x8xf32>
    %dw = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%d, %dy : tensor<4x8xf32>, tensor<4x8xf32>) outs(%zw : tensor<8x8xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<8x8xf32>
    return %h, %dw : tensor<4x8xf32>, tensor<8x8xf32>
  }
}
