// The counting allocator (runtime/count_alloc.c) on a hand example whose
// bytes are known: both symbols the lowering may call
// (_mlir_memref_to_llvm_alloc, and _aligned_alloc with use-aligned-alloc),
// the measured region, and a tagged (static) allocation.
//
// The runtime is an uninstrumented library loaded into mlir-runner, which
// an ASan build's library is not.
// UNSUPPORTED: asan
//
// RUN: mlir-opt %s --pass-pipeline='builtin.module(finalize-memref-to-llvm{use-generic-functions=true},convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)' -o %t.ll
// RUN: %python %inputs/../../tools/ac-measure --run-lowered %t.ll | FileCheck %s --check-prefix=GENERIC
// RUN: mlir-opt %s --pass-pipeline='builtin.module(finalize-memref-to-llvm{use-generic-functions=true use-aligned-alloc=true},convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)' -o %t.aligned.ll
// RUN: FileCheck %s --check-prefix=ALIGNED-IR < %t.aligned.ll
// RUN: %python %inputs/../../tools/ac-measure --run-lowered %t.aligned.ll | FileCheck %s --check-prefix=ALIGNED

// Sizes: a 4000 B; b 40 B with alignment 64, which the generic lowering
// over-allocates by the alignment (104 B) and the aligned one rounds up to
// a multiple of it (64 B); c 2000 B; g 1000 B (the aligned lowering rounds
// it up to a multiple of 16: 1008 B).      generic | aligned
//   a                      live 4000        (before the region)
//   begin
//   b                      4104 | 4064
//   c                      6104 | 6064      <- raw peak
//   free c, free b         4000
//   g (tagged)             5000 | 5008
//   end
// Counting g as static from the region's start adds its size to every
// point before it: the peak becomes 7104 | 7072.

// GENERIC: peak_bytes=6104{{$}}
// GENERIC: allocs=4{{$}}
// GENERIC: frees=4{{$}}
// GENERIC: alloc_bytes=7104{{$}}
// GENERIC: live_at_exit=0{{$}}
// GENERIC: region_live_at_begin=4000{{$}}
// GENERIC: region_allocs=3{{$}}
// GENERIC: region_peak_bytes=6104{{$}}
// GENERIC: region_tagged_bytes=1000{{$}}
// GENERIC: region_peak_tagged_static=7104{{$}}

// ALIGNED-IR: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// ALIGNED: peak_bytes=6064{{$}}
// ALIGNED: region_peak_bytes=6064{{$}}
// ALIGNED: region_tagged_bytes=1008{{$}}
// ALIGNED: region_peak_tagged_static=7072{{$}}

func.func private @acMeasureBegin()
func.func private @acMeasureEnd()
func.func private @acMeasureTag(i64)

func.func @main() {
  %a = memref.alloc() : memref<1000xf32>
  call @acMeasureBegin() : () -> ()
  %b = memref.alloc() {alignment = 64} : memref<10xf32>
  %c = memref.alloc() : memref<250xf64>
  memref.dealloc %c : memref<250xf64>
  memref.dealloc %b : memref<10xf32>
  %g = memref.alloc() : memref<250xf32>
  call @acMeasureEnd() : () -> ()
  // Tag through an address inside the block, as the harness does.
  %p = memref.extract_aligned_pointer_as_index %g : memref<250xf32> -> index
  %q = arith.index_cast %p : index to i64
  %c8 = arith.constant 8 : i64
  %r = arith.addi %q, %c8 : i64
  call @acMeasureTag(%r) : (i64) -> ()
  memref.dealloc %g : memref<250xf32>
  memref.dealloc %a : memref<1000xf32>
  return
}
