//===- doors.cpp - the MLIR helpers the import and the pass share ---------===//
//
// What the import needs from MLIR beyond its C API, and the text callback
// every MLIR edge prints through, and the printing of a verified op:
// warnings and remarks (the C API only has
// mlirEmitError), the side-effect query (no C door to
// isMemoryEffectFree), and an MlirStringCallback into an AcStrBuf.  They
// live here, below the pass, so that the import does not depend on
// lib/pass (lib/pass/registration.cpp keeps pass registration and the
// plugin entry).  Declared in import/import.h.
//
//===----------------------------------------------------------------------===//
#include "import/import.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

extern "C" void acStrBufMlirCallback(MlirStringRef text, void *strbuf) {
  acStrBufAppend(static_cast<AcStrBuf *>(strbuf), text.data, text.length);
}

extern "C" int acPrintVerified(MlirOperation op, AcStrBuf *out) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsAssumeVerified(flags);
  mlirOperationPrintWithFlags(op, flags, acStrBufMlirCallback, out);
  mlirOpPrintingFlagsDestroy(flags);
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
