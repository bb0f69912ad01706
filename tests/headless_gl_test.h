// A GoogleTest fixture for rendering tests: one headless GL context (EGL; Mesa in CI) per test
// suite, and a clean skip naming the reason when the machine has none.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <string>

#include "headless_context.h"

namespace warplens::test {

class HeadlessGlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    try {
      context_ = new viz::HeadlessContext();
    } catch (const std::exception& e) {
      skip_reason_ = e.what();
    }
  }
  static void TearDownTestSuite() {
    delete context_;
    context_ = nullptr;
  }
  void SetUp() override {
    if (!context_) GTEST_SKIP() << "no headless GL: " << skip_reason_;
  }

  static inline viz::HeadlessContext* context_ = nullptr;
  static inline std::string skip_reason_;
};

}  // namespace warplens::test
