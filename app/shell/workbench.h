// The live labs of one window or one headless render: an instance of each lab shown so far
// (side B) and, for A/B compare, a second instance of the labs compared (side A). Instances
// are made on first use, on the GL thread, and kept until the workbench goes, so switching
// labs or compare off and on is instant.
#pragma once

#include <memory>
#include <vector>

#include "lab.h"
#include "strip_scale.h"

namespace warplens::app {

class Workbench {
 public:
  /// With use_gpu false every lab runs its model only, even with a GPU.
  explicit Workbench(bool use_gpu);
  Workbench(const Workbench&) = delete;
  Workbench& operator=(const Workbench&) = delete;

  /// Side B's instance of `lab` (the window's own), made on first use; throws what the lab's
  /// constructor throws.
  LabInstance& lab(Lab id);
  /// A/B compare's side A of `lab`, made on first use.
  LabInstance& side_a(Lab id);
  /// The instances if made, else nullptr.
  [[nodiscard]] LabInstance* made(Lab id) const;
  [[nodiscard]] LabInstance* made_a(Lab id) const;

  /// Side B's instance as the lab's own type (tests, bench): get<T>(id), T the lab unit's class.
  template <typename T>
  T& get(Lab id) {
    return dynamic_cast<T&>(lab(id));
  }
  template <typename T>
  T& get_a(Lab id) {
    return dynamic_cast<T&>(side_a(id));
  }

  /// Once per frame on the GL thread: every instance made so far; first, the recovery from a
  /// sticky GPU fault a lab reported (gpu_recovery.h).
  void update();
  /// Whether no instance has work running.
  [[nodiscard]] bool idle() const;
  [[nodiscard]] bool use_gpu() const { return use_gpu_; }
  /// A/B compare's common byte scale for the two sides' warp views (strip_scale.h).
  [[nodiscard]] StripScale& compare_strip() { return compare_strip_; }

 private:
  bool use_gpu_;
  StripScale compare_strip_;
  std::vector<std::unique_ptr<LabInstance>> b_;  ///< by Lab id
  std::vector<std::unique_ptr<LabInstance>> a_;
};

}  // namespace warplens::app
