// The labs' view layout helpers (view_layout.h): what re-lays a lab's big view out to the
// room it has — headings and notes that wrap and move aside, legends that flow into lines, plots
// sized from the room, and the grid that shows them side by side, in rows or one at a time.
#include "view_layout.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "layout_audit.h"
#include "legend_slot.h"
#include "ui_widgets.h"

namespace warplens::app {

float presenter_numbers_width(float window_w, float scale) {
  return std::clamp(0.28f * window_w, std::min(300 * scale, 0.4f * window_w), 0.4f * window_w);
}

using viz::to_imgui_color;

void ViewAside::draw(const viz::Theme& theme, float s) const {
  draw_legends(s);
  draw_notes(theme);
}

void ViewAside::draw_legends(float s) const {
  for (const auto& [title, entries] : legends) {
    if (!title.empty()) ImGui::TextDisabled("%s", title.c_str());
    draw_legend(entries, ImGui::GetContentRegionAvail().x, s);
  }
}

void ViewAside::draw_notes(const viz::Theme& theme) const {
  for (const Note& n : notes) draw_note(n, theme);
}

void ViewAside::hand_to(LegendSlot& slot, const viz::Theme& theme, float s) const {
  auto copy = std::make_shared<const ViewAside>(*this);
  std::function<void()> legend;
  if (!legends.empty()) legend = [copy, s] { copy->draw_legends(s); };
  std::function<void()> notes_drawn;
  if (!notes.empty()) notes_drawn = [copy, &theme] { copy->draw_notes(theme); };
  slot.set(std::move(legend), std::move(notes_drawn));
}

void heading(const viz::ImGuiLayer& layer, const std::string& text) {
  if (text.empty()) return;
  ImGui::PushFont(layer.fonts().bold);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  glossary_tooltip(text);
}

std::string fitting_heading(const viz::ImGuiLayer& layer, const std::string& long_text,
                            const std::string& short_text, float below, const char* shortest) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.y - heading_height(layer, long_text, avail.x) >= below) return long_text;
  if (!shortest || avail.y - heading_height(layer, short_text, avail.x) >= below) return short_text;
  return shortest;
}

float heading_height(const viz::ImGuiLayer& layer, const std::string& text, float width) {
  if (text.empty()) return 0;
  ImGui::PushFont(layer.fonts().bold);
  const float h = wrapped_height(text, width);
  ImGui::PopFont();
  return h;
}

float wrapped_height(const std::string& text, float width) {
  return ImGui::CalcTextSize(text.c_str(), nullptr, false, width).y +
         ImGui::GetStyle().ItemSpacing.y;
}

void draw_note(const ViewAside::Note& note, const viz::Theme& theme) {
  if (note.text.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, note.warning
                                           ? color4(theme.warning)
                                           : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(note.text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

std::vector<ViewAside::Note> fit_notes(const std::vector<ViewAside::Note>& notes, float room,
                                       float width, ViewAside& aside, float& height) {
  std::vector<ViewAside::Note> kept;
  height = 0;
  bool full = false;  // once one note moves, the later ones follow it (they read in order)
  for (const auto& n : notes) {
    if (n.text.empty()) continue;
    const float h = wrapped_height(n.text, width);
    if (!full && height + h <= room) {
      height += h;
      kept.push_back(n);
    } else {
      full = true;
      aside.notes.push_back(n);
    }
  }
  return kept;
}

std::string fitting(std::initializer_list<std::string> options, float room) {
  for (const std::string& t : options)
    if (ImGui::CalcTextSize(t.c_str()).x <= room) return t;
  return fit_text(*(options.end() - 1), room);
}

std::vector<PlotLegendEntry> legend_entries(const std::vector<viz::PlotSeries>& series,
                                            const std::vector<viz::ReferenceLine>& references) {
  std::vector<PlotLegendEntry> entries;
  // A series without points is not drawn (viz::draw_plot's legend leaves it out too).
  for (const auto& se : series)
    if (!se.x.empty())
      entries.push_back({se.label, se.color, se.dashed, false, !se.lines, se.highlight >= 0});
  for (const auto& r : references) entries.push_back({r.label, r.color, true, false});
  return entries;
}

namespace {

float entry_width(const PlotLegendEntry& e, float s) {
  return 28 * s + ImGui::CalcTextSize(e.label.c_str()).x;
}

// The line each entry starts (0, 1, ...) when `entries` flow into `width`.
std::vector<int> legend_lines(const std::vector<PlotLegendEntry>& entries, float width, float s) {
  std::vector<float> widths;
  for (const auto& e : entries) widths.push_back(entry_width(e, s));
  return viz::flow_lines(widths, width, 20 * s);
}

}  // namespace

float legend_height(const std::vector<PlotLegendEntry>& entries, float width, float s) {
  if (entries.empty()) return 0;
  const int lines = legend_lines(entries, width, s).back() + 1;
  return static_cast<float>(lines) * ImGui::GetTextLineHeightWithSpacing() -
         ImGui::GetStyle().ItemSpacing.y;
}

void draw_legend(const std::vector<PlotLegendEntry>& entries, float width, float s) {
  const std::vector<int> line = legend_lines(entries, width, s);
  const float font = ImGui::GetFontSize();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const PlotLegendEntry& e = entries[i];
    if (i > 0 && line[i] == line[i - 1]) ImGui::SameLine(0, 20 * s);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy({22 * s, font});
    const ImU32 c = to_imgui_color(e.color);
    const float y = p.y + 0.5f * font;
    if (e.box && e.ringed) {
      draw->AddRect({p.x + 4 * s, p.y + 1 * s}, {p.x + 4 * s + font - 4 * s, p.y + font + 1 * s}, c,
                    3 * s, 0, 2.5f * s);
    } else if (e.box) {
      draw->AddRectFilled({p.x + 4 * s, p.y + 2 * s}, {p.x + 4 * s + font - 4 * s, p.y + font}, c,
                          2 * s);
    } else if (e.point) {  // as the plot draws it: a dot, ringed where it is the current one
      draw->AddCircleFilled({p.x + 11 * s, y}, 3.0f * s, c);
      if (e.ringed)
        draw->AddCircle({p.x + 11 * s, y}, 7.0f * s, ImGui::GetColorU32(ImGuiCol_Text), 0,
                        2.0f * s);
    } else if (e.dashed) {
      for (float x = 0; x < 22 * s; x += 8 * s)
        draw->AddLine({p.x + x, y}, {p.x + std::min(x + 4 * s, 22 * s), y}, c, 2.0f * s);
    } else {
      draw->AddLine({p.x, y}, {p.x + 22 * s, y}, c, 2.5f * s);
    }
    ImGui::SameLine(0, 6 * s);
    // A label wider than the window wraps instead of running off, at its spaces only (ImGui's
    // own wrapping also breaks after a '.', which splits "0.19 ns/B" into "0." and "19 ns/B").
    const float room = ImGui::GetContentRegionAvail().x;
    std::string wrapped, current;
    for (std::size_t at = 0; at <= e.label.size();) {
      std::size_t end = e.label.find(' ', at);
      if (end == std::string::npos) end = e.label.size();
      const std::string word = e.label.substr(at, end - at);
      if (current.empty() || ImGui::CalcTextSize((current + " " + word).c_str()).x <= room) {
        current += (current.empty() ? "" : " ") + word;
      } else {
        wrapped += current + "\n";
        current = word;
      }
      at = end + 1;
    }
    wrapped += current;
    ImGui::TextUnformatted(wrapped.c_str());
  }
}

namespace {

// viz::draw_plot's fixed parts: its top (the y label's line), what is under its frame (tick
// labels, x label) and its one-line legend.
float plot_top(float font, float s) {
  return font + 10 * s;
}
float plot_under_frame(float font) {
  return font * 2.6f;
}
float plot_legend_row(float font) {
  return font * 1.5f;
}
// Where viz::draw_plot's frame (and legend) starts: its y tick labels, assumed four digits.
float plot_lead(float font, float s) {
  return font * 1.6f + ImGui::CalcTextSize("0000").x + 8 * s;
}
// Whether the plot's own one-line legend fits `width`.
bool legend_fits_one_line(const std::vector<PlotLegendEntry>& entries, float width, float s) {
  float w = 0;
  for (const auto& e : entries) w += entry_width(e, s) + 20 * s;
  return plot_lead(ImGui::GetFontSize(), s) + w - 20 * s <= width - 12 * s;
}
// The legend draw_wrapped_plot gives a plot of `width`: its own line where it fits, else none
// (beside the view, in the presenter layout) or flowed into lines under the x label.
viz::PlotLayout::Legend legend_kind(const std::vector<PlotLegendEntry>& entries, float width,
                                    float s) {
  // In the presenter layout every legend stands beside the view (as the warp and bank views'
  // do), so the plot keeps the height.
  if (entries.empty() || open_legend_slot()) return viz::PlotLayout::Legend::None;
  if (legend_fits_one_line(entries, width, s)) return viz::PlotLayout::Legend::OneLine;
  return viz::PlotLayout::Legend::Wrapped;
}
// The height of that legend (viz::plot_legend_height's rule: 1.5 lines, 1.25 for each more).
float legend_kind_height(const std::vector<PlotLegendEntry>& entries, float width, float s,
                         viz::PlotLayout::Legend kind) {
  const float font = ImGui::GetFontSize();
  switch (kind) {
    case viz::PlotLayout::Legend::None: return 0;
    case viz::PlotLayout::Legend::OneLine: return plot_legend_row(font);
    case viz::PlotLayout::Legend::Wrapped: break;
  }
  const int lines = legend_lines(entries, width - 8 * s, s).back() + 1;
  return plot_legend_row(font) + static_cast<float>(lines - 1) * font * 1.25f;
}

// The gap between a picker's buttons: tight, so that short rooms keep them on one row.
float picker_gap() {
  return 0.4f * ImGui::GetStyle().ItemSpacing.x;
}

// A picker's buttons: their names, the scale of their text and how many rows they take. The long
// names where they all fit one row of `width`, else the short ones, at the full font or, to keep
// one row, down to three quarters of it; wrapped into rows at the full font where not even that
// fits.
struct Picker {
  std::vector<std::string> names;
  float text_scale = 1;
  int rows = 1;
};

Picker fit_picker(const std::vector<PlotCell>& cells, float width) {
  const float pad = 2 * ImGui::GetStyle().FramePadding.x;
  const auto rows_of = [&](const Picker& p) {
    int rows = 1;
    float used = 0;
    for (std::size_t i = 0; i < p.names.size(); ++i) {
      const float w = p.text_scale * ImGui::CalcTextSize(p.names[i].c_str()).x + pad;
      if (i > 0 && used + picker_gap() + w > width) {
        ++rows;
        used = 0;
      } else if (i > 0) {
        used += picker_gap();
      }
      used += w;
    }
    return rows;
  };
  Picker full, brief;
  for (const auto& c : cells) {
    full.names.push_back(c.name);
    brief.names.push_back(c.short_name.empty() ? c.name : c.short_name);
  }
  for (Picker p : {full, brief}) {
    for (float scale : {1.0f, 0.85f, 0.75f}) {
      if (scale < 1 && p.names == full.names && full.names != brief.names) break;
      p.text_scale = scale;
      if (rows_of(p) == 1) return p;
    }
  }
  brief.text_scale = 1;
  brief.rows = rows_of(brief);
  return brief;
}

float picker_row_height(const Picker& p) {
  return p.text_scale * ImGui::GetFontSize() + 2 * ImGui::GetStyle().FramePadding.y +
         ImGui::GetStyle().ItemSpacing.y;
}

}  // namespace

float plot_min_height(const std::vector<PlotLegendEntry>& entries, float width, float s) {
  const float font = ImGui::GetFontSize();
  return plot_top(font, s) + 3.0f * font + plot_under_frame(font) +
         legend_kind_height(entries, width, s, legend_kind(entries, width, s));
}

float plot_least_height(const std::vector<PlotLegendEntry>& entries, float width, float s) {
  return plot_min_height(entries, width, s) - ImGui::GetFontSize();
}

float cell_least_height(const PlotCell& cell, float width, float s) {
  return cell.min_height ? cell.min_height(width) : plot_least_height(cell.legend, width, s);
}

float cell_min_height(const PlotCell& cell, float width, float s) {
  return cell.min_height ? cell.min_height(width) : plot_min_height(cell.legend, width, s);
}

void draw_wrapped_plot(const char* id, const std::string& title, const viz::PlotSpec& spec,
                       const std::vector<viz::PlotSeries>& series,
                       const std::vector<viz::ReferenceLine>& references, float width, float height,
                       const viz::Theme& theme, float s, bool interactive, ViewAside& aside) {
  const std::vector<PlotLegendEntry> entries = legend_entries(series, references);
  viz::PlotLayout layout;
  layout.legend = legend_kind(entries, width, s);
  // Beside the view, the series only: the reference lines carry their names in the frame (a
  // name that finds no room there is the audit's "moved" finding), and a short projector column
  // keeps the series' keys in sight.
  if (layout.legend == viz::PlotLayout::Legend::None && !entries.empty()) {
    std::vector<PlotLegendEntry> keys = legend_entries(series, {});
    if (!keys.empty()) aside.legends.emplace_back(title, std::move(keys));
  }
  // A chart with nothing on it teaches nothing: without a GPU it draws the model's lines.
  if (references.empty() && spec.x_marks.empty() &&
      std::none_of(series.begin(), series.end(), [](const auto& se) { return !se.x.empty(); }))
    audit_finding("missing", std::string(id) + " view: the " + title +
                                 " chart is empty (neither measured nor model lines)");
  // A dashed line says "model" or "reference": one without a name leaves the class guessing.
  const auto unnamed = [](const auto& line) { return line.label.empty(); };
  if (std::any_of(series.begin(), series.end(),
                  [&](const auto& se) { return se.dashed && !se.x.empty() && unnamed(se); }) ||
      std::any_of(references.begin(), references.end(), unnamed) ||
      std::any_of(spec.x_marks.begin(), spec.x_marks.end(), unnamed))
    audit_finding("missing", std::string(id) + " view: a dashed line without a name in the " +
                                 title + " chart");
  std::vector<std::string> unplaced;
  layout.unplaced_marks = &unplaced;
  // Two reference lines (the theoretical peak over cudaMemcpy) label themselves one over and one
  // under the pair: a frame shorter than three such labels (1280x720 at 3x) draws the plot's
  // text smaller, down to 0.6 of the font but never below its size at scale 1, so that the frame
  // grows and both labels stay in it.
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float scale_before = window->FontWindowScale;
  if (references.size() >= 2) {
    for (const float smaller : {1.0f, 0.85f, 0.7f, 0.6f}) {
      if (smaller < 1.0f && smaller * scale_before * s < 1.0f) break;
      ImGui::SetWindowFontScale(smaller * scale_before);
      const float font = ImGui::GetFontSize();
      const float frame_h = height - plot_under_frame(font) - plot_top(font, s) -
                            viz::plot_legend_height(series, references, width, s, layout.legend);
      if (frame_h >= 3 * (std::max(0.75f * font, 12.0f) + 6 * s)) break;
    }
  }
  viz::draw_plot(id, spec, series, references, width, height, theme, s, interactive, layout);
  ImGui::SetWindowFontScale(scale_before);
  // A mark whose label the frame had no room for: its label goes aside, naming the line. A
  // reader then matches a note to a line by its words alone: on a projector that is a defect.
  for (const std::string& label : unplaced) {
    aside.notes.push_back(
        {"No room in the " + title + " chart for a dashed line's label: " + label + ".", false});
    audit_finding("moved", std::string(id) + " view: the label of a dashed line beside the " +
                               title + " chart, not on its line (" + label + ")");
  }
}

float picker_height(const std::vector<PlotCell>& cells, float width) {
  const Picker p = fit_picker(cells, width);
  return static_cast<float>(p.rows) * picker_row_height(p);
}

namespace {

// A plot alone in a room shorter than it reads at (a small window at a large scale: its text
// grows with the scale, the room does not) draws its text smaller, down to 0.4 of the font but
// never below its size at scale 1, so its frame keeps the room. Leaves the window's font scale at
// the size chosen (the caller puts it back to 1 after drawing) and returns it.
float shrink_text_to_fit(const PlotCell& cell, float width, float height, float s) {
  if (height >= cell_least_height(cell, width, s)) return 1.0f;
  float f = 1.0f;
  for (const float smaller : {0.85f, 0.7f, 0.6f, 0.5f, 0.4f}) {
    if (smaller * s < 1.0f) break;  // never smaller than the text at scale 1
    f = smaller;
    ImGui::SetWindowFontScale(f);
    if (height >= cell_least_height(cell, width, s)) break;
  }
  return f;
}

}  // namespace

void draw_plot_grid(const char* id, const std::vector<PlotCell>& cells, float width, float height,
                    float s, bool one_at_a_time) {
  const int count = static_cast<int>(cells.size());
  if (count == 0) return;
  const float gap = 14 * s;
  const float min_w = 18 * ImGui::GetFontSize();
  const auto fits = [&](int columns, float& cell_w, float& cell_h) {
    cell_w = (width - static_cast<float>(columns - 1) * gap) / static_cast<float>(columns);
    const int rows = (count + columns - 1) / columns;
    cell_h = (height - static_cast<float>(rows - 1) * gap) / static_cast<float>(rows);
    if (columns > 1 && cell_w < min_w) return false;
    for (const auto& c : cells)
      if (cell_h < cell_min_height(c, cell_w, s)) return false;
    return true;
  };
  const ImVec2 o = ImGui::GetCursorScreenPos();
  for (int columns = count; columns >= 1 && !one_at_a_time; --columns) {
    float cell_w = 0, cell_h = 0;
    if (!fits(columns, cell_w, cell_h)) continue;
    for (int i = 0; i < count; ++i) {
      ImGui::SetCursorScreenPos({o.x + static_cast<float>(i % columns) * (cell_w + gap),
                                 o.y + static_cast<float>(i / columns) * (cell_h + gap)});
      ImGui::BeginGroup();
      cells[static_cast<std::size_t>(i)].draw(cell_w, cell_h);
      ImGui::EndGroup();
    }
    return;
  }
  // One at a time: the picker's buttons (the chosen one lit, wrapping when narrow), then the
  // picked plot; a lone plot takes the room without a picker.
  if (count == 1) {
    const float f = shrink_text_to_fit(cells.front(), width, height, s);
    if (height < cell_least_height(cells.front(), width, s))
      audit_finding("hidden", std::string(id) + " view: the " + cells.front().name + " plot has " +
                                  std::to_string(static_cast<int>(std::max(height, 0.0f))) +
                                  " px of height, less than it reads at");
    if (height >= 1.0f) cells.front().draw(width, height);
    if (f < 1.0f) ImGui::SetWindowFontScale(1.0f);
    return;
  }
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID key = ImGui::GetID(id);
  int picked = std::clamp(storage->GetInt(key, 0), 0, count - 1);
  Picker picker = fit_picker(cells, width);
  // Where the picked plot would be left short of what it reads at, smaller buttons (one row).
  const PlotCell& wanted = cells[static_cast<std::size_t>(picked)];
  if (height - ImGui::GetFrameHeightWithSpacing() * picker.text_scale <
      cell_least_height(wanted, width, s))
    picker.text_scale = std::min(picker.text_scale, 0.4f);
  ImGui::PushID(id);
  ImGui::SetWindowFontScale(picker.text_scale);
  float used = 0;
  for (int i = 0; i < count; ++i) {
    const std::string& name = picker.names[static_cast<std::size_t>(i)];
    const float w = ImGui::CalcTextSize(name.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
    if (i > 0 && used + picker_gap() + w <= width) {
      ImGui::SameLine(0, picker_gap());
      used += picker_gap();
    } else {
      used = 0;
    }
    used += w;
    const bool current = picked == i;
    if (current)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    ImGui::PushID(i);
    if (ImGui::Button(name.c_str())) picked = i;
    ImGui::PopID();
    if (current) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered() && name != cells[static_cast<std::size_t>(i)].name)
      ImGui::SetTooltip("%s", cells[static_cast<std::size_t>(i)].name.c_str());
  }
  ImGui::SetWindowFontScale(1.0f);  // the cache view draws everything else at its font's size
  ImGui::PopID();
  storage->SetInt(key, picked);
  const float rest = height - (ImGui::GetCursorScreenPos().y - o.y);
  const PlotCell& cell = cells[static_cast<std::size_t>(picked)];
  const float f = shrink_text_to_fit(cell, width, rest, s);
  if (rest < cell_least_height(cell, width, s)) {
    audit_finding("hidden", std::string(id) + " view: the " + cell.name + " plot has " +
                                std::to_string(static_cast<int>(std::max(rest, 0.0f))) +
                                " px of height, less than it reads at");
  }
  if (rest >= 1.0f) cell.draw(width, rest);
  if (f < 1.0f) ImGui::SetWindowFontScale(1.0f);
}

}  // namespace warplens::app
