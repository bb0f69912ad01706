// Helpers for the tests of the labs' worker threads without a GPU (lab_worker.h): a stand-in lab,
// and a wait for what a worker does on its own thread.
#pragma once

#include <chrono>
#include <thread>

namespace warplens::app::test {

/// A lab that owns nothing: the worker's type argument where no GPU is touched.
struct FakeLab {};

/// Whether `done()` holds within 30 s, asked every 10 ms (CI runs these beside other tests on two
/// cores: the limit only bounds a failing test, it is not a verdict on time).
template <typename Done>
bool eventually(Done&& done) {
  for (int i = 0; i < 3000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace warplens::app::test
