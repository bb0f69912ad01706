// The exit codes every `warplens` verb shares (README, "Exit codes"), and the one way the
// measuring verbs turn a failure into one of them.
#pragma once

#include <iostream>
#include <stdexcept>
#include <string>

namespace warplens::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;     ///< a GPU or file failure while running
inline constexpr int kExitBadInput = 2;    ///< parameters, expressions, presets, sizes refused
inline constexpr int kExitNoDevice = 3;    ///< no CUDA device for a verb that needs one
inline constexpr int kExitNoCounters = 4;  ///< the GPU's hardware counters cannot be read

/// Runs `body` (which returns an exit code) and turns what it throws into one, printing
/// "warplens VERB: what" to stderr: std::invalid_argument is bad input, any other
/// std::exception a runtime failure.
template <typename Body>
int exit_code_of(const char* verb, Body&& body) {
  try {
    return body();
  } catch (const std::invalid_argument& e) {
    std::cerr << "warplens " << verb << ": " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "warplens " << verb << ": " << e.what() << "\n";
    return kExitRuntime;
  }
}

}  // namespace warplens::app
