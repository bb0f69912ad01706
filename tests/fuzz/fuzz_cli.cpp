// libFuzzer target: the warplens command line (app/cli/command_line.h), the CLI11 app main()
// builds, for the window and every verb. Input: the arguments after the program name, separated
// by NUL bytes or newlines ("analyze\n--index\nlane + 1"); empty pieces are empty arguments.
//
// Nothing runs: after CLI11 has parsed argv, the values are converted the way main() converts
// them before it starts a verb (analyze's pattern and model, and the analysis itself, which is
// pure model; render's size and view options; the window's options; measure's word size and
// target scenario or lab). A refusal must be CLI::ParseError (usage, --help), or
// std::invalid_argument (PatternError among them) or ScenarioError, which main() reports as
// exit code 2; anything else escapes to libFuzzer as a finding.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analyze_report.h"
#include "command_line.h"
#include "scenarios.h"

namespace {

using namespace warplens;

// The conversions main() makes before running the parsed verb; they throw where main() refuses.
void convert(const app::CommandLine& c) {
  if (*c.analyze) {
    const model::AccessPattern pattern = c.analyze_pattern();
    const auto layout = c.analyze_layout();
    const auto report = app::analyze_json(pattern, model::parse_hardware_model(c.model_name),
                                          layout ? &*layout : nullptr);
    (void)(c.format == "json" ? report.dump(2) : app::analyze_text(report));
  } else if (*c.measure) {
    (void)app::measure_target(c.measure_options);
  } else if (*c.render) {
    (void)app::parse_size(c.size_text);
    (void)c.render_view_options();
  } else if (!*c.list && !*c.verify) {
    (void)c.window_view_options();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)app::builtin_scenarios();  // parsed once, outside the timed inputs
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"warplens"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    const char ch = static_cast<char>(data[i]);
    if (ch == '\0' || ch == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += ch;
    }
  }
  if (size > 0) args.push_back(current);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());

  app::CommandLine command_line;
  try {
    command_line.cli.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
    return 0;  // main(): usage error (exit 2) or --help (exit 0)
  }
  try {
    convert(command_line);
  } catch (const std::invalid_argument&) {  // PatternError too; main(): exit 2
  } catch (const app::ScenarioError&) {     // an unknown scenario; main(): exit 2
  }
  return 0;
}
