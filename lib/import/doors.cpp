//===- doors.cpp - the MLIR helpers the import and the pass share ---------===//
//
// What the import and the tools need from MLIR beyond its C API: warnings
// and remarks (the C API only has mlirEmitError), the side-effect query (no
// C door to isMemoryEffectFree), an MlirStringCallback into an AcStrBuf, and
// printing an op into an AcStrBuf through a buffered stream (the C API's
// stream is unbuffered), optionally without re-verifying it.  They
// live here, below the pass, so that the import does not depend on
// lib/pass (lib/pass/registration.cpp keeps pass registration and the
// plugin entry).  Declared in import/ir.h.
//
//===----------------------------------------------------------------------===//
#include "import/ir.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

extern "C" void acStrBufMlirCallback(MlirStringRef text, void *strbuf) {
  acStrBufAppend(static_cast<AcStrBuf *>(strbuf), text.data, text.length);
}

namespace {
/// A buffered raw_ostream appending to an AcStrBuf.  The C API prints through
/// an unbuffered stream and a std::function per token, which made printing
/// a 14 MB module take twice as long as mlir-opt's (buffered) printing.
class StrBufOstream final : public llvm::raw_ostream {
  AcStrBuf *buf;
  uint64_t pos = 0;
  void write_impl(const char *ptr, size_t size) override {
    acStrBufAppend(buf, ptr, size);
    pos += size;
  }
  uint64_t current_pos() const override { return pos; }

public:
  explicit StrBufOstream(AcStrBuf *b) : buf(b) { SetBufferSize(1 << 16); }
  ~StrBufOstream() override { flush(); }
};
} // namespace

extern "C" int acPrintOp(MlirOperation op, int verified, AcStrBuf *out) {
  mlir::OpPrintingFlags flags;
  if (verified)
    flags.assumeVerified();
  {
    StrBufOstream os(out);
    unwrap(op)->print(os, flags);
  }
  return out->failed ? -1 : 0;
}

extern "C" void acEmitDiagnostic(MlirLocation loc, int severity,
                                 const char *message) {
  mlir::Location l = unwrap(loc);
  if (severity == 1)
    mlir::emitWarning(l) << message;
  else
    mlir::emitRemark(l) << message;
}

extern "C" int acOpMemoryEffectFree(MlirOperation op) {
  mlir::Operation *o = unwrap(op);
  if (!o->isRegistered())
    return -1;
  return mlir::isMemoryEffectFree(o) ? 1 : 0;
}

extern "C" int acOpWrittenValues(MlirOperation op,
                                 void (*written)(MlirValue, void *),
                                 void *user) {
  mlir::Operation *o = unwrap(op);
  if (!o->isRegistered())
    return -1;
  std::optional<llvm::SmallVector<mlir::MemoryEffects::EffectInstance>> effects =
      mlir::getEffectsRecursively(o);
  if (!effects)
    return 0;
  int known = 1;
  for (const mlir::MemoryEffects::EffectInstance &e : *effects) {
    if (!llvm::isa<mlir::MemoryEffects::Write, mlir::MemoryEffects::Free>(
            e.getEffect()))
      continue;
    mlir::Value v = e.getValue();
    if (!v) {
      known = 0; /* a write of memory it does not name */
      continue;
    }
    written(wrap(v), user);
  }
  return known;
}
