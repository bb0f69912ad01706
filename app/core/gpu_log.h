// A diagnostic trace of the GPU path on stderr: with WARPLENS_GPU_LOG set, the labs' workers, the
// counter service and the GPU recovery print one line per event (a job's failure, a counter
// read-out and its time, a reset), stamped with the milliseconds since the process started and
// the system's monotonic clock in ms (the same in every process: a restarted process's lines line
// up with its parent's). Off by default; for runs on a GPU machine whose window nobody watches.
#pragma once

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace warplens::app {

[[nodiscard]] inline bool gpu_log_enabled() {
  static const bool on = std::getenv("WARPLENS_GPU_LOG") != nullptr;
  return on;
}

/// printf-style; one line, the newline added.
__attribute__((format(printf, 1, 2))) inline void gpu_log(const char* format, ...) {
  if (!gpu_log_enabled()) return;
  static const auto start = std::chrono::steady_clock::now();
  const auto now = std::chrono::steady_clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - start).count();
  const double mono = std::chrono::duration<double, std::milli>(now.time_since_epoch()).count();
  char line[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  std::fprintf(stderr, "[gpu %9.1f ms | mono %.1f] %s\n", ms, mono, line);
  std::fflush(stderr);
}

}  // namespace warplens::app
