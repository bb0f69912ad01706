// The cache lab's Read path section: GB/s bars of the plain, __ldg and texture loads grouped
// by access pattern, each with its L1 hit rate from the hardware counters, and their legend.
// Before anything is measured (always without a GPU) the bars are the model's: the sectors and
// 128-byte lines one warp load of each pattern touches (read_path_model.h).
// The chart takes the room the notes leave it; where a group's name does not fit under it the
// groups are numbered and a key names them.
#include "cache_ui_internal.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <optional>
#include <string>
#include <vector>

#include "layout_audit.h"
#include "legend_slot.h"
#include "plot.h"
#include "read_path_model.h"
#include "ui_widgets.h"

namespace warplens::app::cache_ui_detail {

namespace {

// Why the bars come out as they do on a current GPU, in short.
constexpr const char* kUnifiedNote =
    "From compute capability 7.0 on, L1 and the texture cache are one unit: __ldg and texture "
    "reads go through the same L1 as plain loads (older slides show a separate texture cache), "
    "so they buy little there. Every path must also bring the image's unique bytes from DRAM "
    "once; that traffic is the floor for all three.";

constexpr const char* kBarsNote =
    "Bars grouped by access pattern: each thread's footprint, the shape of a warp's centres, the "
    "layout. A texture over a cudaArray has its own 2D layout, so its Morton bars repeat the "
    "row-major reads. Inside a bar: its L1 hit rate from the hardware counters. The framed bar: "
    "the path and pattern the knobs pick.";

constexpr const char* kModelBarsNote =
    "Model bars: the distinct 32-byte sectors and 128-byte lines one warp load touches, the mean "
    "over warp 0's loads, in the buffer the plain and __ldg paths both read. A texture reads a "
    "cudaArray laid out by the driver: no model; its bars and the GB/s need a GPU.";
// After kModelBarsNote where a plain or __ldg path is picked (its bars are framed).
constexpr const char* kModelFramedNote = " The framed bars: the pattern the knobs pick.";

// A count the model gives as a mean: whole where it is whole, else one decimal.
std::string model_count(double v) {
  return v == static_cast<double>(static_cast<long long>(v)) ? format("%.0f", v)
                                                             : format("%.1f", v);
}

}  // namespace

void draw_read_path_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                         const viz::Theme& theme, bool interactive, CacheAside& aside) {
  const float s = layer.scale();
  const CacheState& st = session.state();
  const auto& paths = read_paths();
  const auto& patterns = read_patterns();
  const int n_paths = static_cast<int>(paths.size());
  const int n_groups = static_cast<int>(patterns.size());
  const float font = ImGui::GetFontSize();
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const float width = ImGui::GetContentRegionAvail().x;
  const float heading_room = ImGui::GetContentRegionAvail().y;
  // Nothing measured (always without a GPU): the model's sectors and lines per warp load, two
  // bars per pattern, instead of the load paths' GB/s.
  const bool model_bars = r.read.empty();
  const int n_bars = model_bars ? 2 : n_paths;
  const std::string title_long = read_path_title(st, model_bars);
  const std::string title_short =
      format(model_bars ? "Read path: %d\u00b2 pixels, per warp load (model)"
                        : "Read path: %d\u00b2 pixels, GB/s",
             st.read.side);
  const std::string title_shortest = format("Read path, %d\u00b2", st.read.side);

  // The bars' values: [group][bar], none where a path has not been measured yet.
  std::vector<std::vector<std::optional<double>>> values(
      static_cast<std::size_t>(n_groups),
      std::vector<std::optional<double>>(static_cast<std::size_t>(n_bars)));
  for (int gi = 0; gi < n_groups; ++gi) {
    auto& row = values[static_cast<std::size_t>(gi)];
    const gpu::ReadPattern pattern = patterns[static_cast<std::size_t>(gi)];
    if (model_bars) {
      gpu::ReadPathParams p = st.read;
      p.path = gpu::ReadPath::Plain;
      p.pattern = pattern;
      const WarpLoadModel wm = read_load_model(p);
      row[0] = wm.sectors;
      row[1] = wm.lines;
      continue;
    }
    for (const auto& m : r.read)
      for (int pi = 0; pi < n_paths; ++pi)
        if (m.params.pattern == pattern && m.params.path == paths[static_cast<std::size_t>(pi)])
          row[static_cast<std::size_t>(pi)] = m.gbps;
  }
  const auto bar_color = [&](int pi) {
    if (!model_bars) return series_color(theme, pi, n_paths);
    return pi == 0 ? theme.sector : theme.rule;  // the colours of sectors and line rules
  };

  // The chart's parts that do not depend on the data.
  double top_value = 0;
  for (const auto& row : values)
    for (const auto& v : row) top_value = std::max(top_value, v.value_or(0.0));
  std::vector<double> ticks = viz::nice_ticks(0, top_value > 0 ? top_value * 1.1 : 100, 5);
  const double y_max = ticks.empty() ? 100 : std::max(ticks.back(), top_value * 1.1);
  float tick_w = 0;
  for (double v : ticks)
    tick_w = std::max(tick_w, ImGui::CalcTextSize(viz::tick_label(v).c_str()).x);
  // The y axis's labels take the left; where the values are stacked above the groups and do
  // not fit beside the axis, the values are the scale and the axis keeps only its baseline.
  bool axis_labels = true;
  const auto group_width = [&](bool labels) {
    return (width - (labels ? tick_w + 14 * s : 10 * s) - 10 * s) / static_cast<float>(n_groups);
  };
  float group_w = group_width(true);
  float bar_w = group_w * 0.84f / static_cast<float>(n_bars);
  // Values above the bars when they fit a bar, at a smaller size if need be (down to 65 % of
  // the font); else stacked above each group, one line per load path with its colour (narrow
  // bars on a projector), beside the axis's labels or instead of them; else on hover and in
  // the numbers.
  // Whole GB/s ("6293"), else thousands ("6.3k") where four digits are wider than the room.
  float value_px = 0;
  bool thousands = false;
  bool stacked = false;
  const auto value_text = [&](double v) {
    if (model_bars) return model_count(v);
    return thousands ? format("%.1fk", v / 1000.0) : format("%.0f", v);
  };
  const auto text_w = [&](float px, const std::string& t) {
    return ImGui::GetFont()->CalcTextSizeA(px, FLT_MAX, 0, t.c_str()).x;
  };
  std::vector<CacheLegendEntry> legend;
  if (model_bars) {
    legend.push_back({"32-byte sectors per warp load (model)", bar_color(0), false, true});
    legend.push_back({"128-byte lines per warp load (model)", bar_color(1), false, true});
  }
  for (int pi = 0; pi < n_paths && !model_bars; ++pi)
    legend.push_back({path_label(paths[static_cast<std::size_t>(pi)]), bar_color(pi), false, true});
  // The frame the chosen bars wear, in the text's colour (as drawn below): none where the model's
  // bars stand for another path's buffer than the texture the knobs pick.
  const bool framed = !model_bars || st.read.path != gpu::ReadPath::Texture;
  if (framed)
    legend.push_back({model_bars ? "framed: the pattern the knobs pick"
                                 : "framed: the path and pattern the knobs pick",
                      theme.text, false, true, false, true});
  LegendSlot* slot = open_legend_slot();
  for (const int mode : {0, 1, 2}) {  // above each bar; stacked; stacked, no axis labels
    const bool st_mode = mode > 0;
    const float gw = group_width(mode < 2);
    for (const bool k : {false, true}) {
      thousands = k;
      for (const float scale : {1.0f, 0.8f, 0.65f}) {
        const float px = scale * font;
        // Stacked: a swatch, a gap and the value, from the group's first bar to 6 px (x scale)
        // short of the next group's.
        const float room_w = st_mode ? gw * 0.92f - 8 * s - 0.7f * px : bar_w - 2 * s;
        bool fit = top_value > 0;
        for (const auto& row : values)
          for (const auto& v : row) fit = fit && (!v || text_w(px, value_text(*v)) <= room_w);
        if (fit) {
          value_px = px;
          break;
        }
      }
      if (value_px > 0) break;
    }
    if (value_px > 0) {
      stacked = st_mode;
      axis_labels = mode < 2;
      break;
    }
  }
  if (!axis_labels) {
    group_w = group_width(false);
    bar_w = group_w * 0.84f / static_cast<float>(n_bars);
  }
  const float left_pad = axis_labels ? tick_w + 14 * s : 10 * s;
  const bool values_fit = value_px > 0 && !stacked;
  const float stack_line = 1.1f * value_px;
  float stack_h = stacked ? static_cast<float>(n_bars) * stack_line + 6 * s : 0.0f;
  // Group names under the bars, two lines each, in the first wording whose lines fit a group:
  // in full, then the footprint's one word ("window", "tile"), then "rows" for row-major, each
  // at the font's size and then smaller (down to 0.7 of it, never under 12 px); else numbers
  // and a key (a projector's key that moves aside is scrolled out of sight).
  std::vector<std::pair<std::string, std::string>> names;
  float name_px = font;
  const auto name_w = [&](const std::string& t) {
    return ImGui::GetFont()->CalcTextSizeA(name_px, FLT_MAX, 0, t.c_str()).x;
  };
  for (int attempt = 0; attempt < 9 && names.empty(); ++attempt) {
    const int wording = attempt % 3;
    name_px = font * (attempt < 3 ? 1.0f : attempt < 6 ? 0.85f : 0.7f);
    if (name_px < 12.0f) break;
    for (auto p : patterns) {
      std::string first = pattern_footprint(p);
      if (wording > 0 && p != gpu::ReadPattern::Scattered)
        first = p == gpu::ReadPattern::Local2D || p == gpu::ReadPattern::Morton ? "window" : "tile";
      std::string second = p == gpu::ReadPattern::Scattered ? "" : pattern_layout(p);
      if (wording > 1 && !gpu::reads_morton(p) && !second.empty()) second = "rows";
      names.emplace_back(first, second);
    }
    for (const auto& [first, second] : names)
      if (name_w(first) > group_w - 4 * s || name_w(second) > group_w - 4 * s) {
        names.clear();
        break;
      }
  }
  const bool named = !names.empty();
  std::string key;
  for (int gi = 0; gi < n_groups && !named; ++gi)
    key += (gi ? "  \u00b7  " : "") + std::to_string(gi + 1) + " " +
           pattern_label(patterns[static_cast<std::size_t>(gi)]);
  const float labels_h = named ? 2.2f * name_px + 10 * s : font + 8 * s;
  const float legend_h = slot ? 0.0f : spacing + legend_height(legend, width, s);
  // The groups' key stays under the chart even beside the presenter's numbers where it leaves
  // the chart its room: without it the groups are bare numbers (the aside is scrolled away on
  // a projector). Else (1280x720 at 3x) it goes aside.
  const float chart_bare = (font + 10 * s) + stack_h + 4.5f * font + labels_h + legend_h;
  const float key_full = named ? 0.0f : wrapped_height(key, width);
  const bool key_inline =
      !named && (!slot || heading_room - heading_height(layer, title_shortest, width) - chart_bare -
                                  key_full >=
                              3.0f * font);
  const float key_h = key_inline ? key_full : 0.0f;
  const float chart_min = chart_bare + key_h;
  // The long heading where it leaves the chart its least height; the short one where that
  // leaves it a few lines more, else the shortest (one line even at 3x).
  const auto leaves = [&](const std::string& t) {
    return heading_room - heading_height(layer, t, width);
  };
  heading(layer, leaves(title_long) >= chart_min                  ? title_long
                 : leaves(title_short) >= chart_min + 4.0f * font ? title_short
                                                                  : title_shortest);

  // Notes above the chart, as many as leave it its least height; the rest go aside.
  std::vector<CacheAside::Note> notes = {measured_state_note(session, r, !r.read.empty())};
  if (!r.read_hit_note.empty()) notes.push_back({"L1 hit rate: " + r.read_hit_note, true});
  if (model_bars)
    notes.push_back({std::string(kModelBarsNote) + (framed ? kModelFramedNote : ""), false});
  notes.push_back({kUnifiedNote, false});
  if (!model_bars) notes.push_back({kBarsNote, false});
  float notes_h = 0;
  const float room = ImGui::GetContentRegionAvail().y;
  for (const auto& n : fit_notes(notes, room - chart_min, width, aside, notes_h))
    draw_note(n, theme);
  if (slot) {
    aside.legends.insert(aside.legends.begin(), {model_bars ? "model" : "load path", legend});
    if (!named && !key_inline) aside.notes.insert(aside.notes.begin(), {"groups: " + key, false});
  }

  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetContentRegionAvail().y - legend_h - key_h;
  ImGui::InvisibleButton("##bars", {width, std::max(h, 1.0f)});
  const bool hovered = interactive && ImGui::IsItemHovered();
  const float left = o.x + left_pad, right = o.x + width - 10 * s;
  const float bottom = o.y + h - labels_h;
  // Where the stacked values leave the bars no frame (a short projector view, 1280x720 at 3x),
  // the unit's caption gives its row up (the legend beside the view says what the bars count);
  // where even that leaves none, the values are on hover.
  float caption_h = font + 10 * s;
  if (stacked && bottom - (o.y + caption_h + stack_h) < 2 * s) caption_h = 4 * s;
  if (stacked && bottom - (o.y + caption_h + stack_h) < 2 * s) {
    stacked = false;
    value_px = 0;
    stack_h = 0;
    caption_h = font + 10 * s;
  }
  if (top_value > 0 && value_px <= 0)
    audit_finding("hidden",
                  "read-path bars: values too wide for the bars (on hover and in the numbers)");
  const float top = o.y + caption_h + stack_h;
  const auto py = [&](double v) { return bottom - to_f(v / y_max) * (bottom - top); };
  // As many ticks as the frame holds apart: coarser steps where it is short.
  for (int target = 5; target >= 1; --target) {
    ticks = viz::nice_ticks(0, y_max, target);
    if (viz::thin_ticks(ticks, 0, y_max, bottom - top, ImGui::GetTextLineHeight()).size() ==
        ticks.size())
      break;
  }
  ticks = viz::thin_ticks(ticks, 0, y_max, bottom - top, ImGui::GetTextLineHeight());
  const ImU32 text = to_imgui_color(theme.text);
  const ImU32 muted = to_imgui_color(theme.muted_text);
  draw->AddRectFilled({left, top}, {right, bottom}, to_imgui_color(theme.background));
  for (double v : axis_labels ? ticks : std::vector<double>{}) {
    const float y = py(v);
    draw->AddLine({left, y}, {right, y}, to_imgui_color(theme.untouched), 1.0f);
    const std::string t = viz::tick_label(v);
    draw->AddText({left - ImGui::CalcTextSize(t.c_str()).x - 6 * s, y - 0.5f * font}, text,
                  t.c_str());
  }
  if (caption_h > font && model_bars) {
    // The two bars' key on the caption's line: a swatch before each name (the legend under the
    // chart, or beside it in the presenter layout, says the same at length).
    float x = o.x;
    const float sw = 0.7f * font;
    const std::string rest = fitting({" per warp load (model)", " (model)", ""},
                                     width - ImGui::CalcTextSize("  sectors    lines").x - 2 * sw);
    for (int pi = 0; pi < 2; ++pi) {
      draw->AddRectFilled({x, o.y + 0.5f * (font - sw)}, {x + sw, o.y + 0.5f * (font + sw)},
                          to_imgui_color(bar_color(pi)));
      x += sw + 4 * s;
      const char* name = pi == 0 ? "sectors" : "lines";
      draw->AddText({x, o.y}, muted, name);
      x += ImGui::CalcTextSize(name).x + 12 * s;
    }
    draw->AddText({x - 12 * s, o.y}, muted, rest.c_str());
  } else if (caption_h > font) {
    draw->AddText({o.x, o.y}, muted,
                  fitting({"GB/s (10\u2079 B/s requested)", "GB/s"}, width).c_str());
  }
  for (int gi = 0; gi < n_groups; ++gi) {
    const gpu::ReadPattern pattern = patterns[static_cast<std::size_t>(gi)];
    const float gx = left + group_w * static_cast<float>(gi) + group_w * 0.08f;
    const float gc = gx + 0.5f * bar_w * static_cast<float>(n_bars);
    if (named) {
      const auto& [first, second] = names[static_cast<std::size_t>(gi)];
      const auto centered = [&](float y, ImU32 color, const std::string& t) {
        draw->AddText(ImGui::GetFont(), name_px, {gc - 0.5f * name_w(t), y}, color, t.c_str());
      };
      centered(bottom + 6 * s, text, first);
      if (!second.empty()) centered(bottom + 8 * s + name_px, muted, second);
    } else {
      text_centered(draw, {gc, bottom + 6 * s + 0.5f * font}, text, std::to_string(gi + 1));
    }
    const auto& row = values[static_cast<std::size_t>(gi)];
    for (int pi = 0; pi < n_bars && stacked; ++pi) {
      // The group's values, one line per bar in the bars' order, each after its colour.
      const auto& v = row[static_cast<std::size_t>(pi)];
      if (!v) continue;
      const float y = top - stack_h + 2 * s + static_cast<float>(pi) * stack_line;
      const float sw = 0.6f * value_px;
      const float y_mid = y + 0.5f * stack_line;
      draw->AddRectFilled({gx + 2 * s, y_mid - 0.5f * sw}, {gx + 2 * s + sw, y_mid + 0.5f * sw},
                          to_imgui_color(bar_color(pi)));
      draw->AddText(ImGui::GetFont(), value_px, {gx + 2 * s + sw + 0.1f * value_px, y}, text,
                    value_text(*v).c_str());
    }
    for (int pi = 0; pi < n_bars; ++pi) {
      const float bx = gx + static_cast<float>(pi) * bar_w;
      const viz::Rgb c = bar_color(pi);
      const auto& value = row[static_cast<std::size_t>(pi)];
      // The model's bars are of the plain and __ldg paths' buffers: ringed for those paths.
      const gpu::ReadPath path =
          model_bars ? st.read.path : paths[static_cast<std::size_t>(std::min(pi, n_paths - 1))];
      const bool chosen = st.read.pattern == pattern && st.read.path == path &&
                          (!model_bars || path != gpu::ReadPath::Texture);
      const gpu::ReadPathMeasurement* m = nullptr;
      for (const auto& x : r.read)
        if (x.params.path == path && x.params.pattern == pattern && !model_bars) m = &x;
      const ReadHitPoint* hit = nullptr;
      for (const auto& x : r.read_hit)
        if (x.params.path == path && x.params.pattern == pattern && !model_bars) hit = &x;
      if (value) {
        const float y = py(*value);
        draw->AddRectFilled({bx + 2 * s, y}, {bx + bar_w - 2 * s, bottom}, to_imgui_color(c));
        if (values_fit) {
          const std::string v = value_text(*value);
          const ImVec2 vs = ImGui::GetFont()->CalcTextSizeA(value_px, FLT_MAX, 0, v.c_str());
          draw->AddText(ImGui::GetFont(), value_px, {bx + 0.5f * (bar_w - vs.x), y - vs.y - 2 * s},
                        text, v.c_str());
        }
        if (hit && hit->rate.percent) {
          // The hit rate inside the bar's foot, or above the value when the bar is too short.
          const std::string t = hit_text(hit->rate);
          const bool fits = ImGui::CalcTextSize(t.c_str()).x < bar_w - 6 * s;
          const bool inside = bottom - y > font * 1.6f && fits;
          if (inside || (values_fit && fits))
            text_centered(draw,
                          inside ? ImVec2{bx + 0.5f * bar_w, bottom - 0.7f * font}
                                 : ImVec2{bx + 0.5f * bar_w, y - 1.5f * font - 4 * s},
                          inside ? to_imgui_color(viz::text_on(c)) : muted, t);
        }
        if (model_bars && hovered && ImGui::IsMouseHoveringRect({bx, top}, {bx + bar_w, bottom}))
          ImGui::SetTooltip("%s\n%s %s per warp load (model: the mean over warp 0's loads)",
                            pattern_label(pattern).c_str(), value_text(*value).c_str(),
                            pi == 0 ? "32-byte sectors" : "128-byte lines");
        if (m && hovered && ImGui::IsMouseHoveringRect({bx, top}, {bx + bar_w, bottom}))
          ImGui::SetTooltip(
              "%s, %s\n%.1f GB/s, median %.3f ms\nL1 hit rate %s%s\n%s", path_label(path),
              pattern_label(pattern).c_str(), m->gbps, m->timing.median_ms,
              hit ? hit_text(hit->rate).c_str() : "not read",
              hit && !hit->rate.percent ? (" (" + hit->rate.unavailable + ")").c_str() : "",
              m->verified ? "checksum verified" : m->check.c_str());
      }
      if (chosen) {
        // Around the bar and its value above it (a bar as tall as the axis has its value above
        // the chart's top: a frame clamped to the top ran through it, texture-2d-tile's "32").
        float frame_top = top;
        if (value) {
          const float value_h =
              values_fit ? ImGui::GetFont()->CalcTextSizeA(value_px, FLT_MAX, 0, "0").y : 0.0f;
          frame_top = py(*value) - value_h - 5 * s;
        }
        draw->AddRect({bx, frame_top}, {bx + bar_w, bottom + 1 * s}, text, 3 * s, 0, 2.5f * s);
      }
    }
  }
  draw->AddLine({left, bottom}, {right, bottom}, to_imgui_color(theme.rule), 1.5f * s);
  if (!slot) draw_legend(legend, width, s);
  if (key_inline) draw_note({key, false}, theme);
}

}  // namespace warplens::app::cache_ui_detail
