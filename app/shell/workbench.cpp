#include "workbench.h"

#include "frame_phases.h"
#include "gpu_recovery.h"

namespace warplens::app {

namespace {
std::size_t slot(Lab id) {
  return static_cast<std::size_t>(id);
}
}  // namespace

Workbench::Workbench(bool use_gpu)
    : use_gpu_(use_gpu), b_(lab_registry().size()), a_(lab_registry().size()) {}

LabInstance& Workbench::lab(Lab id) {
  auto& instance = b_.at(slot(id));
  if (!instance) instance = lab_info(id).make(use_gpu_);
  return *instance;
}

LabInstance& Workbench::side_a(Lab id) {
  auto& instance = a_.at(slot(id));
  if (!instance) instance = lab_info(id).make(use_gpu_);
  return *instance;
}

LabInstance* Workbench::made(Lab id) const {
  return b_.at(slot(id)).get();
}

LabInstance* Workbench::made_a(Lab id) const {
  return a_.at(slot(id)).get();
}

void Workbench::update() {
  // A lab met a sticky GPU fault: every lab lets go of the GPU, the device is reset and every lab
  // measures again (gpu_recovery.h), here on the GL thread, which owns the interop buffers.
  if (use_gpu_) (void)recover_gpu_if_requested();
  for (auto* side : {&b_, &a_}) {
    for (std::size_t i = 0; i < side->size(); ++i) {
      auto& instance = (*side)[i];
      if (!instance) continue;
      const PhaseTimer timer(std::string("update ") + to_string(lab_registry()[i].id) +
                             (side == &a_ ? " A" : ""));
      instance->update();
    }
  }
}

bool Workbench::idle() const {
  for (const auto* side : {&b_, &a_})
    for (const auto& instance : *side)
      if (instance && !instance->idle()) return false;
  return true;
}

}  // namespace warplens::app
