// REQUIRES: plugin
// The pass form of option buckets: a bad value, and a dimension that is
// not dynamic.
// RUN: mlir-opt %s -verify-diagnostics \
// RUN:   --load-pass-plugin=%plugin --pass-pipeline='builtin.module(auto-ac{buckets=arg0.0:8,4})'
// RUN: not mlir-opt %s --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline='builtin.module(auto-ac{buckets=arg0.1:2})' 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: error: autoac: option 'buckets' names arg0.1, which is no dynamic dimension of an argument of '@f' (argument #0 has rank 2 and that dimension is static)

// expected-error@+1 {{bad value for option 'buckets': 'arg0.0:8,4': bucket bounds must increase strictly (4 after 8)}}
module {
  func.func @f(%x: tensor<?x4xf32> {ac.max_shape = array<i64: 8, -1>}) -> (tensor<?x4xf32> {ac.output}) attributes {ac.joint} {
    return %x : tensor<?x4xf32>
  }
}
