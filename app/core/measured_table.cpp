#include "measured_table.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace warplens::app {

namespace {

nlohmann::json at_pointer(const nlohmann::json& j, const nlohmann::json::json_pointer& p) {
  return j.contains(p) ? j.at(p) : nlohmann::json();
}

std::string csv_quoted(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

const nlohmann::json& rows_of(const nlohmann::json& doc, const std::string& at) {
  static const nlohmann::json none = nlohmann::json::array();
  const nlohmann::json::json_pointer p(at);
  return doc.contains(p) && doc.at(p).is_array() ? doc.at(p) : none;
}

}  // namespace

TableColumn field(std::string name, const std::string& pointer, int decimals) {
  return {std::move(name),
          [p = nlohmann::json::json_pointer(pointer)](
              const nlohmann::json& row, const nlohmann::json&) { return at_pointer(row, p); },
          decimals};
}

TableColumn doc_field(std::string name, const std::string& pointer, int decimals) {
  return {std::move(name),
          [p = nlohmann::json::json_pointer(pointer)](
              const nlohmann::json&, const nlohmann::json& doc) { return at_pointer(doc, p); },
          decimals};
}

TableColumn verified_column(std::string name) {
  return {std::move(name), [](const nlohmann::json& row, const nlohmann::json&) {
            const auto it = row.find("verified");
            if (it == row.end() || !it->is_boolean()) return nlohmann::json();
            return nlohmann::json(it->get<bool>() ? "verified" : "WRONG");
          }};
}

TableColumn scaled_field(std::string name, const std::string& key, double divisor, int decimals) {
  return {std::move(name),
          [key, divisor](const nlohmann::json& row, const nlohmann::json&) {
            const auto it = row.find(key);
            if (it == row.end() || !it->is_number()) return nlohmann::json();
            return nlohmann::json(it->get<double>() / divisor);
          },
          decimals};
}

std::string format_cell(const nlohmann::json& value, int decimals) {
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number() && decimals >= 0) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value.get<double>());
    return text;
  }
  return value.dump();
}

void write_measurement(std::ostream& out, const std::string& format, const nlohmann::json& doc,
                       const MeasuredTable& table) {
  if (format == "json") {
    out << doc.dump(2) << "\n";
    return;
  }
  const nlohmann::json& rows = rows_of(doc, table.rows_at);
  if (format == "csv") {
    std::string line;
    for (const auto& c : table.csv) line += (line.empty() ? "" : ",") + csv_quoted(c.name);
    out << line << "\n";
    for (const auto& row : rows) {
      line.clear();
      for (std::size_t i = 0; i < table.csv.size(); ++i)
        line += (i ? "," : "") +
                csv_quoted(format_cell(table.csv[i].cell(row, doc), table.csv[i].decimals));
      out << line << "\n";
    }
    return;
  }
  if (format != "text")
    throw std::invalid_argument("unknown format '" + format + "' (text, json, csv)");
  for (const auto& line : table.head) out << line << "\n";
  for (const auto& section : table.sections) {
    // The cells first, so each column is as wide as its widest cell or its name.
    std::vector<std::vector<std::string>> cells;
    std::vector<bool> numeric(section.columns.size(), true);
    for (const auto& row : rows) {
      if (section.takes && !section.takes(row)) continue;
      auto& line = cells.emplace_back();
      for (std::size_t i = 0; i < section.columns.size(); ++i) {
        const nlohmann::json v = section.columns[i].cell(row, doc);
        if (!v.is_null() && !v.is_number()) numeric[i] = false;
        line.push_back(format_cell(v, section.columns[i].decimals));
      }
    }
    if (cells.empty()) continue;
    std::vector<std::size_t> width(section.columns.size());
    for (std::size_t i = 0; i < width.size(); ++i) {
      width[i] = section.columns[i].name.size();
      for (const auto& line : cells) width[i] = std::max(width[i], line[i].size());
    }
    const auto write_line = [&](const std::vector<std::string>& line) {
      std::string text;
      for (std::size_t i = 0; i < line.size(); ++i) {
        const std::string pad(width[i] - line[i].size(), ' ');
        text += (i ? "  " : "") + (numeric[i] ? pad + line[i] : line[i] + pad);
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      out << text << "\n";
    };
    out << "\n";
    if (!section.title.empty()) out << section.title << "\n";
    std::vector<std::string> names;
    for (const auto& c : section.columns) names.push_back(c.name);
    write_line(names);
    for (const auto& line : cells) write_line(line);
  }
  if (!table.foot.empty()) out << "\n";
  for (const auto& line : table.foot) out << line << "\n";
}

}  // namespace warplens::app
