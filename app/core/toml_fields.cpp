#include "toml_fields.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace warplens::app {

namespace {

bool is_non_ascii(char c) {
  return static_cast<unsigned char>(c) >= 0x80;
}

// The first place in `text` that toml++ 3.3 cannot read safely (see parse_toml_text), with the
// reason; nullopt when there is none. Tracks only what decides where strings and comments are.
struct Refusal {
  std::size_t at;
  const char* what;
};
std::optional<Refusal> unsafe_for_tomlpp(std::string_view text) {
  enum class In { Toml, Comment, Basic, Literal, MultiBasic, MultiLiteral };
  In in = In::Toml;
  // Whether a quote here would start a string: after a line break, `=`, `[`, `{`, `,` or a
  // dotted key's `.` (spaces and tabs between). After a string closes, it is false: toml++
  // expects a separator there.
  bool at_token_start = true;
  const std::size_t n = text.size();
  const auto starts = [&](std::size_t i, std::string_view s) {
    return text.substr(i, s.size()) == s;
  };
  const std::size_t bom = starts(0, "\xEF\xBB\xBF") ? 3 : 0;  // toml++ skips a UTF-8 BOM
  for (std::size_t i = bom; i < n; ++i) {
    const char c = text[i];
    switch (in) {
      case In::Toml:
        if (is_non_ascii(c)) return Refusal{i, "a non-ASCII character outside a string or comment"};
        if (c == '#') {
          in = In::Comment;
        } else if ((c == '"' || c == '\'') && !at_token_start) {
          // Not where a string can start: toml++ reads it as part of a bare key or value (and then
          // fails), looking ahead through what follows as such.
        } else if (starts(i, "\"\"\"")) {
          in = In::MultiBasic, i += 2;
        } else if (starts(i, "'''")) {
          in = In::MultiLiteral, i += 2;
        } else if (c == '"') {
          in = In::Basic;
        } else if (c == '\'') {
          in = In::Literal;
        }
        if (c != ' ' && c != '\t' && c != '\r')
          at_token_start =
              in == In::Toml && std::string_view("=[{,.\n").find(c) != std::string_view::npos;
        break;
      case In::Comment:
        if (c == '\n') in = In::Toml, at_token_start = true;
        break;
      case In::Basic:
        if (c == '\\')
          ++i;  // its escaped character (an invalid one is toml++'s error)
        else if (c == '"' || c == '\n')
          in = In::Toml;
        break;
      case In::Literal:
        if (c == '\'' || c == '\n') in = In::Toml;
        break;
      case In::MultiBasic:
        if (c == '\\') {
          std::size_t j = i + 1;
          while (j < n && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n'))
            ++j;
          if (j < n && is_non_ascii(text[j]))
            return Refusal{j, j == i + 1 ? "a non-ASCII character right after a backslash"
                                         : "a non-ASCII character first on a line continued by a "
                                           "backslash in a multi-line string"};
          if (j == i + 1) ++j;  // an escape: skip its character (it may be a quote)
          i = j - 1;
        } else if (starts(i, "\"\"\"")) {
          i += 2;
          for (int extra = 0; extra < 2 && i + 1 < n && text[i + 1] == '"'; ++extra) ++i;
          in = In::Toml;
        }
        break;
      case In::MultiLiteral:
        if (starts(i, "'''")) {
          i += 2;
          for (int extra = 0; extra < 2 && i + 1 < n && text[i + 1] == '\''; ++extra) ++i;
          in = In::Toml;
        }
        break;
    }
  }
  return std::nullopt;
}

}  // namespace

toml::table parse_toml_text(std::string_view text, std::string_view origin) {
  if (const auto refusal = unsafe_for_tomlpp(text)) {
    toml::source_position where{1, 1};
    for (std::size_t i = 0; i < refusal->at; ++i) {
      if (text[i] == '\n')
        ++where.line, where.column = 1;
      else
        ++where.column;
    }
    const auto path =
        origin.empty() ? toml::source_path_ptr{} : std::make_shared<const std::string>(origin);
    throw toml::parse_error(refusal->what, where, path);
  }
  return origin.empty() ? toml::parse(text) : toml::parse(text, origin);
}

toml::table parse_toml_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw toml::parse_error("cannot open the file", toml::source_position{1, 1},
                            std::make_shared<const std::string>(path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_toml_text(text.str(), path);
}

std::optional<std::int64_t> integer_value(toml::node_view<const toml::node> node) {
  // toml++ 3.3 casts a float to int64_t before it checks the range (undefined past 2^63; found
  // by fuzz_scenario with `stride = 1e31`): convert floats here.
  if (const auto* f = node.as_floating_point()) {
    const double v = f->get();
    constexpr double kTwo63 = 9223372036854775808.0;
    if (!(v >= -kTwo63 && v < kTwo63) || std::trunc(v) != v) return std::nullopt;
    return static_cast<std::int64_t>(v);
  }
  return node.value<std::int64_t>();
}

const toml::table& ScenarioTable::section(std::string_view name) const {
  const toml::table* t = table[name].as_table();
  if (!t) throw error("missing [" + std::string(name) + "] table");
  return *t;
}

int ScenarioTable::int_value(const toml::table& t, std::string_view key, int fallback) const {
  const auto node = t[key];
  if (!node) return fallback;
  const auto v = integer_value(node);
  if (!v || *v < -(std::int64_t{1} << 31) || *v >= (std::int64_t{1} << 31))
    throw error("\"" + std::string(key) + "\" must be a 32-bit integer");
  return static_cast<int>(*v);
}

std::int64_t ScenarioTable::required_int(const toml::table& t, std::string_view key) const {
  const auto v = integer_value(t[key]);
  if (!v) throw error("missing or mistyped key \"" + std::string(key) + "\"");
  return *v;
}

ScenarioError ScenarioTable::error(const std::string& what) const {
  return ScenarioError(origin + ": " + what);
}

std::string string_value(const toml::table& t, std::string_view key, const std::string& fallback) {
  return t[key].value_or(fallback);
}

std::string toml_text(const toml::table& table) {
  std::ostringstream out;
  out << table << "\n";
  return out.str();
}

nlohmann::json toml_json(const toml::table& table) {
  std::ostringstream out;
  out << toml::json_formatter{table};
  return nlohmann::json::parse(out.str());
}

}  // namespace warplens::app
