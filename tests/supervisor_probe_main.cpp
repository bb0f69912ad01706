// A stand-in for WarpLens under its supervisor (gpu_restart.h), for supervisor_tests:
// `supervisor_probe again N` restarts itself through the supervisor N times, each child printing
// its process id, and the last one ends with exit code 7; `supervisor_probe sleep` waits to be
// signalled (SIGTERM to the supervisor must reach it); `supervisor_probe slow-end` asks for a
// restart and ends 1.5 s later, as a faulted process whose context the driver takes back slowly.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "gpu_restart.h"

int main(int argc, char** argv) {
  if (const auto code = warplens::app::run_supervised(argc, argv)) {
    std::printf("supervisor %d: last child ended with %d\n", static_cast<int>(::getpid()), *code);
    return *code;
  }
  const std::string verb = argc > 1 ? argv[1] : "";
  if (verb == "again" && argc > 2) {
    const int left = std::stoi(argv[2]);
    std::printf("child %d: %d restarts left\n", static_cast<int>(::getpid()), left);
    std::fflush(stdout);
    if (left == 0) return 7;
    warplens::app::restart_under_supervisor(
        {warplens::app::self_executable(), "again", std::to_string(left - 1)});
    std::printf("child %d: the restart returned\n", static_cast<int>(::getpid()));
    return 1;
  }
  if (verb == "slow-end") {  // a faulted process whose end takes a while, as on the H100
    std::printf("child %d: started\n", static_cast<int>(::getpid()));
    std::fflush(stdout);
    if (argc > 2 && std::string(argv[2]) == "last") return 7;
    warplens::app::ask_supervisor_for_restart(
        {warplens::app::self_executable(), "slow-end", "last"});
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    std::printf("child %d: ending\n", static_cast<int>(::getpid()));
    std::fflush(stdout);
    std::_Exit(warplens::app::kRestartExitCode);
  }
  if (verb == "sleep") {
    std::printf("child %d: waiting\n", static_cast<int>(::getpid()));
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::seconds(30));
    return 0;
  }
  return 2;
}
