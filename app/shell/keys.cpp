#include "keys.h"

#include <imgui.h>

#include <utility>

#include "app_ui.h"
#include "class_mode.h"
#include "compare.h"
#include "lesson_mode.h"

namespace warplens::app {

// The keyboard help overlay.
void draw_keys_help(UiState& ui, float w, float h) {
  if (!ui.show_keys) return;
  ImGui::SetNextWindowPos({w * 0.5f, h * 0.5f}, ImGuiCond_Always, {0.5f, 0.5f});
  ImGui::Begin("Keys", &ui.show_keys,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    const std::pair<const char*, const char*> rows[] = {
        {"\u2190 / \u2192", "previous / next scenario (Your kernel: previous / next access)"},
        {"Page Down / Page Up",
         "lesson mode: next / previous step (a clicker's keys; \u2192 / \u2190 too; Home, End)"},
        {"S", "lesson mode: open or close the speaker view"},
        {"K", "Your kernel: access rows of your own, compiled and run on the GPU"},
        {"space", "run the measurement again (while stepping: play / pause)"},
        {". / ,", "step through the access: next / previous wavefront or sector"},
        {"Q", "predict, then reveal: hide the answer, ask for a guess (global and shared labs)"},
        {"1 \u2026 4",
         "pick a view: numbers, heatmap, offset sweep, stride sweep (global); tile, "
         "global read, global write (transpose); latency ladder, Little's law, async copies "
         "(bytes in flight); access, source (Your kernel)"},
        {"C", "A/B compare on / off (global and shared-memory labs)"},
        {"A / B", "while comparing: the panel edits side A or side B"},
        {"P", "presenter layout on / off: the view fills the window, the key numbers large"},
        {"T",
         "where a tile or matrix as stored has no room beside the bank grid or warp view: show "
         "it in their place, or back"},
        {"F11", "full screen on / off"},
        {"?", "show or hide this list"},
    };
    for (const auto& [key, what] : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(key);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(what);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

// Keys a lecturer drives the window with; ignored while a text field has the keyboard.
void handle_keys(UiState& ui, Workbench& labs, bool presenter_shown) {
  if (!ui.interactive) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsAnyItemActive()) return;
  const int count = catalog_size(ui);
  const bool lesson_key = handle_lesson_keys(ui, labs);  // a lesson takes the arrows
  LabInstance& shown = labs.lab(ui.lab);
  LabAccessWalk* walk = shown.access_walk();  // ← → walk a program's accesses, where it has one
  if (!ui.lesson && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)) &&
      !(walk && walk->arrow_key(-1)))
    ui.pending_scenario = (ui.scenario + count - 1) % count;
  if (!ui.lesson && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)) &&
      !(walk && walk->arrow_key(+1)))
    ui.pending_scenario = (ui.scenario + 1) % count;
  if (lesson_key) return;
  const bool has_compare = lab_info(ui.lab).compare_ratio != nullptr;
  for (ImWchar c : io.InputQueueCharacters) {
    LabInstance* a = ui.compare && has_compare ? labs.made_a(ui.lab) : nullptr;
    if (handle_step_key(ui, shown, c)) continue;
    if (c == 'q' || c == 'Q') {
      toggle_predict(ui, shown, scenario_at(ui, ui.scenario));
    } else if (c == ' ') {
      labs.lab(ui.lab).remeasure();
      if (a) a->remeasure();
    } else if ((c == 'c' || c == 'C') && has_compare) {
      if (ui.compare) {
        ui.compare = false;
      } else {
        start_compare(ui, labs);
      }
    } else if ((c == 'a' || c == 'A') && ui.compare) {
      ui.compare_edit_a = true;
    } else if ((c == 'b' || c == 'B') && ui.compare) {
      ui.compare_edit_a = false;
    } else if ((c == 't' || c == 'T') && (ui.array_switch || ui.array_alone.value_or(false))) {
      ui.array_alone = !(ui.array_switch ? ui.array_was_alone : ui.array_alone.value_or(false));
    } else if (c == '?') {
      ui.show_keys = !ui.show_keys;
    } else if (c == 'p' || c == 'P') {
      ui.presenter = !presenter_shown;
    } else if (c >= '1' && c <= '4') {
      LabViews* views = labs.lab(ui.lab).views();
      if (views && views->pick_view(ui, c - '1') && a) a->views()->pick_view(ui, c - '1');
    } else {
      for (const LabInfo& info : lab_registry())
        if (info.key && (c == info.key || c == info.key - 'a' + 'A')) ui.lab = info.id;
    }
  }
}

}  // namespace warplens::app
