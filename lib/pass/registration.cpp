//===- registration.cpp - pass registration and the plugin entry (C++) ----===//
//
// The C API has no door for three things: registering a pass in MLIR's global
// registry with printable options (so `auto-ac{budget=24GB}` parses and
// survives --dump-pass-pipeline), the mlir-opt plugin entry point, and
// parsing with autoac's nesting guard.  (Warnings and the side-effect query,
// which the import needs too, are lib/import/doors.cpp.)  Everything else
// is C: the pass
// bodies call acRunOnModule, acFreeAtLastUse and acGpuBuffers, and the named
// pipelines auto-ac-lower-cpu/gpu are parsed from acLowerPipeline's text.
//
//===----------------------------------------------------------------------===//
#include "autoac/autoac.h"
#include "import/import.h"
#include "autoac/lower.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {
/// The files auto-ac instances of one pipeline will write (report=,
/// plan-out=).  Two instances naming one file in one context would each
/// replace it, the last one winning (`builtin.module(auto-ac{report=r},
/// auto-ac{report=r})`): both are refused before anything is written.  A
/// claim is shared by an instance and its clones (the pass manager clones
/// nested pipelines per thread) and dies with the last of them, so the
/// registry holds weak references; a conflict found by the later instance is
/// written into both claims.
struct FileClaim {
  std::string conflict; ///< The file another instance also writes, or "".
};
struct ClaimEntry {
  mlir::MLIRContext *context;
  std::string path;
  std::weak_ptr<FileClaim> claim;
};
std::mutex claimMutex;
std::vector<ClaimEntry> claimRegistry;

/// `file` as an absolute path without `.` or `..`, so `r.json` and
/// `./r.json` are one file.
std::string claimKey(const std::string &file) {
  llvm::SmallString<256> path(file);
  (void)llvm::sys::fs::make_absolute(path);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return std::string(path.str());
}

/// Registers `claim` for `file` in `context`; marks it and every other live
/// claim on the same file in the same context as conflicting.
void claimFile(mlir::MLIRContext *context, const std::string &file,
               const std::shared_ptr<FileClaim> &claim) {
  std::string key = claimKey(file);
  std::lock_guard<std::mutex> lock(claimMutex);
  std::vector<ClaimEntry> live;
  for (ClaimEntry &e : claimRegistry) {
    std::shared_ptr<FileClaim> other = e.claim.lock();
    if (!other)
      continue;
    if (other != claim && e.context == context && e.path == key) {
      other->conflict = file;
      claim->conflict = file;
    }
    live.push_back(e);
  }
  live.push_back({context, key, claim});
  claimRegistry.swap(live);
}

struct AutoACPass
    : public mlir::PassWrapper<AutoACPass, mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AutoACPass)

  AutoACPass() = default;
  AutoACPass(const AutoACPass &other) : PassWrapper(other), claim(other.claim) {}

  /// Shared with this instance's clones; see FileClaim.
  std::shared_ptr<FileClaim> claim = std::make_shared<FileClaim>();

  /// Runs for every instance of the pipeline before any of them runs: claims
  /// the files this instance writes (see FileClaim).
  mlir::LogicalResult initialize(mlir::MLIRContext *context) override {
    claim->conflict.clear();
    if (opt_report.hasValue() && !opt_report.getValue().empty())
      claimFile(context, opt_report.getValue(), claim);
    if (opt_planOut.hasValue() && !opt_planOut.getValue().empty())
      claimFile(context, opt_planOut.getValue(), claim);
    return mlir::success();
  }

  llvm::StringRef getArgument() const final { return "auto-ac"; }
  llvm::StringRef getDescription() const final {
    return "Plan activation checkpointing for ac.joint functions under a "
           "memory budget and split them into forward/backward functions";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::scf::SCFDialect, mlir::func::FuncDialect>();
  }

  // The pass's options, from the one table (autoac/options.def): each PASS
  // option, FLAG kinds as Option<bool> and every other kind as a string.
#define AC_PASS_OPTION_PASS(NAME, FIELD, KIND, HELP) AC_PASS_OPTION_##KIND(NAME, FIELD, HELP)
#define AC_PASS_OPTION_TOOL(NAME, FIELD, KIND, HELP)
#define AC_PASS_OPTION_STRING(NAME, FIELD, HELP)                               \
  Option<std::string> opt_##FIELD{*this, NAME, llvm::cl::desc(HELP)};
#define AC_PASS_OPTION_SIZE AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_OPTIMIZER AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_STRATEGY AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_MODE AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_DEVICE AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_COUNT AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_FILE AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_RNG AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_SECONDS AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_GRADS AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_TANGENTS AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_OFFLOAD AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_DIMS AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_BUCKETS AC_PASS_OPTION_STRING
#define AC_PASS_OPTION_FLAG(NAME, FIELD, HELP)                                 \
  Option<bool> opt_##FIELD{*this, NAME, llvm::cl::desc(HELP), llvm::cl::init(false)};
#define AC_OPTION(NAME, FIELD, KIND, SCOPE, DEFAULT, HELP)                      \
  AC_PASS_OPTION_##SCOPE(NAME, FIELD, KIND, HELP)
#include "autoac/options.def"
#undef AC_OPTION

  /// Hands option `opt` to acOptionsSet when it was given: a string, even
  /// an empty one (`budget=` is refused there, as ac-opt's `--ac-budget=`
  /// is), a flag that is on.
  static bool given(const Option<std::string> &opt, std::string &text) {
    if (!opt.hasValue())
      return false;
    text = opt.getValue();
    return true;
  }
  static bool given(const Option<bool> &opt, std::string &text) {
    if (!opt)
      return false;
    text = "true";
    return true;
  }

  /// The modules `depth` levels below `op` (op itself when 0): those the
  /// pass runs on when it is nested as deep as the one at hand.  Only the
  /// levels above them are walked, which no pass instance is changing.
  static int64_t modulesAt(mlir::Operation *op, int depth) {
    if (depth == 0)
      return mlir::isa<mlir::ModuleOp>(op) ? 1 : 0;
    int64_t n = 0;
    for (mlir::Region &r : op->getRegions())
      for (mlir::Block &b : r)
        for (mlir::Operation &child : b)
          n += modulesAt(&child, depth - 1);
    return n;
  }

  /// A nested pipeline (builtin.module(builtin.module(auto-ac{...}))) runs
  /// one instance per nested module, each of which would replace the same
  /// report or plan file, the last one winning: refused in every instance,
  /// before anything is written, so the outcome does not depend on the
  /// order the instances run in (docs/contract.md, section 1).
  static bool oneInstanceWrites(mlir::ModuleOp module, const char *file) {
    mlir::Operation *top = module.getOperation();
    int depth = 0;
    while (top->getParentOp()) {
      top = top->getParentOp();
      ++depth;
    }
    int64_t n = depth ? modulesAt(top, depth) : 1;
    if (n <= 1)
      return true;
    module.emitError() << "autoac: auto-ac runs once for each of the " << n
                       << " modules nested at this depth, and every run would "
                       << "replace '" << file << "': refused; put each module in "
                       << "its own file and run autoac once per file";
    return false;
  }

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    AcOptions *opts = acOptionsCreate();
    if (!opts) {
      module.emitError("autoac: out of memory");
      return signalPassFailure();
    }
    bool ok = true;
    std::string text;
    AcError err;
#define AC_SET_PASS(NAME, FIELD)                                               \
  if (ok && given(opt_##FIELD, text)) {                                        \
    acErrorClear(&err);                                                        \
    if (acOptionsSet(opts, NAME, text.c_str(), &err) != AC_OK) {               \
      module.emitError() << err.message;                                       \
      ok = false;                                                              \
    }                                                                          \
  }
#define AC_SET_TOOL(NAME, FIELD)
#define AC_OPTION(NAME, FIELD, KIND, SCOPE, DEFAULT, HELP) AC_SET_##SCOPE(NAME, FIELD)
#include "autoac/options.def"
#undef AC_OPTION
    if (ok && !claim->conflict.empty()) {
      module.emitError() << "autoac: two auto-ac passes of this pipeline write '"
                         << claim->conflict << "', and the later would replace "
                         << "the earlier's file: refused; give each its own file";
      ok = false;
    }
    if (ok && (opts->report || opts->planOut))
      ok = oneInstanceWrites(module, opts->report ? opts->report : opts->planOut);
    if (ok) {
      // A signal while the report or plan is staged removes its temporary.
      acSignalCleanupInstall();
      ok = acRunOnModule(wrap(module.getOperation()), opts) == AC_OK;
    }
    acOptionsDestroy(opts);
    if (!ok)
      signalPassFailure();
  }
};
/// auto-ac-free-at-last-use: the body is acFreeAtLastUse (lib/lower/free.c).
struct FreeAtLastUsePass
    : public mlir::PassWrapper<FreeAtLastUsePass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FreeAtLastUsePass)

  llvm::StringRef getArgument() const final { return "auto-ac-free-at-last-use"; }
  llvm::StringRef getDescription() const final {
    return "After bufferization and buffer-deallocation-pipeline: free every "
           "buffer right after its last use (aliases included) and honour "
           "ac.owned arguments (the callee frees them)";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
  }
  void runOnOperation() override {
    if (acFreeAtLastUse(wrap(getOperation().getOperation()), nullptr) != AC_OK)
      signalPassFailure();
  }
};

/// auto-ac-copy-returned-views: the body is acCopyReturnedViews
/// (lib/lower/viewcopy.c).
struct CopyReturnedViewsPass
    : public mlir::PassWrapper<CopyReturnedViewsPass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CopyReturnedViewsPass)

  llvm::StringRef getArgument() const final { return "auto-ac-copy-returned-views"; }
  llvm::StringRef getDescription() const final {
    return "Before one-shot-bufferize: a returned view whose layout an "
           "identity-layout result cannot take is copied right after the "
           "view, not at the return (its base dies earlier)";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::bufferization::BufferizationDialect,
                    mlir::tensor::TensorDialect>();
  }
  void runOnOperation() override {
    if (acCopyReturnedViews(wrap(getOperation().getOperation()), nullptr) != AC_OK)
      signalPassFailure();
  }
};

/// auto-ac-to-linalg: the body is acToLinalg
/// (lib/lower/tolinalg.c).
struct ToLinalgPass
    : public mlir::PassWrapper<ToLinalgPass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ToLinalgPass)

  llvm::StringRef getArgument() const final { return "auto-ac-to-linalg"; }
  llvm::StringRef getDescription() const final {
    return "Before one-shot-bufferize: arith/math ops on tensors become a "
           "linalg.generic writing into a fresh tensor.empty (a new buffer, "
           "as the planner counts it)";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect,
                    mlir::arith::ArithDialect>();
  }
  void runOnOperation() override {
    if (acToLinalg(wrap(getOperation().getOperation()), nullptr) != AC_OK)
      signalPassFailure();
  }
};

/// auto-ac-copy-before-write: the body is acCopyBeforeWrite
/// (lib/lower/writecopy.c).
struct CopyBeforeWritePass
    : public mlir::PassWrapper<CopyBeforeWritePass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CopyBeforeWritePass)

  llvm::StringRef getArgument() const final { return "auto-ac-copy-before-write"; }
  llvm::StringRef getDescription() const final {
    return "Before one-shot-bufferize: a write whose init's storage is read "
           "later writes into a fresh copy made right at the write (where "
           "the planner counts it), not wherever bufferization would copy";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::bufferization::BufferizationDialect,
                    mlir::tensor::TensorDialect>();
  }
  void runOnOperation() override {
    if (acCopyBeforeWrite(wrap(getOperation().getOperation()), nullptr) != AC_OK)
      signalPassFailure();
  }
};

/// auto-ac-gpu-buffers: the body is acGpuBuffers (lib/lower/gpubuf.c).
struct GpuBuffersPass
    : public mlir::PassWrapper<GpuBuffersPass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GpuBuffersPass)

  llvm::StringRef getArgument() const final { return "auto-ac-gpu-buffers"; }
  llvm::StringRef getDescription() const final {
    return "Host buffers in GPU memory: memref.alloc/dealloc of host code "
           "become gpu.alloc host_shared/gpu.dealloc";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::gpu::GPUDialect>();
  }
  void runOnOperation() override {
    if (acGpuBuffers(wrap(getOperation().getOperation()), nullptr) != AC_OK)
      signalPassFailure();
  }
};

/// auto-ac-count-host: the body is acCountHost (lib/lower/hostcount.c).
struct CountHostPass
    : public mlir::PassWrapper<CountHostPass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CountHostPass)

  llvm::StringRef getArgument() const final { return "auto-ac-count-host"; }
  llvm::StringRef getDescription() const final {
    return "Before one-shot-bufferize: a call to acMeasureHostNext() before "
           "every offloaded save's host buffer, for the counting runtime "
           "(libac_count_alloc) to count it as host memory";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::func::FuncDialect>();
  }
  void runOnOperation() override {
    if (acCountHost(wrap(getOperation().getOperation()), nullptr) != AC_OK)
      signalPassFailure();
  }
};

/// auto-ac-offload-locs: the body is acOffloadLocs (lib/lower/gpucopy.c).
struct OffloadLocsPass
    : public mlir::PassWrapper<OffloadLocsPass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OffloadLocsPass)

  llvm::StringRef getArgument() const final { return "auto-ac-offload-locs"; }
  llvm::StringRef getDescription() const final {
    return "Before one-shot-bufferize: offloaded saves' buffers and copies "
           "(ac.offload, ac.prefetch) named in their locations, for "
           "auto-ac-gpu-buffers to pin and overlap after bufferization";
  }
  void runOnOperation() override {
    if (acOffloadLocs(wrap(getOperation().getOperation()), nullptr) != AC_OK)
      signalPassFailure();
  }
};

/// Options of auto-ac-lower-cpu and auto-ac-lower-gpu.
struct LowerOptions : public mlir::PassPipelineOptions<LowerOptions> {
  Option<int64_t> bufferAlignment{
      *this, "buffer-alignment",
      llvm::cl::desc("one-shot-bufferize buffer-alignment (0: exact sizes)"),
      llvm::cl::init(64)};
  Option<bool> genericFunctions{
      *this, "use-generic-functions",
      llvm::cl::desc("CPU: allocate through _mlir_memref_to_llvm_alloc/free "
                     "(finalize-memref-to-llvm use-generic-functions)"),
      llvm::cl::init(false)};
  Option<bool> countHost{
      *this, "count-host",
      llvm::cl::desc("CPU: run auto-ac-count-host: the counting runtime "
                     "(libac_count_alloc) counts offloaded saves' host "
                     "buffers apart from device memory"),
      llvm::cl::init(false)};
};

/// Builds a named lowering pipeline from its text (acLowerPipeline).
void buildLowering(mlir::OpPassManager &pm, const LowerOptions &o,
                   AcLowerTarget target) {
  AcLowerOptions opts = {o.bufferAlignment, o.genericFunctions ? 1 : 0,
                         o.countHost ? 1 : 0};
  AcStrBuf text = {};
  if (acLowerPipeline(target, &opts, &text) != AC_OK) {
    acStrBufClear(&text);
    llvm::report_fatal_error("autoac: out of memory building a pipeline");
  }
  std::string pipeline(text.data, text.len);
  acStrBufClear(&text);
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("autoac: the lowering pipeline does not parse");
}
} // namespace

extern "C" void acRegisterPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::PassRegistration<AutoACPass>();
    mlir::PassRegistration<FreeAtLastUsePass>();
    mlir::PassRegistration<CopyReturnedViewsPass>();
    mlir::PassRegistration<CopyBeforeWritePass>();
    mlir::PassRegistration<ToLinalgPass>();
    mlir::PassRegistration<GpuBuffersPass>();
    mlir::PassRegistration<CountHostPass>();
    mlir::PassRegistration<OffloadLocsPass>();
    mlir::PassPipelineRegistration<LowerOptions>(
        "auto-ac-lower-cpu",
        "Lower autoac's split output to the LLVM dialect with every buffer "
        "freed at its last use: one-shot-bufferize, "
        "buffer-deallocation-pipeline, auto-ac-free-at-last-use, CPU lowering",
        [](mlir::OpPassManager &pm, const LowerOptions &o) {
          buildLowering(pm, o, AC_LOWER_CPU);
        });
    mlir::PassPipelineRegistration<LowerOptions>(
        "auto-ac-lower-gpu",
        "Lower autoac's split output to GPU kernels (NVVM, PTX) with every "
        "buffer in GPU memory and freed at its last use: one-shot-bufferize, "
        "buffer-deallocation-pipeline, auto-ac-free-at-last-use, "
        "auto-ac-gpu-buffers, linalg to parallel loops to gpu.launch, "
        "gpu-lower-to-nvvm-pipeline",
        [](mlir::OpPassManager &pm, const LowerOptions &o) {
          buildLowering(pm, o, AC_LOWER_GPU);
        });
  });
}

extern "C" MlirOperation acParseModule(MlirContext ctx, const char *text,
                                       size_t len, const char *sourceName) {
  int line = 0, column = 0;
  if (acTextNestsDeeper(text, len, AC_MAX_NESTING, &line, &column)) {
    mlir::emitError(mlir::FileLineColLoc::get(
        unwrap(ctx), sourceName ? sourceName : "<text>", line, column))
        << "autoac: the input nests brackets, attributes or regions more than "
        << AC_MAX_NESTING << " levels deep here; it is refused before parsing "
        << "(MLIR's recursive parser would overflow the stack)";
    return MlirOperation{nullptr};
  }
  mlir::ParserConfig config(unwrap(ctx));
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(
      llvm::StringRef(text, len), config, sourceName ? sourceName : "<text>");
  if (!module)
    return MlirOperation{nullptr};
  return wrap(module.release().getOperation());
}

// Exported from the plugin (the library builds with hidden visibility);
// libautoac.so's version script keeps it out of the shared library.
extern "C" AUTOAC_API LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AutoAC", LLVM_VERSION_STRING,
          []() { acRegisterPasses(); }};
}
