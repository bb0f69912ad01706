#include "app_ui.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "class_mode.h"
#include "compare.h"
#include "figure_export_ui.h"
#include "frame_phases.h"
#include "keys.h"
#include "layout_audit.h"
#include "lesson_mode.h"
#include "presenter.h"
#include "scenarios.h"
#include "ui_widgets.h"
#include "view_layout.h"
#include "view_step.h"

namespace warplens::app {

namespace {

using viz::Rgb;
using viz::to_imgui_color;

// A/B compare in the presenter layout stacks its two views where each keeps this height (x the
// UI scale): a warp view's lanes, strip and labels, a bank grid's lanes, header, rows and counts
// in their tight tier.
constexpr float kLeastCompareViewHeight = 130;
// The same for two bank grids: a conflict's 32 rows at a few pixels each, under the lane row,
// the bank numbers and over the counts.
constexpr float kLeastCompareGridHeight = 160;
// Two bank grids side by side need about 32 legible columns and row labels each (x scale).
constexpr float kLeastCompareGridWidth = 240;
// The share of the body's height the A/B numbers' band under two full-width grids takes.
constexpr float kCompareBandShare = 0.36f;

}  // namespace

namespace {

// Right end of the status bar: the keys help, UI scale and theme (presenter controls).
const char* const kScaleLabels[] = {"1\u00d7", "1.5\u00d7", "2\u00d7", "3\u00d7"};

float view_controls_x(const viz::ImGuiLayer& layer) {
  const float s = layer.scale();
  const ImGuiStyle& style = ImGui::GetStyle();
  float width = ImGui::CalcTextSize("? keys").x + ImGui::CalcTextSize("scale").x +
                ImGui::CalcTextSize("Light theme").x + 4 * style.FramePadding.x +
                4 * style.ItemSpacing.x + style.WindowPadding.x + 32 * s;
  for (const char* label : kScaleLabels)
    width += ImGui::CalcTextSize(label).x + 2 * style.FramePadding.x + style.ItemSpacing.x;
  return ImGui::GetWindowWidth() - width;
}

void draw_view_controls(UiState& ui, const viz::ImGuiLayer& layer, float x) {
  const float s = layer.scale();
  const char* const* scales = kScaleLabels;
  const float values[] = {1.0f, 1.5f, 2.0f, 3.0f};
  ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 20 * s, x));
  if (ImGui::SmallButton("? keys")) ui.show_keys = !ui.show_keys;
  ImGui::SameLine(0, 16 * s);
  ImGui::TextDisabled("scale");
  for (int i = 0; i < 4; ++i) {
    ImGui::SameLine();
    const bool current = std::abs(ui.ui_scale - values[i]) < 0.01f;
    if (current)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::SmallButton(scales[i]) && !current) {
      ui.ui_scale = values[i];
      ui.scale_changed = true;
    }
    if (current) ImGui::PopStyleColor();
  }
  ImGui::SameLine(0, 16 * s);
  const bool dark = ui.theme == viz::ThemeName::Dark;
  if (ImGui::SmallButton(dark ? "Light theme" : "Dark theme")) {
    ui.theme = dark ? viz::ThemeName::Light : viz::ThemeName::Dark;
    ui.theme_changed = true;
  }
}

void draw_status(UiState& ui, const LabInstance& shown, const LabInstance* a,
                 const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos, ImVec2 size) {
  std::string error = shown.error();
  if (a) {
    // While comparing, each side's problem is named by its side.
    const std::string a_error = a->error();
    if (!error.empty()) error = "B: " + error;
    if (!a_error.empty()) error = "A: " + a_error + (error.empty() ? "" : " \u2022 " + error);
  }
  if (error.empty()) error = ui.compare_error;
  if (error.empty() && !ui.gpu_notice.empty() && ImGui::GetTime() < ui.gpu_notice_until)
    error = ui.gpu_notice;
  std::string text = error.empty() ? layer.font_warning() : error;
  if (text.empty()) text = ui.predict_message;
  if (text.empty()) text = step_status(ui, shown);
  if (text.empty() && !figure_footer(shown)) text = shown.status_text();
  // A figure's footer names the scenario, the device that measured and the model shown; a
  // second form gives the model's short name before the device (which the badge also says),
  // for a footer too narrow for its full name (3x on a projector: on the G80 and Kepler screens
  // the era is the lesson).
  std::vector<std::string> footers;
  if (text.empty() && !ui.interactive) {
    const auto& device = shown.device().device;
    const std::string title = scenario_at(ui, ui.scenario).title;
    const std::string where =
        device ? "measured on " + device->name : std::string("model only, no GPU");
    const model::HardwareModel hw = shown_model(shown);
    footers = {title + " \u2022 " + where + " \u2022 model: " + std::string(model::describe(hw)) +
                   " \u2022 WarpLens",
               title + " \u2022 model: " + std::string(model::describe_short(hw)) + " \u2022 " +
                   where + " \u2022 WarpLens"};
    // A historical model's screen whose title leaves the model no room: the model without the
    // title (the strip above shows the title whole; on the G80 and Kepler screens the era is
    // the lesson).
    if (hw != model::HardwareModel::Modern)
      footers.push_back("model: " + std::string(model::describe_short(hw)) + " \u2022 " + where +
                        " \u2022 WarpLens");
    text = footers.front();
  }
  if (text.empty()) text = shown.status_text();
  if (ui.lesson && error.empty())  // lesson mode: its title and step first
    text = lesson_status(ui) + (text.empty() ? "" : " \u2022 " + text);
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin(
      "##status", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  // The presenter controls sit at the right end; the text gets what is left, shortened with
  // an ellipsis rather than running under them.
  // A problem's line (an error, the restart after a GPU fault) needs room to be read: where the
  // controls would leave it less than 20 em (3x on a projector), they give way while it shows.
  float controls_x = ui.interactive ? view_controls_x(layer) : ImGui::GetWindowWidth();
  const bool controls_give_way = ui.interactive && !error.empty() &&
                                 controls_x - ImGui::GetCursorPosX() < 20 * ImGui::GetFontSize();
  if (controls_give_way) controls_x = ImGui::GetWindowWidth();
  const float room = controls_x - ImGui::GetCursorPosX() - 16 * layer.scale();
  // A problem's line is cut at its end; a line of " • "-separated parts (the status, the
  // figure's footer) gives up its trailing parts first, so what stays reads whole.
  // The first footer form that keeps the scenario's title and the model on the line (a long
  // A/B title keeps its place over the model's name); else the first, as it fits.
  // Where neither keeps both, a historical model's third form keeps the model.
  if (error.empty() && !ui.lesson && !footers.empty()) {
    bool kept = false;
    for (std::size_t i = 0; i < 2 && !kept; ++i) {
      const std::string fitted = fit_parts(footers[i], room);
      kept = fitted.find(" \u2022 model: ") != std::string::npos &&
             fitted.rfind(scenario_at(ui, ui.scenario).title, 0) == 0;
      if (kept) text = footers[i];
    }
    if (!kept && footers.size() > 2) text = footers[2];
  }
  text = error.empty() ? fit_parts(text, room) : fit_text(text, room);
  if (!error.empty()) {
    ImGui::TextColored(color4(theme.warning), "%s", text.c_str());
  } else {
    ImGui::TextDisabled("%s", text.c_str());
    glossary_tooltip(text);
  }
  if (error.size() > text.size() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", error.c_str());
  if (ui.interactive && !controls_give_way) draw_view_controls(ui, layer, controls_x);
  ImGui::End();
}

}  // namespace

const Scenario& scenario_at(const UiState& ui, int index) {
  const auto& builtin = builtin_scenarios();
  if (index < static_cast<int>(builtin.size())) return builtin[static_cast<std::size_t>(index)];
  return ui.loaded[static_cast<std::size_t>(index) - builtin.size()];
}

int catalog_size(const UiState& ui) {
  return static_cast<int>(builtin_scenarios().size() + ui.loaded.size());
}

void draw_scenario_combo(UiState& ui, float preview_room) {
  // No room for any of the title (a short presenter strip): the combo's arrow alone.
  const bool arrow_only = preview_room <= 0;
  const std::string preview =
      arrow_only ? std::string() : fit_text(scenario_at(ui, ui.scenario).title, preview_room);
  if (ImGui::BeginCombo("##scenario", preview.c_str(),
                        ImGuiComboFlags_HeightLarge |
                            (arrow_only ? ImGuiComboFlags_NoPreview : ImGuiComboFlags_None))) {
    draw_scenario_list(ui);
    ImGui::EndCombo();
  }
}

void draw_scenario_list(UiState& ui) {
  const int count = catalog_size(ui);
  const int builtin = static_cast<int>(builtin_scenarios().size());
  Lab group = kFirstLab;
  for (int i = 0; i < count; ++i) {
    const Scenario& sc = scenario_at(ui, i);
    if (i == builtin) {
      ImGui::TextDisabled("Loaded from files");
    } else if (i < builtin && (i == 0 || sc.lab != group)) {
      group = sc.lab;
      ImGui::TextDisabled("%s", lab_info(group).title);
    }
    ImGui::Indent();
    if (ImGui::Selectable((sc.title + "##" + std::to_string(i)).c_str(), i == ui.scenario))
      ui.pending_scenario = i;
    ImGui::Unindent();
  }
}

void draw_scenario_picker(UiState& ui) {
  ImGui::TextDisabled("Scenario");
  ImGui::SetNextItemWidth(-1);
  draw_scenario_combo(ui, ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() -
                              2 * ImGui::GetStyle().FramePadding.x);
  const Scenario& current = scenario_at(ui, ui.scenario);
  if (ui.compare) {
    // A/B compare: which side the parameters below belong to.
    ImGui::Spacing();
    ImGui::TextUnformatted("Parameters of side");
    ImGui::SameLine();
    if (ImGui::RadioButton("A##edit", ui.compare_edit_a)) ui.compare_edit_a = true;
    ImGui::SameLine();
    if (ImGui::RadioButton("B##edit", !ui.compare_edit_a)) ui.compare_edit_a = false;
    ImGui::Spacing();
  }
  ImGui::PushTextWrapPos(0);
  if (predict_hides_answer(ui)) {  // the scenario's text tells the answer: kept for the reveal
    ImGui::TextDisabled("Predict, then reveal: the scenario's explanation shows after the reveal.");
  } else {
    ImGui::TextUnformatted(current.summary.c_str());
    glossary_tooltip(current.summary);
    if (!current.look_for.empty()) {
      ImGui::TextDisabled("Look for: %s", current.look_for.c_str());
      glossary_tooltip(current.look_for);
    }
  }
  ImGui::PopTextWrapPos();
  if (ui.interactive) {
    // A preset file of the user's: type or paste its path, then Load (or Enter).
    char path[512];
    std::snprintf(path, sizeof path, "%s", ui.preset_path.c_str());
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Load").x - 3 * ImGui::GetStyle().ItemSpacing.x);
    const bool enter = ImGui::InputTextWithHint("##preset", "preset file (.toml)", path,
                                                sizeof path, ImGuiInputTextFlags_EnterReturnsTrue);
    ui.preset_path = path;
    ImGui::SameLine();
    if ((ImGui::Button("Load") || enter) && !ui.preset_path.empty()) ui.preset_requested = true;
    if (!ui.preset_message.empty()) {
      ImGui::PushTextWrapPos(0);
      if (ui.preset_error) {
        ImGui::TextColored({0.85f, 0.2f, 0.1f, 1}, "%s", ui.preset_message.c_str());
      } else {
        ImGui::TextDisabled("%s", ui.preset_message.c_str());
      }
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::Separator();
}

bool load_preset(UiState& ui, Workbench& labs, const std::string& path) {
  try {
    Scenario scenario = load_scenario_file(path);
    // A preset loaded again (edited, or the same file twice) replaces its earlier copy: the
    // picker lists each name once, and loading the same file all afternoon does not grow it.
    const auto same = std::find_if(ui.loaded.begin(), ui.loaded.end(),
                                   [&](const Scenario& s) { return s.name == scenario.name; });
    const auto at = static_cast<int>(same - ui.loaded.begin());
    if (same == ui.loaded.end()) {
      ui.loaded.push_back(std::move(scenario));
    } else {
      *same = std::move(scenario);
    }
    ui.preset_message = "loaded " + path;
    ui.preset_error = false;
    apply_scenario(ui, labs, static_cast<int>(builtin_scenarios().size()) + at);
    return true;
  } catch (const ScenarioError& e) {
    ui.preset_message = e.what();
    ui.preset_error = true;
    return false;
  }
}

void apply_scenario(UiState& ui, Workbench& labs, int index) {
  if (index < 0 || index >= catalog_size(ui)) return;
  const Scenario& scenario = scenario_at(ui, index);
  ui.scenario = index;
  ui.lab = scenario.lab;
  ui.select_transpose_view = true;
  ui.view_step = -1;
  ui.step_playing = false;
  if (scenario.presenter) ui.presenter = scenario.presenter;
  labs.lab(scenario.lab).apply(scenario, ui.model_override);
  ui.compare = false;
  if (!scenario.compare_with.empty() && lab_info(scenario.lab).compare_ratio) {
    labs.side_a(scenario.lab).apply(find_scenario(scenario.compare_with), ui.model_override);
    ui.compare = true;
    ui.compare_edit_a = false;
  }
  if (ui.predict) {  // the class mode asks about the new access, its answer hidden again
    if (auto question = predict_question(labs.lab(scenario.lab), scenario)) {
      ui.predict->ask_again(std::move(question));
      ui.guess_count_text.clear();
      ui.guess_gbps_text.clear();
    } else {
      ui.predict.reset();
    }
  }
}

void start_compare(UiState& ui, Workbench& labs) {
  try {
    labs.side_a(ui.lab).copy_parameters_from(labs.lab(ui.lab));
    ui.compare = true;
    ui.compare_edit_a = false;
  } catch (const std::exception& e) {
    ui.compare = false;
    ui.compare_error = std::string("A/B compare could not start: ") + e.what();
  }
}

void draw_app(UiState& ui, Workbench& labs, const viz::ImGuiLayer& layer, int width, int height) {
  const viz::Theme& theme = viz::theme(ui.theme);
  const float s = layer.scale();
  const float w = static_cast<float>(width), h = static_cast<float>(height);
  const float header_h = ImGui::GetFrameHeight() + 16 * s;
  const float status_h = ImGui::GetFrameHeight() + 8 * s;
  const float gap = 8 * s;
  const bool presenter = presenter_layout(ui, w, h, s);
  ui.presenter_shown = presenter;
  // Presenter: a strip of knobs instead of the parameter panel, over the view: one line, or two
  // where the scenario's title and the device need the first.
  const float strip_h = presenter ? presenter_strip_height(presenter_strip_lines(ui, w),
                                                           presenter_strip_title_tall(ui, w))
                                  : 0.0f;
  const float panel_w =
      presenter ? 0.0f : std::min(std::clamp(0.24f * w, 260 * s, 380 * s), 0.3f * w);
  const float body_y = presenter ? strip_h + gap : header_h;
  const float body_h = h - body_y - status_h;
  const float main_x = presenter ? 0.0f : panel_w + gap;
  const float main_w = w - main_x;
  // At presenter scales the views keep at least 70 % of the height (their grids and strips
  // are what the room reads); the numbers scroll.
  // A tall view (a bank grid of up to 32 rows) keeps 60 % at any scale; the numbers scroll.
  const float stats_cap =
      s >= 1.5f ? body_h * 0.3f : (tall_view(labs.lab(ui.lab)) ? body_h * 0.4f : body_h);

  if (!presenter) {
    AuditPanel audit("header");
    draw_header(ui, labs, labs.lab(ui.lab), layer, theme, w, header_h);
  }
  LabInstance& b = labs.lab(ui.lab);  // the header may have switched labs
  const LabInfo& info = lab_info(ui.lab);
  // A/B compare: side A of the shown lab; the panel edits the side picked.
  LabInstance* a = ui.compare && info.compare_ratio ? &labs.side_a(ui.lab) : nullptr;
  LabInstance& edit = a && ui.compare_edit_a ? *a : b;
  LabFrame frame{ui, layer, theme, [&ui] { draw_scenario_picker(ui); }};
  advance_steps(ui, labs.lab(ui.lab), ImGui::GetTime());
  // A step back into a stage whose steps are not known yet draws it whole, then lands on its last.
  ViewStep step(ui.step_to_last ? 1 << 30 : ui.view_step, predict_hides_answer(ui));
  const ViewStep::Scope stepping(step);
  // Predict, then reveal: the class mode's panel takes the numbers' place while the answer is
  // hidden, and sits over them once revealed.
  // The scenario's title where the presenter strip (drawn before the numbers) could not show
  // it whole: for the numbers, or the question that stands in their place.
  const auto title_for_numbers = [&] {
    return presenter && !ui.strip_title_whole ? scenario_at(ui, ui.scenario).title : std::string();
  };
  const auto numbers_or_predict = [&](ImVec2 pos, ImVec2 size, const auto& draw_numbers) {
    if (!ui.predict) return draw_numbers(pos, size);
    if (ui.predict->hides_answer())
      return draw_predict_panel(ui, b, layer, theme, pos, size, {}, title_for_numbers());
    const std::vector<std::string> lines = revealed_lines(ui, b);
    const float top = std::min(revealed_panel_height(lines, layer, size.x) + gap, 0.6f * size.y);
    draw_predict_panel(ui, b, layer, theme, pos, {size.x, top - gap}, lines);
    draw_numbers(ImVec2{pos.x, pos.y + top}, ImVec2{size.x, size.y - top});
  };
  lab_shown(b);
  begin_lab_frame(b);
  const auto draw_parameters = [&] {
    AuditPanel audit("parameters");
    if (presenter) {
      draw_presenter_strip(ui, edit, frame, {0, 0}, {w, strip_h});
    } else {
      edit.draw_parameters(frame, {0, body_y}, {panel_w, body_h});
    }
  };
  // Presenter: the numbers in a column beside the view(s).
  const float numbers_w = presenter_numbers_width(w, s);
  std::vector<FigureTarget> figure_targets;  // where a right-click offers figure export
  if (a && presenter) {
    begin_lab_frame(*a);
    // Tall views (bank grids) side by side, each the full height, where each keeps about 32
    // legible columns and row labels; else, and for the other views, A over B, each the full
    // width left of the numbers (strips keep their width). Only where not even the stack
    // leaves each view its least height, one side at a time: the side the strip edits (keys
    // A / B flip it), the numbers beside showing that side's with the ratio over them, and
    // the audit reports the other pane missing.
    // Where the numbers' column leaves two bank grids too narrow (1920x1080 at 3x), the grids
    // take the whole width, side by side, and the numbers a band under them: each side's under
    // its view, B / A between them.
    const bool tall = tall_view(b);
    const float least_h = (tall ? kLeastCompareGridHeight : kLeastCompareViewHeight) * s;
    const float column_views_w = w - numbers_w - gap;
    const float band_room = std::round(kCompareBandShare * body_h);
    const bool band = tall && 0.5f * (column_views_w - gap) < kLeastCompareGridWidth * s &&
                      0.5f * (w - gap) >= kLeastCompareGridWidth * s &&
                      body_h - band_room - gap >= least_h;
    const float band_h = band ? band_room : 0.0f;
    const float views_w = band ? w : column_views_w;
    const float views_h = band ? body_h - band_h - gap : body_h;
    const bool side_by_side = tall && 0.5f * (views_w - gap) >= kLeastCompareGridWidth * s;
    const ImVec2 half = side_by_side ? ImVec2{0.5f * (views_w - gap), views_h}
                                     : ImVec2{views_w, 0.5f * (views_h - gap)};
    const ImVec2 second =
        side_by_side ? ImVec2{half.x + gap, body_y} : ImVec2{0, body_y + half.y + gap};
    const bool both = side_by_side || half.y >= least_h;
    ui.compare_one_side = !both;
    draw_parameters();
    LegendSlot legend;
    {
      AuditPanel audit("view");
      LegendSlot::Scope beside(legend);
      StripScale::Scope same_bytes(labs.compare_strip());
      const auto view_of = [&](LabInstance& lab, const char* side, ImVec2 pos, ImVec2 size) {
        lab.draw_view(frame, pos, size, side);
        figure_targets.push_back({&lab, side, {pos, {pos.x + size.x, pos.y + size.y}, {}, {}}});
      };
      if (both) {
        KnobsEditSide edited{ui.compare_edit_a ? "A" : "B"};
        const KnobsEditSide::Scope knobs(edited);
        view_of(*a, "A", {0, body_y}, half);
        view_of(b, "B", second, half);
      } else {
        if (ui.compare_edit_a) {
          view_of(*a, "A", {0, body_y}, {views_w, views_h});
        } else {
          view_of(b, "B", {0, body_y}, {views_w, views_h});
        }
        audit_finding("hidden", std::string("A/B compare: pane ") +
                                    (ui.compare_edit_a ? "B" : "A") +
                                    " not drawn (one side at a time; keys A / B flip)");
      }
    }
    AuditPanel audit("numbers");
    const char* shown = both ? nullptr : ui.compare_edit_a ? "A" : "B";
    // An A/B scenario's look-for; a compare started by hand from another scenario has none.
    const Scenario& current = scenario_at(ui, ui.scenario);
    const std::string compare_look_for = current.compare_with.empty() ? "" : current.look_for;
    if (band) {
      numbers_or_predict({0, body_y + views_h + gap}, {w, band_h}, [&](ImVec2 p, ImVec2 z) {
        draw_compare_band(info, *a, b, layer, theme, legend, p, z, title_for_numbers(),
                          compare_look_for);
      });
    } else {
      numbers_or_predict({w - numbers_w, body_y}, {numbers_w, body_h}, [&](ImVec2 p, ImVec2 z) {
        if (const char* side =
                draw_compare_key_numbers(info, *a, b, layer, theme, legend, p, z, shown,
                                         title_for_numbers(), compare_look_for))
          ui.compare_edit_a = side[0] == 'A';
      });
    }
  } else if (a) {
    begin_lab_frame(*a);
    // Two views side by side, the comparison under them.
    const float stats_h =
        std::min({body_h * 0.36f, 9.0f * ImGui::GetFrameHeightWithSpacing() + 40 * s, stats_cap});
    const float view_h = body_h - stats_h - gap;
    const float half_w = (main_w - gap) * 0.5f;
    draw_parameters();
    {
      AuditPanel audit("view");
      const PhaseTimer timer("views A and B");
      StripScale::Scope same_bytes(labs.compare_strip());
      a->draw_view(frame, {main_x, body_y}, {half_w, view_h}, "A");
      b.draw_view(frame, {main_x + half_w + gap, body_y}, {half_w, view_h}, "B");
      figure_targets.push_back(
          {a, "A", {{main_x, body_y}, {main_x + half_w, body_y + view_h}, {}, {}}});
      figure_targets.push_back(
          {&b, "B", {{main_x + half_w + gap, body_y}, {main_x + main_w, body_y + view_h}, {}, {}}});
    }
    AuditPanel audit("numbers");
    numbers_or_predict(
        {main_x, body_y + body_h - stats_h}, {main_w, stats_h},
        [&](ImVec2 p, ImVec2 z) { draw_compare_numbers(info, *a, b, layer, theme, p, z); });
  } else if (presenter) {
    draw_parameters();
    LegendSlot legend;  // the view's legend goes under the key numbers
    {
      AuditPanel audit("view");
      const PhaseTimer timer("view");
      LegendSlot::Scope beside(legend);
      b.draw_view(frame, {0, body_y}, {w - numbers_w - gap, body_h}, nullptr);
    }
    AuditPanel audit("numbers");
    numbers_or_predict({w - numbers_w, body_y}, {numbers_w, body_h}, [&](ImVec2 p, ImVec2 z) {
      draw_key_numbers(b, scenario_at(ui, ui.scenario), layer, legend, p, z,
                       !title_for_numbers().empty());
    });
    figure_targets.push_back({&b,
                              "",
                              {{0, body_y},
                               {w - numbers_w - gap, body_y + body_h},
                               {w - numbers_w, body_y},
                               {w, body_y + body_h}}});
  } else {
    const float stats_h = b.numbers_height(frame, body_h, stats_cap);
    draw_parameters();
    {
      AuditPanel audit("view");
      const PhaseTimer timer("view");
      b.draw_view(frame, {main_x, body_y}, {main_w, body_h - stats_h - gap}, nullptr);
    }
    AuditPanel audit("numbers");
    numbers_or_predict({main_x, body_y + body_h - stats_h}, {main_w, stats_h},
                       [&](ImVec2 p, ImVec2 z) { b.draw_numbers(frame, p, z); });
    figure_targets.push_back({&b,
                              "",
                              {{main_x, body_y},
                               {main_x + main_w, body_y + body_h - stats_h - gap},
                               {main_x, body_y + body_h - stats_h},
                               {main_x + main_w, body_y + body_h}}});
  }
  // A lecture starts from the scenario's name: in the presenter layout it must be on screen
  // whole, in the strip's picker or at the head of the numbers.
  const bool title_beside = take_title_beside_drawn();
  if (presenter && !ui.strip_title_whole && !title_beside) {
    AuditPanel audit("numbers");
    audit_finding("ellipsized", "scenario title, in neither the strip nor the numbers: " +
                                    scenario_at(ui, ui.scenario).title);
  }
  // Right-click a view or the numbers: "Export figure…" (either layout; in A/B compare, each
  // side's view).
  if (ui.interactive) draw_figure_export(ui, figure_targets);
  end_lab_frame(b, ui);
  steps_drawn(ui, step.steps(), step.unit());
  {
    AuditPanel audit("status");
    draw_status(ui, b, a, layer, theme, {0, h - status_h}, {w, status_h});
  }
  draw_keys_help(ui, w, h);
  ui.array_switch = ui.array_left_out;  // the strip offers "as stored" on the next frame
  ui.array_was_alone = ui.array_shown_alone;
  ui.array_left_out = false;
  ui.array_shown_alone = false;
  {
    const PhaseTimer timer("keys");
    handle_keys(ui, labs, presenter);
  }
  if (ui.pending_scenario >= 0) {
    const PhaseTimer timer("apply scenario " + scenario_at(ui, ui.pending_scenario).name);
    apply_scenario(ui, labs, ui.pending_scenario);
    ui.pending_scenario = -1;
  }
  if (ui.preset_requested) {
    const PhaseTimer timer("load preset");
    ui.preset_requested = false;
    load_preset(ui, labs, ui.preset_path);
  }
}

}  // namespace warplens::app
