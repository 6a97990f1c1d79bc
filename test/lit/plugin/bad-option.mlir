// REQUIRES: plugin
// RUN: mlir-opt %s -verify-diagnostics --allow-unregistered-dialect \
// RUN:   --load-pass-plugin=%plugin --pass-pipeline='builtin.module(auto-ac{budget=lots})'

// expected-error@+1 {{bad value for option 'budget': invalid size 'lots'}}
module {
  func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32> {ac.output}) attributes {ac.joint} {
    return %x : tensor<4xf32>
  }
}
