// One writer for `warplens measure`'s output. A lab's measure verb builds its document once, as
// JSON (measurement_header(), json_support.h, then its fields and its "measurements" rows), and
// declares how that document reads as a table; write_measurement() writes it in the asked format:
//   - json: the document itself (nlohmann::json, indented by 2);
//   - csv:  RFC 4180: one header line of the CSV columns' names, then one line per row of
//           the document's rows (doc["measurements"] unless the table says otherwise); a text cell
//           is quoted when it holds a comma, a quote or a line break (quotes doubled); an absent or
//           null cell is empty;
//   - text: the head lines, then each text section that takes at least one row as an aligned
//           table (its title, a heading line, one line per row; text left-aligned, numbers
//           right-aligned), then the foot lines.
// Units are the document's: each column's name says its unit (`median_ms`, `gbps` = 10^9 B/s of
// bytes the program asked to read + write, as the document's "gbps_definition" says).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace warplens::app {

/// A cell's value from its row (one element of doc["measurements"]) and the whole document (for
/// the device name or a reference bandwidth). A null JSON value is an empty cell.
using CellOf = std::function<nlohmann::json(const nlohmann::json& row, const nlohmann::json& doc)>;

struct TableColumn {
  std::string name;  ///< the CSV header's and the text heading's word for the column
  CellOf cell;       ///< its value in a row
  /// Numbers: fixed notation with this many decimals; -1: as JSON writes them (integers as
  /// integers). Booleans are written true/false, strings as they are.
  int decimals = -1;
};

/// A column whose cell is the row's value at a JSON pointer ("/gbps", "/timing/median_ms");
/// empty where the row has none.
TableColumn field(std::string name, const std::string& pointer, int decimals = -1);

/// A column whose cell is the document's value at a JSON pointer ("/device"), the same on every
/// row.
TableColumn doc_field(std::string name, const std::string& pointer, int decimals = -1);

/// The row's "verified" as "verified" or "WRONG" (a kernel's result against the CPU's); empty
/// where the row has none.
TableColumn verified_column(std::string name = "check");

/// The row's number at `key` divided by `divisor`, e.g. bytes as KiB (divisor 1024).
TableColumn scaled_field(std::string name, const std::string& key, double divisor, int decimals);

struct TableSection {
  std::string title;                                     ///< text line above its table; "": none
  std::function<bool(const nlohmann::json& row)> takes;  ///< its rows; empty: every row
  std::vector<TableColumn> columns;                      ///< left to right
};

struct MeasuredTable {
  std::string rows_at = "/measurements";  ///< JSON pointer to the document's array of rows
  std::vector<std::string> head;       ///< text: lines above the tables (device, what GB/s counts)
  std::vector<TableSection> sections;  ///< text: one aligned table each, in order
  std::vector<TableColumn> csv;        ///< CSV: its columns, for every row
  std::vector<std::string> foot;       ///< text: lines below the tables (a summary)
};

/// A number, string or boolean as a table writes it (format_cell(2.5, 2) == "2.50",
/// format_cell(7, -1) == "7", null == "").
std::string format_cell(const nlohmann::json& value, int decimals);

/// Writes `doc` to `out` in `format` ("json", "csv" or "text"), as the header says. Throws
/// std::invalid_argument on another format (before writing anything).
void write_measurement(std::ostream& out, const std::string& format, const nlohmann::json& doc,
                       const MeasuredTable& table);

}  // namespace warplens::app
