// What lab.h defines beside the interface: LabInstance::live_reading's default, from the A/B
// table's column, and the shell's use of the optional parts (predict, access walk, frame hooks,
// memory models, layout hints).
#include <cctype>
#include <string>

#include "lab.h"

namespace warplens::app {

namespace {

/// A counter text that holds a reading: a number, and none of the words of a failure.
bool holds_reading(const std::string& text) {
  if (text.find("no counters in this lab") != std::string::npos) return true;
  for (const char* failure : {"unavailable", "failed", "off (", "refused"})
    if (text.find(failure) != std::string::npos) return false;
  for (const char c : text)
    if (std::isdigit(static_cast<unsigned char>(c))) return true;
  return false;
}

}  // namespace

LiveReading LabInstance::live_reading() const {
  const CompareColumn c = compare_column();
  LiveReading r;
  r.measured = c.headline.value.has_value() && !c.headline.busy;
  r.counters = !c.counters_stale && holds_reading(c.counters);
  r.counters_differ = r.counters && c.counters.find("\u2717") != std::string::npos;
  r.text = "headline " +
           (c.headline.value ? std::to_string(*c.headline.value) + " " + c.headline.unit
                             : std::string(c.headline.busy ? "measuring" : "none")) +
           (c.headline.note.empty() ? "" : " (" + c.headline.note + ")") + "; counters " +
           (c.counters_stale ? "stale: " : "") + c.counters;
  return r;
}

std::optional<PredictAnswer> predict_answer(const LabInstance& lab) {
  const LabPredict* part = lab.predict();
  return part ? part->predict_answer() : std::nullopt;
}

void go_to_step(LabInstance& lab, int step, int& ui_view_step) {
  if (LabAccessWalk* walk = lab.access_walk())
    walk->go_to_access(step);
  else
    ui_view_step = step;
}

void lab_shown(LabInstance& lab) {
  if (LabFrameHooks* hooks = lab.frame_hooks()) hooks->shown();
}

void begin_lab_frame(LabInstance& lab) {
  if (LabFrameHooks* hooks = lab.frame_hooks()) hooks->begin_frame();
}

void end_lab_frame(LabInstance& lab, UiState& ui) {
  if (LabFrameHooks* hooks = lab.frame_hooks()) hooks->end_frame(ui);
}

model::HardwareModel shown_model(const LabInstance& lab) {
  const LabMemoryModels* models = lab.memory_models();
  return models ? models->shown_model() : model::HardwareModel::Modern;
}

bool tall_view(const LabInstance& lab) {
  const LabLayoutHints* hints = lab.layout_hints();
  return hints ? hints->tall_view() : LabLayoutHints{}.tall_view();
}

bool figure_footer(const LabInstance& lab) {
  const LabLayoutHints* hints = lab.layout_hints();
  return hints ? hints->figure_footer() : LabLayoutHints{}.figure_footer();
}

}  // namespace warplens::app
