// Runs one command and prints what a whole process cost, for scripts/bench_e2e.sh:
//
//   run_timed OUT STDOUT_FILE CMD [ARGS...]
//
// CMD's stdout goes to STDOUT_FILE (e.g. /dev/null), its stderr to OUT.stderr; OUT gets one
// line "wall_s user_s sys_s maxrss_kb exit_status" (microsecond resolution: GNU time prints
// user and system time in steps of 10 ms, too coarse for runs of a tenth of a second).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace {

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: run_timed OUT STDOUT_FILE CMD [ARGS...]\n");
    return 2;
  }
  const std::string out = argv[1], err = out + ".stderr";
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    std::perror("run_timed: fork");
    return 2;
  }
  if (pid == 0) {
    const int o = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
    execvp(argv[3], argv + 3);
    _exit(127);
  }
  int status = 0;
  rusage ru{};
  if (wait4(pid, &status, 0, &ru) < 0) {
    std::perror("run_timed: wait4");
    return 2;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::FILE* f = std::fopen(out.c_str(), "w");
  if (!f) return 2;
  std::fprintf(f, "%.4f %.4f %.4f %ld %d\n", wall, seconds(ru.ru_utime), seconds(ru.ru_stime),
               ru.ru_maxrss, code);
  std::fclose(f);
  return code;
}
