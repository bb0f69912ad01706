#include "gpu_restart.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

#include "counter_service.h"
#include "gpu_log.h"
#include "gpu_turn.h"
#include "software_gl.h"

namespace warplens::app {

namespace {

std::mutex restart_mutex;
GpuRestart registered;
std::atomic<bool> parked{false};

}  // namespace

void set_gpu_restart(GpuRestart restart) {
  std::lock_guard lock(restart_mutex);
  registered = std::move(restart);
}

bool gpu_restart_registered() {
  std::lock_guard lock(restart_mutex);
  return static_cast<bool>(registered);
}

bool run_gpu_restart(const std::string& fault) {
  GpuRestart restart;
  {
    // One try: a restart that returns has failed, and the next request falls back to the reset
    // inside the process instead of trying again every frame.
    std::lock_guard lock(restart_mutex);
    restart = std::exchange(registered, nullptr);
  }
  if (!restart) return false;
  gpu_log("restarting the process after: %s", fault.c_str());
  gl_stopped() = true;  // no new frame queues GL work behind the faulted context
  restart(fault);
  gl_stopped() = false;  // the restart returned (it failed, or a test's): frames go on
  return true;
}

std::string self_executable() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("/proc/self/exe") : path.string();
}

namespace {

/// `argv` as execv and posix_spawn take it (pointing into `argv`), the streams flushed first:
/// what a process printed before it is replaced or parked comes out before the new one's.
std::vector<char*> exec_args(const std::vector<std::string>& argv) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return args;
}

}  // namespace

std::string restart_process(const std::vector<std::string>& argv) {
  if (argv.empty()) return "restart: no program given";
  const auto args = exec_args(argv);
  ::execv(argv.front().c_str(), args.data());
  return "restart failed: execv " + argv.front() + ": " + std::strerror(errno);
}

namespace {

constexpr const char* kSupervisorVariable = "WARPLENS_SUPERVISOR";

/// Where the files handed to a new process go: $XDG_RUNTIME_DIR, else the temporary folder.
std::filesystem::path restart_dir() {
  namespace fs = std::filesystem;
  if (const char* run = std::getenv("XDG_RUNTIME_DIR"); run && *run && fs::is_directory(run))
    return run;
  return fs::temp_directory_path();
}

/// Writes `text` to `path` whole (a temporary file renamed into place); throws
/// std::runtime_error naming the file when it cannot.
void write_whole(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path partial = path.string() + ".part";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + partial.string());
  }
  std::error_code ec;
  std::filesystem::rename(partial, path, ec);
  if (ec) throw std::runtime_error("cannot write " + path.string() + ": " + ec.message());
}
volatile sig_atomic_t supervised_child = 0;

void pass_signal_on(int signal) {
  if (supervised_child > 0) ::kill(static_cast<pid_t>(supervised_child), signal);
}

std::optional<std::vector<std::string>> read_request(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    auto args = nlohmann::json::parse(in).get<std::vector<std::string>>();
    if (args.empty()) return std::nullopt;
    return args;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

namespace {

constexpr const char* kSupervisorFdVariable = "WARPLENS_SUPERVISOR_FD";

/// The exit code of a wait status (128 + the signal if a signal ended it).
int exit_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// Reaps the ended ones of `dying` (the faulted processes left to end on their own).
void reap(std::vector<pid_t>& dying, bool wait) {
  for (auto it = dying.begin(); it != dying.end();) {
    int status = 0;
    pid_t got = 0;
    do {
      got = ::waitpid(*it, &status, wait ? 0 : WNOHANG);
    } while (got < 0 && errno == EINTR);
    if (got == 0) {
      ++it;
    } else {
      if (got > 0)
        gpu_log("supervisor: faulted process %d ended (%d)", static_cast<int>(*it),
                exit_code(status));
      it = dying.erase(it);
    }
  }
}

}  // namespace

std::optional<int> run_supervised(int argc, char** argv) {
  if (std::getenv(kSupervisorVariable)) return std::nullopt;
  namespace fs = std::filesystem;
  const std::string request =
      (restart_dir() / ("warplens-restart-" + std::to_string(::getpid()) + ".json")).string();
  ::setenv(kSupervisorVariable, request.c_str(), 1);
  // The child says "restart me" on this pipe as soon as its request is written, and the new
  // process starts then, while the faulted one still ends: the driver took 4.4 s to take back a
  // faulted context that CUPTI profiled (H100, 2026-11-27), and a process started beside it
  // measures at once.
  int notify[2] = {-1, -1};
  if (::pipe(notify) != 0)
    throw std::runtime_error(std::string("supervisor: pipe: ") + std::strerror(errno));
  ::fcntl(notify[0], F_SETFD, FD_CLOEXEC);  // only the write end goes to the children
  ::fcntl(notify[0], F_SETFL, O_NONBLOCK);
  ::setenv(kSupervisorFdVariable, std::to_string(notify[1]).c_str(), 1);
  std::vector<std::string> args = {self_executable()};
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  struct sigaction pass = {};
  pass.sa_handler = pass_signal_on;
  sigemptyset(&pass.sa_mask);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(sig, &pass, nullptr);
  std::vector<pid_t> dying;
  const auto finish = [&](int code) {
    std::error_code ec;
    fs::remove(request, ec);
    reap(dying, true);
    ::close(notify[0]);
    ::close(notify[1]);
    return code;
  };
  for (;;) {
    std::error_code ec;
    fs::remove(request, ec);
    const auto c_args = exec_args(args);
    pid_t child = 0;
    const int e =
        ::posix_spawn(&child, args.front().c_str(), nullptr, nullptr, c_args.data(), environ);
    if (e != 0) {
      finish(0);
      throw std::runtime_error("cannot start " + args.front() + ": " + std::strerror(e));
    }
    supervised_child = child;
    std::optional<int> ended;  // the child's exit code once it ended
    bool asked = false;        // it asked for a restart on the pipe
    while (!ended && !asked) {
      pollfd p{notify[0], POLLIN, 0};
      const int ready = ::poll(&p, 1, 20);
      if (ready > 0 && (p.revents & POLLIN)) {
        char byte = 0;
        while (::read(notify[0], &byte, 1) > 0) {
        }
        asked = true;
      }
      int status = 0;
      const pid_t got = ::waitpid(child, &status, WNOHANG);
      if (got == child) ended = exit_code(status);
      reap(dying, false);
    }
    supervised_child = 0;
    if (asked || *ended == kRestartExitCode) {
      if (auto next = read_request(request)) {
        gpu_log("supervisor: process %d asked for a restart%s", static_cast<int>(child),
                ended ? "" : "; the next starts while it ends");
        if (!ended) dying.push_back(child);
        args = std::move(*next);
        continue;
      }
      if (!ended) {  // a byte without a request: wait for the child as before
        int status = 0;
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        ended = exit_code(status);
      }
    }
    return finish(*ended);
  }
}

bool ask_supervisor_for_restart(const std::vector<std::string>& argv) {
  const char* request = std::getenv(kSupervisorVariable);
  if (!request || !*request || argv.empty()) return false;
  try {
    write_whole(request, nlohmann::json(argv).dump());
  } catch (const std::exception& e) {
    gpu_log("restart not asked of the supervisor: %s", e.what());
    return false;
  }
  parked = true;
  std::fflush(nullptr);
  // Tell the supervisor now: it starts the new process while this one ends (its faulted context
  // may take seconds to go).
  if (const char* fd = std::getenv(kSupervisorFdVariable); fd && *fd) {
    const char byte = 'r';
    if (::write(std::atoi(fd), &byte, 1) == 1) gpu_log("restart asked of the supervisor");
  }
  return true;
}

bool restart_under_supervisor(const std::vector<std::string>& argv) {
  if (!ask_supervisor_for_restart(argv)) return false;
  end_faulted_process();
}

void end_faulted_process() {
  (void)stop_gl_before_exit();
  gpu_log("this process ends");
  std::fflush(nullptr);
  std::_Exit(kRestartExitCode);
}

std::string spawn_and_park(const std::vector<std::string>& argv) {
  if (argv.empty()) return "restart: no program given";
  if (restart_under_supervisor(argv)) return "";  // not reached: the process has ended
  const auto released_from = std::chrono::steady_clock::now();
  release_counter_checker();  // the new process profiles; one profiler at a time per GPU
  gpu_log("counters let go in %.1f ms", std::chrono::duration<double, std::milli>(
                                            std::chrono::steady_clock::now() - released_from)
                                            .count());
  const auto args = exec_args(argv);
  pid_t child = 0;
  const int e = ::posix_spawn(&child, argv.front().c_str(), nullptr, nullptr, args.data(), environ);
  if (e != 0) return "restart failed: cannot start " + argv.front() + ": " + std::strerror(e);
  parked = true;
  gpu_log("started process %d; this one waits for it", static_cast<int>(child));
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::fflush(nullptr);
  std::_Exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

bool process_parked() {
  return parked.load();
}

std::string write_restart_file(const std::string& stem, const std::string& text) {
  const std::filesystem::path path =
      restart_dir() / (stem + "-" + std::to_string(::getpid()) + ".toml");
  write_whole(path, text);
  return path.string();
}

void begin_process_after_fault() {
  if (viz::software_gl_after_fault()) viz::request_software_gl();
  set_serial_gl(true);
  gpu::traces_through_host() = true;
}

void register_gl_frames() {
  gl_finish_hook() = viz::is_software_renderer(viz::current_gl_renderer()) ? nullptr : +[] {
    viz::finish_current_gl();
  };
}

bool settle_process_after_fault() {
  const bool cpu_gl = viz::is_software_renderer(viz::current_gl_renderer());
  set_serial_gl(!cpu_gl);
  return cpu_gl;
}

}  // namespace warplens::app
