#include "compare.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "layout_audit.h"
#include "presenter.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

// "B is 1.75x as fast as A." under the ratio; what is missing when there is none.
// The model's cost without its qualifiers: "4 sectors, 100.0 % of ..." -> "4 sectors",
// "1 wavefront (the minimum)" -> "1 wavefront", "12 sectors per request" -> "12 sectors".
std::string model_count(const std::string& model) {
  std::string count = model.substr(0, std::min(model.find(", "), model.find(" (")));
  const std::size_t space = count.find(' ');
  const std::size_t second = space == std::string::npos ? space : count.find(' ', space + 1);
  return second == std::string::npos ? count : count.substr(0, second);
}

// The model's counts of the two sides where they count the same thing ("32 wavefronts" and
// "1 wavefront"): the counts as the sides say them and their numbers.
struct ModelCounts {
  std::string a, b;
  double na = 0, nb = 0;
};
std::optional<ModelCounts> model_counts(const std::string& a_model, const std::string& b_model) {
  ModelCounts c{model_count(a_model), model_count(b_model)};
  const auto split = [](const std::string& count, double& n, std::string& unit) {
    char* end = nullptr;
    n = std::strtod(count.c_str(), &end);
    if (end == count.c_str() || n <= 0) return false;
    unit = std::string(end);
    while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
    if (!unit.empty() && unit.back() == 's') unit.pop_back();  // "wavefronts" as "wavefront"
    return !unit.empty();
  };
  std::string ua, ub;
  if (!split(c.a, c.na, ua) || !split(c.b, c.nb, ub) || ua != ub) return std::nullopt;
  return c;
}

// Where the measured ratio is missing (no GPU, or still measuring), the model's counts side by
// side: "Model: A 32 wavefronts, B 1 wavefront per request: B needs 32x fewer."
std::string model_comparison(const ModelCounts& c) {
  if (c.na == c.nb) return format("Model: A and B both take %s per request.", c.a.c_str());
  const double r = c.na > c.nb ? c.na / c.nb : c.nb / c.na;
  const std::string times =
      std::abs(r - std::round(r)) < 0.05 ? format("%.0f", r) : format("%.1f", r);
  return format("Model: A %s, B %s per request: B needs %s\u00d7 %s.", c.a.c_str(), c.b.c_str(),
                times.c_str(), c.na > c.nb ? "fewer" : "more");
}

// The same in a few characters, for the band's narrow ratio column: "32 \u2192 1 wavefront".
std::string model_arrow(const ModelCounts& c) {
  return c.a.substr(0, c.a.find(' ')) + " \u2192 " + c.b;
}

// What A/B's numbers fit anew for (begin_column_fit): the lab and either side's parameters.
std::string fit_key(const LabInfo& lab, const CompareColumn& a, const CompareColumn& b) {
  return std::string(lab.title) + "\x1f" + a.parameters + "\x1f" + a.access + "\x1f" +
         b.parameters + "\x1f" + b.access;
}

// What a measured B / A means, one sentence.
std::string ratio_sentence(double ratio) {
  return ratio >= 1.005   ? format("B is %.2f\u00d7 as fast as A.", ratio)
         : ratio <= 0.995 ? format("B reaches %.0f %% of A.", 100.0 * ratio)
                          : std::string("A and B run at the same speed.");
}

// Under the ratio: what it means, or (not measured) the model's two counts and why. `why`: the
// line that says why nothing is measured (the presenter's column says it in the ratio's caption
// instead); `with_ratio`: what the measured ratio means (the column says it beside the number).
void draw_ratio_sentence(const std::optional<double>& ratio, const CompareColumn& ca,
                         const CompareColumn& cb, bool why = true, bool with_ratio = true) {
  const Headline& ha = ca.headline;
  const Headline& hb = cb.headline;
  ImGui::PushTextWrapPos(0);
  if (ratio) {
    if (with_ratio) ImGui::TextUnformatted(ratio_sentence(*ratio).c_str());
  } else if (!ha.value || !hb.value) {
    if (const auto counts = model_counts(ca.model, cb.model))
      ImGui::TextUnformatted(model_comparison(*counts).c_str());
    if (why)
      ImGui::TextDisabled("%s", ha.note == "no GPU" ? "Measurements need a CUDA device."
                                                    : "Waiting for both measurements.");
  }
  ImGui::PopTextWrapPos();
}

}  // namespace

void draw_compare_numbers(const LabInfo& lab, const LabInstance& a, const LabInstance& b,
                          const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos,
                          ImVec2 size) {
  const float s = layer.scale();
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin(
      "##compare-numbers", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const CompareColumn ca = a.compare_column();  // one copy of each side's results
  const CompareColumn cb = b.compare_column();
  const Headline& ha = ca.headline;
  const Headline& hb = cb.headline;
  const std::optional<double> ratio = headline_ratio(ha, hb);

  // The ratio, large, on the right; the table takes the rest.
  const float ratio_w = std::min(ImGui::GetContentRegionAvail().x * 0.3f, 340 * s);
  ImGui::BeginChild("##compare-table", {ImGui::GetContentRegionAvail().x - ratio_w - 16 * s, 0});
  if (ImGui::BeginTable("compare", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize("GPU counters, per request").x + 8 * s);
    ImGui::TableSetupColumn("A", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("B", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    const auto row = [&](const char* name, const std::string& va, const std::string& vb,
                         bool stale_a, bool stale_b, const char* tip) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
      for (const auto& [text, stale] : {std::pair{&va, stale_a}, std::pair{&vb, stale_b}}) {
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0);
        if (stale) {
          ImGui::TextDisabled("%s", text->c_str());
        } else {
          ImGui::TextUnformatted(text->c_str());
        }
        ImGui::PopTextWrapPos();
      }
    };
    row("parameters", ca.parameters, cb.parameters, false, false, nullptr);
    row("access shown", ca.access, cb.access, false, false, nullptr);
    row("model, per warp request", ca.model, cb.model, false, false,
        "the memory model's count for the access the view shows: 32-byte sectors for global "
        "memory, wavefronts (passes through the 32 banks) for shared memory");
    row("GPU counters, per request", ca.counters, cb.counters, ca.counters_stale, cb.counters_stale,
        "CUPTI's counters over a dedicated launch of the same kernel, per warp request");
    row(("measured, " + ha.unit).c_str(), headline_text(ha.value, ha.unit, ha.note, ha.busy),
        headline_text(hb.value, hb.unit, hb.note, hb.busy), false, false,
        "median of timed runs (CUDA events) on the GPU; the two sides take turns, never run "
        "together");
    ImGui::EndTable();
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("A: %s \u2022 B: %s", ha.what.c_str(), hb.what.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndChild();

  ImGui::SameLine(0, 16 * s);
  ImGui::BeginChild("##compare-ratio", {0, 0});
  ImGui::TextDisabled("B / A, %s", lab.compare_ratio);
  ImGui::PushFont(layer.fonts().large);
  if (ratio) {
    ImGui::TextColored(color4(theme.text), "%.2f\u00d7", *ratio);
  } else {
    ImGui::TextDisabled("%s", ha.busy || hb.busy ? "\u2026" : "\u2014");
  }
  ImGui::PopFont();
  draw_ratio_sentence(ratio, ca, cb);
  ImGui::EndChild();
  ImGui::End();
}

const char* draw_compare_key_numbers(const LabInfo& lab, const LabInstance& a, const LabInstance& b,
                                     const viz::ImGuiLayer& layer, const viz::Theme& theme,
                                     const LegendSlot& legend, ImVec2 pos, ImVec2 size,
                                     const char* shown, const std::string& title,
                                     const std::string& look_for) {
  const float s = layer.scale();
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  // One side at a time (a short projector): no title bar, the ratio's caption names the column.
  ImGui::Begin("A / B##presenter", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings | (shown ? ImGuiWindowFlags_NoTitleBar : 0));
  const CompareColumn ca = a.compare_column();
  const CompareColumn cb = b.compare_column();
  // Its text fits the column anew when either side's parameters change (a frame at full size).
  begin_column_fit("A / B", fit_key(lab, ca, cb), s);
  const std::optional<double> ratio = headline_ratio(ca.headline, cb.headline);
  // The ratio first, always on screen: the scenario's title (where the strip cut it) comes
  // after the numbers, not over them (at 1280x720 3x it pushed the ratio below the column).
  // Without both measurements the ratio's dash shares its caption's line (a large dash would
  // take the room the sides' rows need on a short projector).
  ImGui::PushTextWrapPos(0);
  const bool ratio_drawn = ratio.has_value();
  if (ratio) {
    ImGui::TextDisabled("B / A, %s", lab.compare_ratio);
    ImGui::PushFont(layer.fonts().large);
    ImGui::TextColored(color4(theme.text), "%.2f\u00d7", *ratio);
    ImGui::PopFont();
    // Its sentence beside it, centred on the number's line, where it fits there.
    const float number_mid = (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f;
    const std::string sentence = ratio_sentence(*ratio);
    const float space = ImGui::GetFontSize();
    if (ImGui::GetItemRectMax().x + space + ImGui::CalcTextSize(sentence.c_str()).x <=
        ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) {
      ImGui::SameLine(0, space);
      ImGui::SetCursorScreenPos(
          {ImGui::GetCursorScreenPos().x, number_mid - ImGui::GetTextLineHeight() * 0.5f});
      ImGui::TextUnformatted(sentence.c_str());
    } else {
      ImGui::TextUnformatted(sentence.c_str());
    }
  } else {
    ImGui::TextDisabled("B / A, %s: %s", lab.compare_ratio,
                        ca.headline.busy || cb.headline.busy ? "\u2026"
                        : ca.headline.note == "no GPU"       ? "needs a CUDA device"
                                                             : "waiting for both measurements");
  }
  const float window_bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
  if (ImGui::GetItemRectMax().y > window_bottom)
    audit_finding("missing", "A/B compare: the B / A ratio is below the numbers' column");
  const char* picked = nullptr;
  if (shown) {
    // One view on screen: a row per side, its model's cost beside its letter, the side shown
    // highlighted; a click (or key A / B) shows the other. Both results stay readable, each
    // named by its side, and the detailed numbers under them are the shown side's alone.
    ImGui::Separator();
    for (const auto& [side, column] : {std::pair{"A", &ca}, std::pair{"B", &cb}}) {
      const bool on = std::string_view(shown) == side;
      // The count alone ("4 sectors"): its share is in the shown side's numbers below.
      const std::string count = model_count(column->model);
      const std::string with_mark = format("%s  %s  (shown)", side, count.c_str());
      const bool mark = on && ImGui::CalcTextSize(with_mark.c_str()).x <=
                                  ImGui::GetContentRegionAvail().x - 2 * s;
      const std::string row =
          format("%s  %s%s###side-%s", side, count.c_str(), mark ? "  (shown)" : "", side);
      if (ImGui::Selectable(row.c_str(), on, 0, {0, 0}) && !on) picked = side;
    }
    if (ImGui::GetItemRectMax().y > window_bottom + 2 * s)
      audit_finding("missing", "A/B compare: the sides' rows are below the numbers' column");
    draw_ratio_sentence(ratio, ca, cb, false, !ratio_drawn);
    ImGui::TextDisabled("The view shows %s; \"side\" in the strip, key %s or a click shows %s.",
                        shown, std::string_view(shown) == "A" ? "B" : "A",
                        std::string_view(shown) == "A" ? "B" : "A");
  } else {
    draw_ratio_sentence(ratio, ca, cb, false, !ratio_drawn);
  }
  for (const auto& [side, column] : {std::pair{"A", &ca}, std::pair{"B", &cb}}) {
    if (shown && std::string_view(shown) != side) continue;
    ImGui::Separator();
    if (layer.fonts().bold) ImGui::PushFont(layer.fonts().bold);
    ImGui::TextUnformatted(side);
    if (layer.fonts().bold) ImGui::PopFont();
    // The sides' parameters where they differ (the same launch on both sides says nothing).
    // Else the side's first number follows its letter on the same line.
    ImGui::SameLine();
    if (ca.parameters != cb.parameters) ImGui::TextDisabled("%s", column->parameters.c_str());
    // Each view's title names its access; where neither side measured, the ratio's line says
    // why once.
    const bool measured =
        ca.headline.value || cb.headline.value || ca.headline.busy || cb.headline.busy;
    std::vector<KeyNumber> numbers = key_numbers_from(*column, false, measured, true);
    // The model's count needs no "model, per warp request" under it where the sentence above
    // ("Model: A 4 sectors, B 8 sectors per request") said so.
    if (!ratio && model_counts(ca.model, cb.model) && !numbers.empty() && !column->model.empty())
      numbers.front().label.clear();
    for (const KeyNumber& n : numbers) draw_key_number(n, layer, true);
  }
  ImGui::PopTextWrapPos();
  if (!title.empty()) {
    ImGui::Separator();
    draw_title_beside(title);
  }
  float look_for_end = -1;
  const float legend_end =
      draw_legend_beside(legend, [&] { return draw_look_for(look_for, &look_for_end); });
  end_column_fit("A / B", legend_end, s, look_for_end);
  ImGui::End();
  return picked;
}

void draw_compare_band(const LabInfo& lab, const LabInstance& a, const LabInstance& b,
                       const viz::ImGuiLayer& layer, const viz::Theme& theme,
                       const LegendSlot& legend, ImVec2 pos, ImVec2 size, const std::string& title,
                       const std::string& look_for) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  // No title bar: the sides' letters name the columns, and the band's height is the numbers'.
  ImGui::Begin("A / B##band", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
  const CompareColumn ca = a.compare_column();
  const CompareColumn cb = b.compare_column();
  const std::optional<double> ratio = headline_ratio(ca.headline, cb.headline);
  // Its text fits the band as the column's does (a GPU's counters and GB/s under each side at
  // 3x ran below it): smaller, the counters that agree folded into the model's number.
  begin_column_fit("A / B band", fit_key(lab, ca, cb), layer.scale());
  // A header row names the columns (A, the ratio, B); under it each side's key numbers, value
  // first (the model's label names the access, where the sides differ), so the band's few lines
  // show the numbers. The ratio's column is as wide as its caption, the sides share the rest,
  // each under its view; the scenario's title, where the strip cut it, goes under the ratio.
  const std::string caption = format("B / A, %s", lab.compare_ratio);
  const float ratio_w =
      ImGui::CalcTextSize(caption.c_str()).x + 2 * ImGui::GetStyle().CellPadding.x;
  if (ImGui::BeginTable("band", 3, ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupColumn("A", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(caption.c_str(), ImGuiTableColumnFlags_WidthFixed, ratio_w);
    ImGui::TableSetupColumn("B", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    ImGui::TableNextRow();
    for (const CompareColumn* column : {&ca, static_cast<const CompareColumn*>(nullptr), &cb}) {
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0);
      if (column) {
        for (const KeyNumber& n : key_numbers_from(*column, true, true, true))
          draw_key_number(n, layer, true);
      } else {
        if (ratio) {
          ImGui::PushFont(layer.fonts().large);
          ImGui::TextColored(color4(theme.text), "%.2f\u00d7", *ratio);
          ImGui::PopFont();
          draw_ratio_sentence(ratio, ca, cb);
        } else {
          // No measured ratio: a short line says why, and the model's two counts stand in the
          // column (its caption's "bandwidth" waits for the GPU).
          ImGui::TextDisabled("%s", ca.headline.busy || cb.headline.busy ? "measuring\u2026"
                                    : ca.headline.note == "no GPU"       ? "needs a GPU"
                                                                         : "\u2014");
          if (const auto counts = model_counts(ca.model, cb.model))
            ImGui::TextUnformatted(("model: " + model_arrow(*counts)).c_str());
        }
        if (!title.empty()) {
          ImGui::Separator();
          draw_title_beside(title);
        }
      }
      ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
  }
  // The look-for after the legend, where the band has room for it (a band scrolls where it is
  // short: its views take the height).
  const float legend_end = draw_legend_beside(
      legend, [&] { return draw_look_for(look_for); }, true);
  end_column_fit("A / B band", legend_end, layer.scale());
  ImGui::End();
}

}  // namespace warplens::app
