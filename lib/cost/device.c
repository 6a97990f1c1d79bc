/* device.c - device profiles and roofline time.
 *
 * peakFlops is the dense (no sparsity) tensor-core rate for the 16-bit dtype
 * training runs in (bf16, fp16 on V100); bandwidth is the HBM/GDDR rate from
 * the vendor's data sheet.  "cpu" is a nominal many-core server: 1 TFLOP/s
 * and 100 GB/s, good enough to rank recompute choices, not to predict time.
 * The CPU profiles run PyTorch's CPU kernels, whose workspaces depend on the
 * threads they run with (torch.get_num_threads()): "cpu" assumes 16,
 * "cpuN" N (docs/cost-model.md, "Workspaces").  The GPU profiles' ops have
 * no modelled workspace (cuDNN's is chosen per call: a cost table gives it).
 *
 * The host link (offload, docs/cost-model.md "Host link"): pinned copies
 * per direction, PCIe Gen5 x16 about 55 GB/s (H100, H200, B200, MI300X),
 * Gen4 25 GB/s (A100, L4), Gen3 12 GB/s (V100), NVLink-C2C 450 GB/s
 * (GH200); 10 us per copy (a launch and its synchronisation).  The CPU
 * profiles have none: their "device" memory is the host's. */
#include "autoac/cost.h"

#include <string.h>

static const AcDevice acDevices[] = {
    {"h100", 989e12, 3.35e12, AC_BACKEND_GPU, 0, 55e9, 1e-5},     /* H100 SXM5 80GB: bf16 dense, HBM3 */
    {"h100-pcie", 756e12, 2.0e12, AC_BACKEND_GPU, 0, 55e9, 1e-5}, /* H100 PCIe 80GB */
    {"h200", 989e12, 4.8e12, AC_BACKEND_GPU, 0, 55e9, 1e-5},      /* H200 SXM 141GB: HBM3e */
    {"b200", 2250e12, 8.0e12, AC_BACKEND_GPU, 0, 55e9, 1e-5},     /* B200: bf16 dense, HBM3e */
    {"a100", 312e12, 2.039e12, AC_BACKEND_GPU, 0, 25e9, 1e-5},    /* A100 SXM 80GB: bf16 dense, HBM2e */
    {"v100", 125e12, 0.9e12, AC_BACKEND_GPU, 0, 12e9, 1e-5},      /* V100 SXM2: fp16 tensor core, HBM2 */
    {"l4", 121e12, 0.3e12, AC_BACKEND_GPU, 0, 25e9, 1e-5},        /* L4: bf16 dense, GDDR6 */
    {"gh200", 989e12, 4.0e12, AC_BACKEND_GPU, 0, 450e9, 1e-5}, /* GH200 96GB: NVLink-C2C */
    {"mi300x", 1307e12, 5.3e12, AC_BACKEND_GPU, 0, 55e9, 1e-5},   /* MI300X: bf16 dense, HBM3 */
    {"cpu", 1e12, 1e11, AC_BACKEND_TORCH_CPU, 16, 0, 0},    /* nominal server CPU */
    {"cpu1", 1e12, 1e11, AC_BACKEND_TORCH_CPU, 1, 0, 0},    /* the same, N threads */
    {"cpu2", 1e12, 1e11, AC_BACKEND_TORCH_CPU, 2, 0, 0},
    {"cpu4", 1e12, 1e11, AC_BACKEND_TORCH_CPU, 4, 0, 0},
    {"cpu8", 1e12, 1e11, AC_BACKEND_TORCH_CPU, 8, 0, 0},
    {"cpu16", 1e12, 1e11, AC_BACKEND_TORCH_CPU, 16, 0, 0},
    {"cpu32", 1e12, 1e11, AC_BACKEND_TORCH_CPU, 32, 0, 0},
    {"cpu64", 1e12, 1e11, AC_BACKEND_TORCH_CPU, 64, 0, 0},
    {"cpu128", 1e12, 1e11, AC_BACKEND_TORCH_CPU, 128, 0, 0},
};

static char acLower(char c) {
  return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

const AcDevice *acDeviceLookup(const char *name) {
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof acDevices / sizeof acDevices[0]; ++i) {
    const char *a = acDevices[i].name, *b = name;
    while (*a && acLower(*b) == *a) {
      ++a;
      ++b;
    }
    if (!*a && !*b)
      return &acDevices[i];
  }
  return NULL;
}

const char *acDeviceNames(void) {
  return "h100, h100-pcie, h200, gh200, b200, a100, v100, l4, mi300x, cpu, cpu1, "
         "cpu2, cpu4, cpu8, cpu16, cpu32, cpu64, cpu128";
}

double acCostSeconds(const AcDevice *dev, double flops, double bytesMoved) {
  if (!dev)
    return 0.0;
  double t = 0.0;
  if (dev->peakFlops > 0 && flops > 0)
    t = flops / dev->peakFlops;
  if (dev->bandwidth > 0 && bytesMoved > 0) {
    double m = bytesMoved / dev->bandwidth;
    if (m > t)
      t = m;
  }
  return t;
}
