// Kernel choice. The SIMD kernels live in their own translation units built with their own
// -m flags; this file is generic and only calls them after the CPU probe (cpu.cpp).
#include "trawl/kernel/cpu.h"
#include "trawl/kernel/kernel.h"

namespace trawl {

std::vector<const KernelFns*> available_kernels() {
  std::vector<const KernelFns*> k = {&scalar_kernel()};
  const CpuFeatures& cpu = cpu_features();
  if (cpu.avx2) k.push_back(&avx2_kernel());
  if (cpu.avx512f) k.push_back(&avx512_kernel());
  return k;
}

const KernelFns* find_kernel(std::string_view name) {
  const auto k = available_kernels();
  if (name == "auto") return k.back();
  for (const KernelFns* f : k)
    if (name == f->name) return f;
  return nullptr;
}

}  // namespace trawl
