#include "numbers_figure.h"

#include <algorithm>
#include <array>

#include "figure_parts.h"

namespace warplens::app {

namespace {

using figure_parts::kFont;
using figure_parts::mix;
using figure_parts::Page;
using figure_parts::Pen;
using viz::FigureFont;
using viz::FigureRole;
using viz::Rgb;

// A table: a header row (none for an empty `header`; a cell may hold two lines, "\n"), then rows
// of cells, each column as wide as its widest text, the font made smaller where the table would
// pass `right`; row `highlight` tinted as the window's current row. Returns the bottom.
struct Cell {
  std::string text;
  FigureRole role = FigureRole::Value;
  Rgb color;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  lines.push_back(text.substr(start));
  return lines;
}

float add_table(Pen& pen, const viz::Theme& theme, const std::vector<std::string>& header,
                const std::vector<std::vector<Cell>>& rows, float x, float y, float right,
                int highlight = -1) {
  const float pad_em = 0.6f;
  std::vector<float> widths(header.size(), 0.0f);  // at kFont
  std::size_t columns = header.size();
  for (const auto& row : rows) columns = std::max(columns, row.size());
  widths.resize(columns, 0.0f);
  std::size_t header_lines = 1;
  for (std::size_t c = 0; c < header.size(); ++c) {
    const auto lines = lines_of(header[c]);
    header_lines = std::max(header_lines, lines.size());
    for (const auto& line : lines)
      widths[c] = std::max(widths[c], pen.width(FigureFont::Bold, kFont, line));
  }
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c)
      widths[c] = std::max(widths[c], pen.width(FigureFont::Regular, kFont, row[c].text));
  float natural = 0;
  for (const float w : widths) natural += w + 2 * pad_em * kFont;
  const float scale = natural > right - x ? std::max(0.6f, (right - x) / natural) : 1.0f;
  const float size = scale * kFont, pad = pad_em * size, row_h = 1.55f * size;
  for (float& w : widths) w *= scale;
  const float table_right = std::min(right, x + natural * scale);
  float cy = y;
  const auto row_texts = [&](const std::vector<Cell>& cells, bool heading) {
    float cx = x;
    for (std::size_t c = 0; c < cells.size() && c < widths.size(); ++c) {
      const auto lines =
          heading ? lines_of(cells[c].text) : std::vector<std::string>{cells[c].text};
      for (std::size_t l = 0; l < lines.size(); ++l)
        pen.text(cx + pad, cy + 0.5f * row_h + static_cast<float>(l) * 1.2f * size, lines[l],
                 cells[c].role, heading ? FigureFont::Bold : FigureFont::Regular, size,
                 cells[c].color);
      cx += widths[c] + 2 * pad;
    }
  };
  if (!header.empty()) {
    std::vector<Cell> head;
    for (const auto& h : header) head.push_back({h, FigureRole::Header, theme.text});
    row_texts(head, true);
    cy += row_h + static_cast<float>(header_lines - 1) * 1.2f * size;
    pen.line(x, cy, table_right, cy, FigureRole::Rule, theme.rule, 1.2f);
  }
  const Rgb stripe = mix(theme.background, theme.untouched, 0.6f);
  const Rgb current = mix(theme.background, theme.sector, 0.25f);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (static_cast<int>(r) == highlight)
      pen.fill({x, cy, table_right, cy + row_h}, FigureRole::Rule, current);
    else if (r % 2 == 1)
      pen.fill({x, cy, table_right, cy + row_h}, FigureRole::Rule, stripe);
    row_texts(rows[r], false);
    cy += row_h;
  }
  return cy;
}

}  // namespace

std::string model_only_text(const FigurePanelData& data) {
  return "model only: " +
         (data.measured_absent.empty() ? std::string("nothing measured") : data.measured_absent);
}

viz::Figure numbers_figure(const FigurePanelData& data, const viz::Theme& theme,
                           const std::string& source, viz::FigureMeasure measure) {
  Page page(theme);
  Pen pen(page.figure, measure);
  float y = figure_parts::add_title(pen, page, theme, data.access);
  if (!data.access.empty()) y += 0.5f * kFont;

  // The per-request table, as the window's (begin_stat_table, stat_row).
  const bool traced = data.gpu_trace;
  std::vector<std::vector<Cell>> rows;
  for (const StatText& row : data.rows) {
    std::vector<Cell> cells = {{row.name, FigureRole::Label, theme.text},
                               {row.model, FigureRole::Value, theme.text}};
    if (!traced) {
      cells.push_back({"\u2014", FigureRole::Value, theme.muted_text});
    } else {
      std::string t = row.traced;
      if (row.mark == TraceMark::Agrees) t += "  \u2713";
      if (row.mark == TraceMark::Differs) t += "  \u2717 differs";
      cells.push_back(
          {t, FigureRole::Value, row.mark == TraceMark::Differs ? theme.conflict : theme.text});
    }
    rows.push_back(std::move(cells));
  }
  if (!rows.empty()) {
    y = add_table(pen, theme,
                  {"per warp request", "model (predicted)",
                   data.trace_column.empty() ? std::string("GPU trace") : data.trace_column},
                  rows, page.left, y, page.right) +
        0.5f * kFont;
  }
  // A lab's own tables (the cache and bytes-in-flight labs), as the window's.
  for (const FigureTable& table : data.tables) {
    std::vector<std::vector<Cell>> cells;
    for (const auto& row : table.rows) {
      std::vector<Cell> line;
      for (std::size_t c = 0; c < row.size(); ++c)
        line.push_back({row[c].text, c == 0 ? FigureRole::Label : FigureRole::Value,
                        row[c].muted ? theme.muted_text : theme.text});
      cells.push_back(std::move(line));
    }
    y = add_table(pen, theme, table.header, cells, page.left, y, page.right, table.highlight) +
        0.8f * kFont;
  }
  for (const std::string& note : data.notes)
    y = figure_parts::add_wrapped(pen, note, page.left, y, page.right, FigureRole::Note,
                                  FigureFont::Regular, 0.9f * kFont, theme.muted_text);

  // What the GPU measured, or that nothing was.
  y += 0.6f * kFont;
  if (data.measured.empty()) {
    y = figure_parts::add_wrapped(pen, model_only_text(data), page.left, y, page.right,
                                  FigureRole::ModelOnly, FigureFont::Regular, kFont,
                                  theme.muted_text);
  } else {
    std::vector<std::vector<Cell>> measured;
    for (const FigureValue& v : data.measured)
      measured.push_back(
          {{v.name, FigureRole::Label, theme.text}, {v.value, FigureRole::Value, theme.text}});
    y = add_table(
        pen, theme,
        {data.measured_title.empty() ? std::string("measured") : data.measured_title, "value"},
        measured, page.left, y, page.right);
  }
  return page.finish(pen, theme, source, y);
}

}  // namespace warplens::app
