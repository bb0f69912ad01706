#include "heatmap_figure.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "figure_parts.h"
#include "plot.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

using figure_parts::kFont;
using figure_parts::LegendEntry;
using figure_parts::mix;
using figure_parts::Page;
using figure_parts::Pen;
using viz::FigureAnchor;
using viz::FigureFont;
using viz::FigureRole;
using viz::Rgb;

// heat_strip.frag's requests colour.
Rgb requests_color(float requests, const viz::Theme& theme) {
  if (requests <= 0) return theme.untouched;
  if (requests < 1) return mix(theme.untouched, theme.sector, requests);  // partly untouched
  const float t = std::clamp(std::log2(requests) / 5.0f, 0.0f, 1.0f);
  return mix(theme.sector, theme.text, t);
}

}  // namespace

std::string heatmap_totals_text(const SectorHeatmap& heat) {
  unsigned max_requests = 0;
  long long requests = 0, used = 0;
  int touched = 0;
  for (const auto& sector : heat) {
    max_requests = std::max(max_requests, sector.requests);
    requests += sector.requests;
    used += sector.bytes;
    touched += sector.requests > 0;
  }
  return format(
      "%d sectors moved %lld times in all (a sector by up to %u warp requests); %lld of %lld "
      "bytes moved were asked for (%.1f %%).",
      touched, requests, max_requests, used, requests * 32,
      requests ? 100.0 * static_cast<double>(used) / (32.0 * static_cast<double>(requests)) : 0.0);
}

viz::Figure heatmap_figure(const FigurePanelData& data, const viz::Theme& theme,
                           const std::string& source, viz::FigureMeasure measure) {
  Page page(theme);
  Pen pen(page.figure, measure);
  const SectorHeatmap& heat = *data.heatmap;
  float y = figure_parts::kMargin;
  y = figure_parts::add_wrapped(
          pen,
          format("Every warp of the %s launch, counted per 32-byte sector of the first %d KiB of "
                 "the %s buffer",
                 data.gpu_trace ? "real" : "modelled", kHeatSectors * 32 / 1024,
                 data.heatmap_buffer.c_str()) +
              (data.access.empty() ? "" : " \u2022 " + data.access),
          page.left, y, page.right, FigureRole::Title, FigureFont::Bold, kFont, theme.text) +
      0.2f * kFont;
  y = figure_parts::add_wrapped(pen, heatmap_totals_text(heat), page.left, y, page.right,
                                FigureRole::Total, FigureFont::Regular, kFont, theme.text) +
      0.5f * kFont;

  // Two rows, the labels left of them.
  const float label_size = 0.9f * kFont;
  const float label_w =
      pen.width(FigureFont::Regular, label_size, "bytes used per byte moved") + 12;
  const float x0 = page.left + label_w, x1 = page.right;
  const float row_h = 70, split = 4;
  const float top0 = y, top1 = y + row_h, bottom0 = y + row_h + split, bottom1 = bottom0 + row_h;
  pen.text(page.left, 0.5f * (top0 + top1), "requests per sector", FigureRole::Label,
           FigureFont::Regular, label_size, theme.text);
  pen.text(page.left, 0.5f * (bottom0 + bottom1), "bytes used per byte moved", FigureRole::Label,
           FigureFont::Regular, label_size, theme.text);
  // Columns of `group` sectors, their requests and bytes averaged (as the shader averages the
  // sectors under a pixel), at least 1.5 units wide so the page has no hairline seams; equal
  // neighbours are one rectangle, each a little wider than its span to close the seams.
  int group = 1;
  while (static_cast<float>(group) * (x1 - x0) / static_cast<float>(kHeatSectors) < 1.5f)
    group *= 2;
  const int columns = kHeatSectors / group;
  const float column_w = (x1 - x0) / static_cast<float>(columns);
  std::vector<std::pair<float, float>> average(static_cast<std::size_t>(columns));
  for (int c = 0; c < columns; ++c) {
    float requests = 0, bytes = 0;
    for (int s = c * group; s < (c + 1) * group; ++s) {
      requests += static_cast<float>(heat[static_cast<std::size_t>(s)].requests);
      bytes += static_cast<float>(heat[static_cast<std::size_t>(s)].bytes);
    }
    average[static_cast<std::size_t>(c)] = {requests / static_cast<float>(group),
                                            bytes / static_cast<float>(group)};
  }
  // The bottom row's ground is over-fetch (one hatch); untouched columns and the used part of
  // each moved column are drawn over it.
  pen.hatch({x0, bottom0, x1, bottom1}, FigureRole::Overfetch,
            {theme.overfetch, mix(theme.overfetch, theme.untouched, 0.55f)}, 3.5f);
  for (int c = 0; c < columns;) {
    const auto [requests, bytes] = average[static_cast<std::size_t>(c)];
    int e = c + 1;
    while (e < columns &&
           average[static_cast<std::size_t>(e)] == average[static_cast<std::size_t>(c)])
      ++e;
    const float a = x0 + static_cast<float>(c) * column_w,
                b = std::min(x1, x0 + static_cast<float>(e) * column_w + 0.4f);
    pen.fill({a, top0, b, top1}, FigureRole::HeatCell, requests_color(requests, theme));
    if (requests <= 0) {
      pen.fill({a, bottom0, b, bottom1}, FigureRole::Untouched, theme.untouched);
    } else {
      const float useful = std::clamp(bytes / (32.0f * requests), 0.0f, 1.0f);
      if (useful > 0)
        pen.fill({a, bottom1 - useful * (row_h - 2), b, bottom1}, FigureRole::Requested,
                 theme.sector);
    }
    c = e;
  }
  // Byte offsets under the strip.
  y = bottom1 + 0.7f * kFont;
  for (const double v : viz::nice_ticks(0, kHeatSectors * 32, 8)) {
    const float x = x0 + static_cast<float>(v / (kHeatSectors * 32)) * (x1 - x0);
    pen.line(x, bottom1, x, bottom1 + 4, FigureRole::Axis, theme.muted_text, 1);
    pen.text(x, y, viz::tick_label(v), FigureRole::ByteOffset, FigureFont::Regular, 0.8f * kFont,
             theme.muted_text, FigureAnchor::Center);
  }
  y += 0.9f * kFont;
  y = figure_parts::add_wrapped(pen,
                                "bytes from the buffer base \u2022 one column per 32 B sector "
                                "\u2022 darker: more requests (log scale, black at 32)",
                                page.left, y, page.right, FigureRole::Note, FigureFont::Regular,
                                0.8f * kFont, theme.muted_text) +
      0.4f * kFont;
  y = figure_parts::add_legend(
      pen, theme,
      {{LegendEntry::Swatch::Fill, theme.sector, "moved by 1 request / used bytes"},
       {LegendEntry::Swatch::Fill, requests_color(32.0f, theme), "32 requests"},
       {LegendEntry::Swatch::Hatch, theme.overfetch, "over-fetch"},
       {LegendEntry::Swatch::Fill, theme.untouched, "not moved"}},
      page.left, y, page.right);
  return page.finish(pen, theme, source, y);
}

}  // namespace warplens::app
