import os
import sys
import lit.formats

config.name = "autoac"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.autoac_obj_root, "test")

path = os.pathsep.join([config.autoac_bin_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

plugin = os.path.join(config.autoac_lib_dir, "AutoACPlugin.so")
config.substitutions.append(("%plugin", plugin))
# The interpreter CMake found (find_package(Python3)), else lit's own.
config.substitutions.append(("%python", getattr(config, "python_executable", "") or sys.executable))
config.substitutions.append(("%inputs", os.path.join(config.autoac_src_root, "test", "Inputs")))
config.substitutions.append(("%corpus", os.path.join(config.autoac_src_root, "examples", "corpus")))
config.substitutions.append(("%llvmlib", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))
config.substitutions.append(("%autoac_build", config.autoac_obj_root))
config.substitutions.append(("%run_cpu", os.path.join(config.autoac_src_root, "test", "Inputs", "run-cpu.sh")))
if config.autoac_sanitize:
    # mlir-opt is not instrumented: the plugin cannot be loaded into it.
    config.available_features.add("asan")
else:
    config.available_features.add("plugin")
# ac-opt's heap is jemalloc's (tools/ac-opt/allocator.c).
if getattr(config, "autoac_jemalloc", False):
    config.available_features.add("jemalloc")
# A CUDA driver on this machine (runtime/count_cuda.c would run kernels).
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass
# Output-target tests make their own device nodes (mknod) when run as root.
if hasattr(os, "geteuid") and os.geteuid() == 0:
    config.available_features.add("root")
# torch-mlir's FX importer (and torch-mlir-opt) with torch 2.x: the Python
# of $AUTOAC_MLIR_PYTHON (scripts/test.sh sets it to what scripts/mlir-env.sh
# prints), else the configured one, when it imports torch_mlir.fx.
# %mlir_python runs it with autoac's package and library; %torch_mlir_opt
# is the torch-mlir-opt next to it.
import subprocess
_mlir_py = os.environ.get("AUTOAC_MLIR_PYTHON") or getattr(config, "python_executable", "") \
    or sys.executable
try:
    _ok = subprocess.run([_mlir_py, "-c", "import torch, torch_mlir.fx"], capture_output=True,
                         timeout=120).returncode == 0
except (OSError, subprocess.TimeoutExpired):
    _ok = False
# Under the sanitizers the Python side cannot load the instrumented library
# (torch aborts under a preloaded ASan runtime): it loads the uninstrumented
# one named by $AUTOAC_MLIR_LIBRARY (scripts/test.sh: build/lib), and the
# tools it feeds (ac-opt, ac-measure) stay instrumented.  Without it the
# feature is off under ASan.
_mlir_lib = os.path.join(config.autoac_lib_dir, "libautoac.so")
if config.autoac_sanitize:
    _mlir_lib = os.environ.get("AUTOAC_MLIR_LIBRARY", "")
    _ok = _ok and os.path.exists(_mlir_lib)
if _ok:
    config.available_features.add("torch-mlir")
    config.substitutions.append(("%torch_mlir_opt", os.path.join(os.path.dirname(_mlir_py),
                                                                 "torch-mlir-opt")))
    config.substitutions.append(("%mlir_python", "env PYTHONPATH=%s AUTOAC_LIBRARY=%s %s -W ignore" % (
        os.path.join(config.autoac_src_root, "python"),
        _mlir_lib, _mlir_py)))
