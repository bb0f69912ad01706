// The cache lab's UI entry points: the parameter panel, the big view (which hands each section
// to its own file, cache_ui_<section>.cpp), the status line and the colour and label helpers the
// cache_ui*.cpp files share (cache_ui_internal.h). The numbers table is in cache_ui_numbers.cpp.
#include "cache_ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "cache_ui_internal.h"
#include "layout_audit.h"
#include "legend_slot.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace cache_ui_detail {

std::string kib(std::int64_t bytes) {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
    return std::to_string(bytes / (1024 * 1024)) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return format("%.1f KiB", static_cast<double>(bytes) / 1024.0);
}

const char* path_label(gpu::ReadPath p) {
  switch (p) {
    case gpu::ReadPath::Plain: return "plain load";
    case gpu::ReadPath::Ldg: return "__ldg";
    case gpu::ReadPath::Texture: return "texture";
  }
  return "?";
}

const char* pattern_footprint(gpu::ReadPattern p) {
  switch (p) {
    case gpu::ReadPattern::Scattered: return "scattered";
    case gpu::ReadPattern::Local2D:
    case gpu::ReadPattern::Morton: return "window, warp 16\u00d72";
    case gpu::ReadPattern::ColumnTile:
    case gpu::ReadPattern::ColumnTileMorton: return "4\u00d74 tile, warp 1\u00d732";
  }
  return "?";
}
const char* pattern_layout(gpu::ReadPattern p) {
  return gpu::reads_morton(p) ? "Morton" : "row-major";
}
std::string pattern_label(gpu::ReadPattern p) {
  if (p == gpu::ReadPattern::Scattered) return pattern_footprint(p);
  return std::string(pattern_footprint(p)) + ", " + pattern_layout(p);
}

std::string hit_text(const L1HitRate& rate) {
  return rate.percent ? format("%.0f %%", *rate.percent) : std::string("n/a");
}

void text_centered(ImDrawList* draw, ImVec2 center, ImU32 color, const std::string& text) {
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  draw->AddText({center.x - 0.5f * ts.x, center.y - 0.5f * ts.y}, color, text.c_str());
}

void heading(const viz::ImGuiLayer& layer, const std::string& text) {
  ImGui::PushFont(layer.fonts().bold);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
}

std::string fitting_heading(const viz::ImGuiLayer& layer, const std::string& long_text,
                            const std::string& short_text, float below) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  return avail.y - heading_height(layer, long_text, avail.x) >= below ? long_text : short_text;
}

float heading_height(const viz::ImGuiLayer& layer, const std::string& text, float width) {
  ImGui::PushFont(layer.fonts().bold);
  const float h = wrapped_height(text, width);
  ImGui::PopFont();
  return h;
}

float wrapped_height(const std::string& text, float width) {
  return ImGui::CalcTextSize(text.c_str(), nullptr, false, width).y +
         ImGui::GetStyle().ItemSpacing.y;
}

void draw_note(const CacheAside::Note& note, const viz::Theme& theme) {
  if (note.text.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, note.warning
                                           ? color4(theme.warning)
                                           : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(note.text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

std::vector<CacheAside::Note> fit_notes(const std::vector<CacheAside::Note>& notes, float room,
                                        float width, CacheAside& aside, float& height) {
  std::vector<CacheAside::Note> kept;
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

std::vector<CacheLegendEntry> legend_entries(const std::vector<viz::PlotSeries>& series,
                                             const std::vector<viz::ReferenceLine>& references) {
  std::vector<CacheLegendEntry> entries;
  for (const auto& se : series) entries.push_back({se.label, se.color, se.dashed, false});
  for (const auto& r : references) entries.push_back({r.label, r.color, true, false});
  return entries;
}

namespace {

float entry_width(const CacheLegendEntry& e, float s) {
  return 28 * s + ImGui::CalcTextSize(e.label.c_str()).x;
}

// The line each entry starts (0, 1, ...) when `entries` flow into `width`.
std::vector<int> legend_lines(const std::vector<CacheLegendEntry>& entries, float width, float s) {
  std::vector<int> line;
  float used = 0;
  int n = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const float w = entry_width(entries[i], s);
    if (i > 0 && used + 20 * s + w > width) {
      ++n;
      used = 0;
    }
    used += (used > 0 ? 20 * s : 0.0f) + w;
    line.push_back(n);
  }
  return line;
}

}  // namespace

float legend_height(const std::vector<CacheLegendEntry>& entries, float width, float s) {
  if (entries.empty()) return 0;
  const int lines = legend_lines(entries, width, s).back() + 1;
  return static_cast<float>(lines) * ImGui::GetTextLineHeightWithSpacing() -
         ImGui::GetStyle().ItemSpacing.y;
}

void draw_legend(const std::vector<CacheLegendEntry>& entries, float width, float s) {
  const std::vector<int> line = legend_lines(entries, width, s);
  const float font = ImGui::GetFontSize();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const CacheLegendEntry& e = entries[i];
    if (i > 0 && line[i] == line[i - 1]) ImGui::SameLine(0, 20 * s);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy({22 * s, font});
    const ImU32 c = to_imgui_color(e.color);
    const float y = p.y + 0.5f * font;
    if (e.box) {
      draw->AddRectFilled({p.x + 4 * s, p.y + 2 * s}, {p.x + 4 * s + font - 4 * s, p.y + font}, c,
                          2 * s);
    } else if (e.dashed) {
      for (float x = 0; x < 22 * s; x += 8 * s)
        draw->AddLine({p.x + x, y}, {p.x + std::min(x + 4 * s, 22 * s), y}, c, 2.0f * s);
    } else {
      draw->AddLine({p.x, y}, {p.x + 22 * s, y}, c, 2.5f * s);
    }
    ImGui::SameLine(0, 6 * s);
    ImGui::PushTextWrapPos(0);  // a label wider than the window wraps instead of running off
    ImGui::TextUnformatted(e.label.c_str());
    ImGui::PopTextWrapPos();
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
bool legend_fits_one_line(const std::vector<CacheLegendEntry>& entries, float width, float s) {
  float w = 0;
  for (const auto& e : entries) w += entry_width(e, s) + 20 * s;
  return plot_lead(ImGui::GetFontSize(), s) + w - 20 * s <= width - 12 * s;
}

}  // namespace

float plot_min_height(const std::vector<CacheLegendEntry>& entries, float width, float s) {
  const float font = ImGui::GetFontSize();
  float legend = plot_legend_row(font);
  if (!legend_fits_one_line(entries, width, s) && !open_legend_slot())
    legend = std::max(legend, legend_height(entries, width - 8 * s, s) + 2 * s);
  return plot_top(font, s) + 3.0f * font + plot_under_frame(font) + legend;
}

void draw_wrapped_plot(const char* id, const std::string& title, const viz::PlotSpec& spec,
                       const std::vector<viz::PlotSeries>& series,
                       const std::vector<viz::ReferenceLine>& references, float width, float height,
                       const viz::Theme& theme, float s, bool interactive, CacheAside& aside) {
  const std::vector<CacheLegendEntry> entries = legend_entries(series, references);
  if (legend_fits_one_line(entries, width, s)) {
    viz::draw_plot(id, spec, series, references, width, height, theme, s, interactive);
    return;
  }
  // The plot's own legend row stays empty (clipped away); ours wraps in and under it.
  const float font = ImGui::GetFontSize();
  const float row = plot_legend_row(font);
  LegendSlot* slot = open_legend_slot();
  const float legend_w = width - 8 * s;
  const float extra =
      slot ? 0.0f : std::max(0.0f, legend_height(entries, legend_w, s) + 2 * s - row);
  const float plot_h = height - extra;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->PushClipRect(o, {o.x + width, o.y + plot_h - row + 2 * s}, true);
  viz::draw_plot(id, spec, series, references, width, plot_h, theme, s, interactive);
  draw->PopClipRect();
  if (slot) {
    aside.legends.emplace_back(title, entries);
    return;
  }
  ImGui::SetCursorScreenPos({o.x + 4 * s, o.y + plot_h - row + 2 * s});
  ImGui::BeginGroup();
  draw_legend(entries, legend_w, s);
  ImGui::EndGroup();
}

void draw_plot_grid(const char* id, const std::vector<PlotCell>& cells, float width, float height,
                    float s) {
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
      if (cell_h < plot_min_height(c.legend, cell_w, s)) return false;
    return true;
  };
  const ImVec2 o = ImGui::GetCursorScreenPos();
  for (int columns = count; columns >= 1; --columns) {
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
  // One at a time: the picker's buttons (wrapping when narrow), then the picked plot.
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID key = ImGui::GetID(id);
  int picked = std::clamp(storage->GetInt(key, 0), 0, count - 1);
  ImGui::PushID(id);
  float used = 0;
  for (int i = 0; i < count; ++i) {
    const std::string& name = cells[static_cast<std::size_t>(i)].name;
    const float w = ImGui::GetFrameHeight() + ImGui::CalcTextSize(name.c_str()).x +
                    ImGui::GetStyle().ItemInnerSpacing.x;
    if (i > 0 && used + ImGui::GetStyle().ItemSpacing.x + w <= width) {
      ImGui::SameLine();
      used += ImGui::GetStyle().ItemSpacing.x;
    } else {
      used = 0;
    }
    used += w;
    if (ImGui::RadioButton(name.c_str(), picked == i)) picked = i;
  }
  ImGui::PopID();
  storage->SetInt(key, picked);
  const float rest = height - (ImGui::GetCursorScreenPos().y - o.y);
  const PlotCell& cell = cells[static_cast<std::size_t>(picked)];
  if (rest < plot_min_height(cell.legend, width, s)) {
    audit_finding("hidden", "cache view: the " + cell.name + " plot has " +
                                std::to_string(static_cast<int>(std::max(rest, 0.0f))) +
                                " px of height, less than it reads at");
    if (rest < 1.0f) return;
  }
  cell.draw(width, rest);
}

CacheAside::Note measured_state_note(const CacheSession& session, const CacheResults& r,
                                     bool have) {
  if (!session.gpu_mode())
    return have ? CacheAside::Note{} : CacheAside::Note{session.no_gpu_text(), true};
  if (r.busy) return {format("%s \u2026 %d / %d", r.status.c_str(), r.done, r.total), false};
  return have ? CacheAside::Note{} : CacheAside::Note{"not measured yet", false};
}

}  // namespace cache_ui_detail

using namespace cache_ui_detail;

namespace {

const char* section_label(CacheSection s) {
  switch (s) {
    case CacheSection::Carveout: return "Carveout";
    case CacheSection::L1: return "L1 sweep";
    case CacheSection::Constant: return "Constant";
    case CacheSection::ReadPath: return "Read path";
  }
  return "?";
}

}  // namespace

viz::Rgb cache_series_color(const viz::Theme& theme, int i, int n) {
  // Light: skip the palest yellows; dark: skip the darkest purples.
  const int first = theme.name == viz::ThemeName::Dark ? 8 : 2;
  const int lane = n <= 1 ? first + 4 : first + i * 22 / (n - 1);
  return theme.lanes[std::clamp(lane, 0, 31)];
}

std::string carveout_text(int carveout) {
  if (carveout == gpu::kCarveoutDefault) return "default (-1)";
  if (carveout == gpu::kCarveoutMaxL1) return "0 % (max L1)";
  if (carveout == gpu::kCarveoutMaxShared) return "100 % (max shared)";
  return std::to_string(carveout) + " %";
}

void draw_cache_parameters(CacheSession& session, const CacheResults& r, const viz::Theme& theme,
                           ImVec2 pos, ImVec2 size, bool interactive,
                           const std::function<void()>& header) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Parameters##cache", nullptr, kPanelFlags);
  if (header) header();
  CacheState st = session.state();
  const CacheModel& m = session.model();
  label("Cache lab");
  const float half = 0.5f * (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x);
  for (auto sec :
       {CacheSection::Carveout, CacheSection::L1, CacheSection::Constant, CacheSection::ReadPath}) {
    if (sec != CacheSection::Carveout && sec != CacheSection::Constant) ImGui::SameLine();
    const bool current = st.section == sec;
    if (current)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(section_label(sec), {half, 0}) && !current) st.section = sec;
    if (current) ImGui::PopStyleColor();
  }
  ImGui::Separator();
  ImGui::TextDisabled("%s", m.device_text.c_str());
  switch (st.section) {
    case CacheSection::Carveout: {
      label("Carveout (% of the largest shared capacity)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##carveout", &st.carveout, -1, 100,
                       st.carveout < 0 ? "-1 (driver default)" : "%d %%");
      radio_row<int>("carveout-presets", st.carveout,
                     {{-1, "default"}, {0, "0"}, {50, "50"}, {100, "100"}});
      label("Dynamic shared memory per block (KiB)");
      int dyn_kib = static_cast<int>(st.dynamic_shared_bytes / 1024);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##dyn", &dyn_kib, 0, static_cast<int>(m.optin_limit_bytes / 1024),
                           "%d KiB"))
        st.dynamic_shared_bytes = std::int64_t{dyn_kib} * 1024;
      ImGui::TextWrapped("Capacity %d KiB, L1 left %d KiB, %d blocks/SM predicted.",
                         m.current.choice.shared_kib, m.current.choice.l1_kib,
                         m.current.blocks_per_sm);
      break;
    }
    case CacheSection::L1: {
      label("Working set per block (the ringed point)");
      const auto& sets = l1_working_sets();
      int index = 0;
      for (std::size_t i = 0; i < sets.size(); ++i)
        if (sets[i] == st.working_set_bytes) index = static_cast<int>(i);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##ws", &index, 0, static_cast<int>(sets.size()) - 1,
                           kib(sets[static_cast<std::size_t>(index)]).c_str()))
        st.working_set_bytes = sets[static_cast<std::size_t>(index)];
      ImGui::TextWrapped("The sweep times every working set at carveouts default, 0, 50 and 100.");
      break;
    }
    case CacheSection::Constant:
      label("k: distinct addresses per warp (1 = broadcast)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##k", &st.k, 1, 32);
      break;
    case CacheSection::ReadPath: {
      label("Load path (the ringed bar)");
      radio_row<gpu::ReadPath>("path", st.read.path,
                               {{gpu::ReadPath::Plain, "plain"},
                                {gpu::ReadPath::Ldg, "__ldg"},
                                {gpu::ReadPath::Texture, "texture"}});
      label("Access pattern");
      radio_row<gpu::ReadPattern>("pattern", st.read.pattern,
                                  {{gpu::ReadPattern::Scattered, "scattered"},
                                   {gpu::ReadPattern::Local2D, "window"},
                                   {gpu::ReadPattern::Morton, "Morton"}});
      radio_row<gpu::ReadPattern>("pattern-tile", st.read.pattern,
                                  {{gpu::ReadPattern::ColumnTile, "4\u00d74 tile"},
                                   {gpu::ReadPattern::ColumnTileMorton, "tile, Morton"}});
      label("Image side (pixels)");
      int log_side = static_cast<int>(std::lround(std::log2(st.read.side)));
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##side", &log_side, 6, 13, std::to_string(st.read.side).c_str()))
        st.read.side = 1 << log_side;
      label("Window radius (window patterns)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##radius", &st.read.radius, 0, 4);
      label("Reads per thread (scattered)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##reads", &st.read.scattered_reads, 1, 32);
      break;
    }
  }
  if (!(st == session.state())) session.set(st);
  ImGui::Separator();
  if (!session.gpu_mode()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", session.no_gpu_text().c_str());
    ImGui::PopTextWrapPos();
  } else if (r.busy) {
    ImGui::ProgressBar(r.total ? static_cast<float>(r.done) / static_cast<float>(r.total) : 0.0f,
                       {-1, 0}, r.status.c_str());
  } else if (interactive && ImGui::Button("Measure again")) {
    session.remeasure();
  }
  const std::string error = session.error();
  if (!error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(error.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  ImGui::End();
}

void CacheAside::draw(const viz::Theme& theme, float s) const {
  for (const auto& [title, entries] : legends) {
    if (!title.empty()) ImGui::TextDisabled("%s", title.c_str());
    draw_legend(entries, ImGui::GetContentRegionAvail().x, s);
  }
  for (const Note& n : notes) draw_note(n, theme);
}

void draw_cache_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                     const viz::Theme& theme, ImVec2 pos, ImVec2 size, bool interactive,
                     CacheAside& aside) {
  aside = {};
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  // In the presenter layout the strip names the scenario and the heading the section: the
  // title bar's line goes to the picture.
  ImGui::Begin("Cache lab##cache-view", nullptr,
               kPanelFlags | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                   (open_legend_slot() ? ImGuiWindowFlags_NoTitleBar : 0));
  switch (session.state().section) {
    case CacheSection::Carveout:
      draw_carveout_view(session, r, layer, theme, interactive, aside);
      break;
    case CacheSection::L1: draw_l1_view(session, r, layer, theme, interactive, aside); break;
    case CacheSection::Constant:
      draw_constant_view(session, r, layer, theme, interactive, aside);
      break;
    case CacheSection::ReadPath:
      draw_read_path_view(session, r, layer, theme, interactive, aside);
      break;
  }
  ImGui::End();
  // The presenter layout draws no numbers panel: what the view set aside goes beside it.
  if (LegendSlot* slot = open_legend_slot(); slot && !aside.empty())
    slot->set([copy = aside, &theme, s = layer.scale()] { copy.draw(theme, s); });
}

void draw_cache_knobs(CacheSession& session, float s) {
  CacheState st = session.state();
  const CacheModel& m = session.model();
  // Two knobs at most, each as wide as its longest value needs and no more than its share.
  const float room = ImGui::GetContentRegionAvail().x * 0.55f;
  const auto knob_width = [&](const char* longest, int knobs) {
    const float want = ImGui::CalcTextSize(longest).x + 2 * ImGui::GetStyle().FramePadding.x +
                       ImGui::GetFrameHeight();
    return std::max(2.5f * ImGui::GetFrameHeight(),
                    std::min(want, room / static_cast<float>(knobs) - 8 * s));
  };
  // The knob's words where they fit it, else its value alone (the tooltip says what it is).
  const auto says = [](float w, const char* long_format, const char* short_format) {
    return ImGui::CalcTextSize(long_format).x + 2 * ImGui::GetStyle().FramePadding.x <= w
               ? long_format
               : short_format;
  };
  switch (st.section) {
    case CacheSection::Carveout: {
      const float w1 = knob_width("carveout 100 %", 2);
      ImGui::SetNextItemWidth(w1);
      ImGui::SliderInt("##knob-carveout", &st.carveout, -1, 100,
                       st.carveout < 0 ? says(w1, "carveout default", "default")
                                       : says(w1, "carveout %d %%", "%d %%"));
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("carveout: %% of the largest shared capacity (-1: the driver picks)");
      ImGui::SameLine(0, 8 * s);
      int dyn_kib = static_cast<int>(st.dynamic_shared_bytes / 1024);
      const float w2 = knob_width("227 KiB / block", 2);
      ImGui::SetNextItemWidth(w2);
      if (ImGui::SliderInt("##knob-dyn", &dyn_kib, 0, static_cast<int>(m.optin_limit_bytes / 1024),
                           says(w2, "%d KiB / block", "%d KiB")))
        st.dynamic_shared_bytes = std::int64_t{dyn_kib} * 1024;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("dynamic shared memory per block");
      break;
    }
    case CacheSection::L1: {
      const auto& sets = l1_working_sets();
      int index = 0;
      for (std::size_t i = 0; i < sets.size(); ++i)
        if (sets[i] == st.working_set_bytes) index = static_cast<int>(i);
      ImGui::SetNextItemWidth(knob_width("working set 1024 KiB", 1));
      if (ImGui::SliderInt("##knob-ws", &index, 0, static_cast<int>(sets.size()) - 1,
                           ("working set " + kib(sets[static_cast<std::size_t>(index)])).c_str()))
        st.working_set_bytes = sets[static_cast<std::size_t>(index)];
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("working set per block (the ringed point)");
      break;
    }
    case CacheSection::Constant: {
      const float w = knob_width("k = 32 addresses", 1);
      ImGui::SetNextItemWidth(w);
      ImGui::SliderInt("##knob-k", &st.k, 1, 32, says(w, "k = %d addresses", "k = %d"));
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("k: distinct __constant__ addresses per warp request (1 = broadcast)");
      break;
    }
    case CacheSection::ReadPath: {
      int path = 0, pattern = 0;
      for (std::size_t i = 0; i < read_paths().size(); ++i)
        if (read_paths()[i] == st.read.path) path = static_cast<int>(i);
      for (std::size_t i = 0; i < read_patterns().size(); ++i)
        if (read_patterns()[i] == st.read.pattern) pattern = static_cast<int>(i);
      ImGui::SetNextItemWidth(knob_width("plain load", 2));
      if (ImGui::BeginCombo("##knob-path", path_label(st.read.path))) {
        for (std::size_t i = 0; i < read_paths().size(); ++i)
          if (ImGui::Selectable(path_label(read_paths()[i]), static_cast<int>(i) == path))
            st.read.path = read_paths()[i];
        ImGui::EndCombo();
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("load path (the ringed bar)");
      ImGui::SameLine(0, 8 * s);
      const std::string shown = pattern_label(st.read.pattern);
      ImGui::SetNextItemWidth(knob_width("4\u00d74 tile, warp 1\u00d732, Morton", 2));
      if (ImGui::BeginCombo("##knob-pattern", shown.c_str())) {
        for (std::size_t i = 0; i < read_patterns().size(); ++i)
          if (ImGui::Selectable(pattern_label(read_patterns()[i]).c_str(),
                                static_cast<int>(i) == pattern))
            st.read.pattern = read_patterns()[i];
        ImGui::EndCombo();
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("access pattern: %s", shown.c_str());
      break;
    }
  }
  if (!(st == session.state())) session.set(st);
}

std::string cache_status_text(const CacheSession& session, const CacheResults& r) {
  const CacheModel& m = session.model();
  std::string text = std::string("cache lab \u2022 ") + to_string(session.state().section) +
                     " \u2022 " + m.device_text;
  if (!session.gpu_mode()) return text + " \u2022 model only";
  if (r.busy) text += " \u2022 " + r.status;
  return text;
}

}  // namespace warplens::app
