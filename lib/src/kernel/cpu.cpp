// The one CPU probe (trawl/kernel/cpu.h).
#include "trawl/kernel/cpu.h"

namespace trawl {
namespace {

CpuFeatures probe() {
  CpuFeatures f;
#if defined(__x86_64__)
  __builtin_cpu_init();
  f.popcnt = __builtin_cpu_supports("popcnt");
  f.avx2 = __builtin_cpu_supports("avx2");
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512bw = __builtin_cpu_supports("avx512bw");
  f.avx512bitalg = __builtin_cpu_supports("avx512bitalg");
  f.avx512vbmi = __builtin_cpu_supports("avx512vbmi");
  f.avx512vpopcntdq = __builtin_cpu_supports("avx512vpopcntdq");
#endif
  return f;
}

}  // namespace

const CpuFeatures& cpu_features() {
  static const CpuFeatures features = probe();
  return features;
}

}  // namespace trawl
