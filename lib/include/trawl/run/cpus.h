#pragma once
// How many CPUs this process may really use, for the default thread count: a job started
// under `taskset`, a batch scheduler's cpuset or a container's CPU quota must not start a
// thread per core of the machine (oversubscribed threads only slow each other down).
#include <cstdint>
#include <optional>
#include <string_view>

namespace trawl {

// The CPUs of this process's affinity mask, capped by the CPU quota of its cgroup (v2
// cpu.max or v1 cpu.cfs_quota_us / cpu.cfs_period_us, of its own group and every parent),
// rounded up; at least 1.
int available_cpus();

// The CPUs a quota allows, rounded up: v2's "QUOTA PERIOD" (one line of cpu.max; "max" = no
// limit) or v1's quota and period in microseconds (a quota of -1 = no limit). None when
// unlimited or unreadable.
std::optional<int> cpus_of_quota(std::string_view quota, std::string_view period);
std::optional<int> cpus_of_cpu_max(std::string_view cpu_max);

}  // namespace trawl
