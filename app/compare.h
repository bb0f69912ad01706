// A/B compare: two parameter sets of one lab side by side, both measured on the GPU, with the
// ratio of their headline numbers (bandwidth; throughput for the matrix multiply). The window's
// own sessions are side B; side A is a second copy of the global and shared-memory labs (its
// own views, sessions and GPU buffers), made the first time compare is switched on. The two
// sides' workers take turns on the GPU (gpu_turn.h), so neither is timed against the other.
// The cache lab has no compare: its plots already set carveouts side by side.
#pragma once

#include <imgui.h>

#include <memory>
#include <optional>
#include <string>

#include "bank_view.h"
#include "copy_session.h"
#include "heat_strip.h"
#include "imgui_layer.h"
#include "shared_session.h"
#include "theme.h"
#include "warp_view.h"

namespace warplens::app {

/// One side's sessions, by reference: the window's own (B) or CompareSide's (A).
struct LabSide {
  CopySession& session;
  SharedSession& shared;
};

/// Side A: views and sessions of its own. Needs a current GL context for its whole life.
class CompareSide {
 public:
  explicit CompareSide(bool use_gpu);
  CompareSide(const CompareSide&) = delete;
  CompareSide& operator=(const CompareSide&) = delete;

  [[nodiscard]] LabSide side() { return {session, shared}; }

  viz::WarpView view;
  viz::HeatStrip heat;
  viz::BankView bank_view;
  viz::WarpView global_view;
  CopySession session;
  SharedSession shared;
};

/// Where side A lives: nothing until compare is first switched on (A allocates GPU buffers of
/// its own), then kept until the window closes, so switching compare off and on is instant.
class CompareSlot {
 public:
  explicit CompareSlot(bool use_gpu) : use_gpu_(use_gpu) {}
  /// Side A, made on first use (GL context current; throws what the sessions' constructors do).
  CompareSide& side();
  /// Side A if it was made, else nullptr.
  [[nodiscard]] CompareSide* made() const { return side_.get(); }
  /// Once per frame on the GL thread (nothing before A is made).
  void update();
  /// Whether A's sessions have nothing running (true before A is made).
  [[nodiscard]] bool idle() const;

 private:
  bool use_gpu_;
  std::unique_ptr<CompareSide> side_;
};

/// Which labs compare covers: global, banks, transpose, matmul and reduction.
bool lab_has_compare(Lab lab);

/// A side's headline number in `lab`: the global copy's GB/s, the bank pattern's GB/s, the
/// transpose variant's and the reduction variant's GB/s, the multiply's GFLOP/s. GB/s are 10^9
/// bytes/s of what the kernel asks for, read + write (the labs' own definitions).
struct Headline {
  std::optional<double> value;  ///< nullopt: not measured (yet), or no GPU
  std::string unit;             ///< "GB/s" or "GFLOP/s"
  std::string what;             ///< e.g. "padded transpose, read + write"
  bool busy = false;            ///< a measurement is running
  std::string note;             ///< e.g. "WRONG RESULT" or why there is no value
};
Headline headline(Lab lab, const CopySession& session, const SharedSession& shared);

/// B's headline over A's, when both are measured and A's is positive.
std::optional<double> headline_ratio(const Headline& a, const Headline& b);

/// The comparison under the two views, one column per side: the parameters, the model's cost
/// per warp request (sectors or wavefronts), the GPU's counters for the same, the measured
/// headline, then B / A in large type.
void draw_compare_numbers(Lab lab, LabSide a, LabSide b, const viz::ImGuiLayer& layer,
                          const viz::Theme& theme, ImVec2 pos, ImVec2 size);

}  // namespace warplens::app
