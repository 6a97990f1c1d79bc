// Fidelity with offload (docs/fidelity.md, "Offload"): the small ReLU MLP
// (test/Inputs/fidelity/small-mlp.mlir) at budget 1 B with a host link that
// hides every copy (a cost table's "@device": 1e30 B/s, no latency).
// Recomputing alone reaches 172040 B; the plan keeps two 32x64 f32
// activations (2 x 8192 B = 2 x 32 * 64 * 4) in host memory between the
// forward and the backward (one of them instead of recomputing it), at
// 172040 - 8192 = 163848 B.  The compiled program, lowered with
// auto-ac-lower-cpu{count-host=1} so that the counting runtime counts the
// host buffers apart, holds exactly that on the device and the 16384 B on
// the host, and prints what the unplanned program prints.  The same on the
// GPU pipeline (auto-ac-lower-gpu, the counting GPU runtime): the host
// buffers are pinned host memory (gpu.host_register), which the runtime
// counts apart from GPU memory, and their copies asynchronous
// (lower/gpu-offload.mlir).
//
// UNSUPPORTED: asan
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '{"@device": {"host_bandwidth": 1e30, "host_latency": 0}}' > %t/link.json
// RUN: %python %inputs/../../tools/ac-measure %inputs/fidelity/small-mlp.mlir --budget=1 --cost-table=%t/link.json --bytes --max-error=0 | FileCheck %s
// RUN: %python %inputs/../../tools/ac-measure %inputs/fidelity/small-mlp.mlir --budget=1 --cost-table=%t/link.json --offload=off --bytes --max-error=0 --no-original | FileCheck %s --check-prefix=OFF
// RUN: %python %inputs/../../tools/ac-measure %inputs/fidelity/small-mlp.mlir --budget=1 --cost-table=%t/link.json --target=gpu --bytes --max-error=0 --no-original | FileCheck %s --check-prefix=GPU
//
// CHECK: original save-all baseline {{[0-9]+}} {{[0-9]+}} +0.00%
// CHECK: planned greedy @ 1 163848 163848 +0.00%
// CHECK-NEXT: host (offloaded 16384) 16384 16384
// CHECK: results equal: yes
//
// Without offload: 8192 B more on the device, no host line.
// OFF: planned greedy @ 1 172040 172040 +0.00%
// OFF-NOT: host (offloaded
//
// GPU: target gpu (device peak, counting GPU runtime)
// GPU: planned greedy @ 1 163848 163848 +0.00%
// GPU-NEXT: host (offloaded 16384) 16384 16384
