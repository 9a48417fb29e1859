#include "trawl/run/cpus.h"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace trawl {
namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::optional<std::int64_t> whole(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

int affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// The smallest quota of the group at `dir` (under `root`) and its parents.
template <class QuotaOf>
std::optional<int> smallest_quota(const std::string& root, std::string dir, const QuotaOf& quota_of) {
  std::optional<int> best;
  for (;;) {
    if (const std::optional<int> q = quota_of(root + dir); q && (!best || *q < *best)) best = q;
    if (dir.empty() || dir == "/") break;
    const std::size_t slash = dir.find_last_of('/');
    dir = slash == std::string::npos || slash == 0 ? "/" : dir.substr(0, slash);
  }
  return best;
}

// The process's cgroup quota, from /proc/self/cgroup: "0::PATH" (v2) or "N:cpu,cpuacct:PATH"
// (v1, any controller list naming cpu).
std::optional<int> cgroup_cpus() {
  std::ifstream in("/proc/self/cgroup");
  std::optional<int> best;
  for (std::string line; std::getline(in, line);) {
    const std::size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = "," + line.substr(a + 1, b - a - 1) + ",", path = line.substr(b + 1);
    std::optional<int> q;
    if (controllers == ",,")
      q = smallest_quota("/sys/fs/cgroup", path, [](const std::string& d) { return cpus_of_cpu_max(first_line(d + "/cpu.max")); });
    else if (controllers.find(",cpu,") != std::string::npos)
      for (const char* mount : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"})
        if (!q)
          q = smallest_quota(mount, path, [](const std::string& d) {
            return cpus_of_quota(first_line(d + "/cpu.cfs_quota_us"), first_line(d + "/cpu.cfs_period_us"));
          });
    if (q && (!best || *q < *best)) best = q;
  }
  return best;
}

}  // namespace

std::optional<int> cpus_of_quota(std::string_view quota, std::string_view period) {
  const std::optional<std::int64_t> q = whole(quota), p = whole(period);
  if (!q || !p || *q <= 0 || *p <= 0) return std::nullopt;
  return static_cast<int>(std::max<std::int64_t>(1, (*q + *p - 1) / *p));
}

std::optional<int> cpus_of_cpu_max(std::string_view cpu_max) {
  const std::size_t space = cpu_max.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  return cpus_of_quota(cpu_max.substr(0, space), cpu_max.substr(space + 1));  // "max": not a number
}

int available_cpus() {
  const int cpus = affinity_cpus();
  const std::optional<int> quota = cgroup_cpus();
  return quota ? std::min(cpus, *quota) : cpus;
}

}  // namespace trawl
