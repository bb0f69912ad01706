// The supervisor that restarts WarpLens after a sticky GPU fault (gpu_restart.h), without a GPU:
// every restart asked for starts a new child with the arguments it left, the supervisor ends
// with the last child's exit code, and a signal to the supervisor reaches the child.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Run {
  int exit_code = -1;
  std::string output;
};

Run run(const std::string& command) {
  Run r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(Supervisor, EachRestartStartsANewChildAndTheLastOnesExitCodeComesBack) {
  const auto r = run(std::string(SUPERVISOR_PROBE) + " again 2");
  EXPECT_EQ(r.exit_code, 7) << r.output;
  std::set<std::string> children;
  const std::regex child(R"(child (\d+): (\d) restarts left)");
  for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), child);
       it != std::sregex_iterator(); ++it)
    children.insert((*it)[1]);
  EXPECT_EQ(children.size(), 3u) << r.output;  // three processes: 2, 1, 0 restarts left
  EXPECT_NE(r.output.find("0 restarts left"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("the restart returned"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("last child ended with 7"), std::string::npos) << r.output;
}

TEST(Supervisor, TheNewChildStartsWhileTheOneThatAskedStillEnds) {
  const auto r = run(std::string(SUPERVISOR_PROBE) + " slow-end");
  EXPECT_EQ(r.exit_code, 7) << r.output;  // the last child's code, after the slow one ended
  const std::regex started(R"(child (\d+): started)");
  std::vector<std::string> children;
  for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), started);
       it != std::sregex_iterator(); ++it)
    children.push_back((*it)[1]);
  ASSERT_EQ(children.size(), 2u) << r.output;
  const auto second_started = r.output.find("child " + children[1] + ": started");
  const auto first_ended = r.output.find("child " + children[0] + ": ending");
  ASSERT_NE(first_ended, std::string::npos) << r.output;
  // The slow one sleeps 1.5 s after asking: the second was started in that time, not after.
  EXPECT_LT(second_started, first_ended) << r.output;
  EXPECT_LT(first_ended, r.output.find("last child ended with 7")) << r.output;
}

TEST(Supervisor, ASignalToTheSupervisorReachesTheChild) {
  const pid_t supervisor = ::fork();
  ASSERT_GE(supervisor, 0);
  if (supervisor == 0) {
    ::execl(SUPERVISOR_PROBE, SUPERVISOR_PROBE, "sleep", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the child is waiting by now
  const auto t0 = std::chrono::steady_clock::now();
  ::kill(supervisor, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(supervisor, &status, 0), supervisor);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);  // the child ended by the signal passed on
  EXPECT_LT(s, 20.0) << "the child slept on: the signal did not reach it";
}

}  // namespace
