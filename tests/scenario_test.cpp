// Presets read from text (scenarios.h: parse_preset, what `--preset FILE` reads): inputs the
// fuzzer (tests/fuzz/fuzz_scenario.cpp) found mishandled, each refused with a ScenarioError that
// names the file and the key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "global_preset.h"
#include "global_scenario.h"
#include "scenarios.h"

namespace warplens::app {
namespace {

// A global-lab preset with `copy` as its [copy] table.
std::string global_preset(const std::string& copy) {
  return "name = \"p\"\ntitle = \"t\"\nsummary = \"s\"\n[copy]\n" + copy;
}

// Refused with a ScenarioError that starts with `prefix` ("my.toml: " for a preset's key,
// "my.toml:" for a TOML error's "my.toml:LINE:COLUMN: ") and holds `message_part`.
void expect_refused(const std::string& text, const std::string& message_part,
                    const std::string& prefix = "my.toml: ") {
  SCOPED_TRACE(text);
  try {
    (void)parse_preset(text, "my.toml");
    ADD_FAILURE() << "parsed without an error";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
    EXPECT_NE(what.find(message_part), std::string::npos) << what;
  }
}

void expect_toml_error(const std::string& text, const std::string& message_part) {
  expect_refused(text, message_part, "my.toml:");
}

TEST(PresetText, AGlobalPresetReadsItsWarps) {
  const Scenario s = parse_preset(
      global_preset("word_bytes = 4\noffset = 1\nstride = 1\nwarp = 1\nwarps = 2\n"), "my.toml");
  EXPECT_EQ(s.lab, Lab::Global);
  EXPECT_EQ(global_scenario(s).warp, 1);
  EXPECT_EQ(global_scenario(s).warps, 2);
}

// toml++ 3.3 converts a float to a 64-bit integer before checking its range (undefined beyond
// 2^63, reported by UBSan); integral floats within range still read as integers.
TEST(PresetText, ALabTableAsJsonHoldsEveryKeyWithItsTypeForMeasure) {
  // `warplens measure`'s "preset": the [copy] table a scenario's state writes, as JSON.
  const Scenario s = with_settings(builtin_scenario_text("stride-2"), "stride-2",
                                   {"stride=3", "matrix.width=1024"});
  const toml::table table = global_preset_section(global_state(global_scenario(s)));
  const nlohmann::json j = toml_json(table);
  ASSERT_TRUE(j.contains("copy")) << j.dump();
  EXPECT_EQ(j["copy"]["stride"], 3);
  EXPECT_TRUE(j["copy"]["stride"].is_number_integer());
  EXPECT_EQ(j["copy"]["pattern"], "strided");
  EXPECT_EQ(j["copy"]["matrix"]["width"], 1024);
  // Every key of the table is in the JSON, nothing else.
  std::size_t keys = 0;
  for (const auto& [k, v] : *table["copy"].as_table()) {
    ++keys;
    EXPECT_TRUE(j["copy"].contains(std::string(k.str()))) << k.str();
  }
  EXPECT_EQ(j["copy"].size(), keys);
}

TEST(PresetText, FloatsPastTheIntegerRangeAreMistypedNotUndefined) {
  expect_refused(global_preset("word_bytes = 4\noffset = 1\nstride = 1e31\n"),
                 "missing or mistyped key \"stride\"");
  expect_refused(global_preset("word_bytes = 4\noffset = -1e300\nstride = 1\n"),
                 "missing or mistyped key \"offset\"");
  expect_refused(global_preset("word_bytes = 4\noffset = 0\nstride = 1\n[copy.matrix]\n"
                               "width = 121e30\n"),
                 "\"width\" must be a 32-bit integer");
  expect_refused(global_preset("word_bytes = 4\noffset = 0\nstride = inf\n"),
                 "missing or mistyped key \"stride\"");
  const Scenario s =
      parse_preset(global_preset("word_bytes = 4.0\noffset = 2.0\nstride = 1\n"), "my.toml");
  EXPECT_EQ(global_scenario(s).copy.offset, 2);
}

// toml++ 3.3 reached __builtin_unreachable (UBSan) for a non-ASCII character where it looks for
// whitespace: right after a value (fuzz_scenario: `be =  21\u033E7`), in a key, after a
// multi-line string's backslash. parse_toml_text refuses these with the line and column; what
// TOML allows (non-ASCII in strings and comments, a BOM) still reads.
TEST(PresetText, NonAsciiWhereTomlppWouldReadItAsWhitespaceIsRefusedWithItsPlace) {
  const std::string e = "\xC3\xA9";  // é
  expect_toml_error(
      "be =  21\xCC\xBE"
      "7\n",
      "my.toml:1:9: a non-ASCII character outside a string");
  expect_toml_error(global_preset("word_bytes = 4\noffset = 1" + e + "\n"),
                    "my.toml:6:11: a non-ASCII character outside a string or comment");
  expect_toml_error("k" + e + " = 1\n", "my.toml:1:2: a non-ASCII character outside");
  expect_toml_error("k = \"a\"" + e + "\n", "my.toml:1:8:");
  expect_toml_error(R"(k = """\)" + e + R"(""")" + "\n", "right after a backslash");
  expect_toml_error(R"(k = """a\  )"
                    "\n  " +
                        e +
                        R"(""")"
                        "\n",
                    "my.toml:2:3: a non-ASCII character first on a line continued by a backslash");
  // A quote inside a bare value starts no string: toml++ reads on through it as the value.
  expect_toml_error("be =  333'3" + e + "7\n", "my.toml:1:12: a non-ASCII character outside");
  // After a string closed by four or five quotes, the text is TOML again.
  expect_toml_error(R"(k = """x"""" )" + e + "\n", "my.toml:1:14:");
  expect_toml_error("k = '''x''''' " + e + "\n", "my.toml:1:15:");

  const std::string allowed =
      "\xEF\xBB\xBF"
      "name = \"p" +
      e + "\" # " + e + "\n" + "title = 't" + e + "'\n" + R"(summary = """\")" + e +
      "\\\n  s\"\"\"\n" + "look_for = '''" + e + "'''\n" + "[copy]\n\"" + e + "\" = \"\\u00e9\"\n" +
      "word_bytes = 4\noffset = 1\nstride = 1\n";
  const Scenario s = parse_preset(allowed, "my.toml");
  EXPECT_EQ(s.name, "p" + e);
  EXPECT_EQ(s.title, "t" + e);
  EXPECT_EQ(s.summary, "\"" + e + "s");
  EXPECT_EQ(s.look_for, e);
}

// A --set value is parsed as TOML too: the same refusal, not a crash.
TEST(SetKnobs, ASettingWithNonAsciiAfterANumberIsRefusedNotACrash) {
  const std::string text(builtin_scenario_text("misaligned"));
  EXPECT_THROW((void)with_settings(text, "misaligned", {"offset=1\xC3\xA9"}), ScenarioError);
}

// warp + warps overflowed int (UBSan) for warp = 2^31 - 1.
TEST(PresetText, AWarpAtTheEndOfTheIntRangeIsOutsideTheBlock) {
  expect_refused(global_preset("word_bytes = 4\noffset = 0\nstride = 1\nwarp = 2147483647\n"),
                 "warps 2147483647..2147483647 are not in 0..");
  expect_refused(
      global_preset("word_bytes = 4\noffset = 0\nstride = 1\nwarp = 2147483647\nwarps = 8\n"),
      "warps 2147483647..2147483654 are not in 0..");
}

// Values past 32 bits were cut to their low 32 bits: warps = 2^32 + 1 read as 1.
TEST(PresetText, IntegersPast32BitsAreRefusedNotTruncated) {
  expect_refused(global_preset("word_bytes = 4\noffset = 0\nstride = 1\nwarps = 4294967297\n"),
                 "\"warps\" must be a 32-bit integer");
  expect_refused(global_preset("word_bytes = 4294967300\noffset = 0\nstride = 1\n"),
                 "\"word_bytes\" must be a 32-bit integer");
  expect_refused(global_preset("word_bytes = 4\noffset = 0\nstride = 1\nseed = 4294967297\n"),
                 "\"seed\" must be a 32-bit integer");
  expect_refused(global_preset("word_bytes = 4\noffset = 0\nstride = 1\nwarp = \"one\"\n"),
                 "\"warp\" must be a 32-bit integer");
}

// The bank probe's block_x * block_y overflowed int (found by fuzz_scenario under UBSan).
TEST(PresetText, AHugeBankBlockIsRefused) {
  expect_refused(
      "name = \"p\"\ntitle = \"t\"\nsummary = \"s\"\nlab = \"banks\"\n[banks]\n"
      "block = \"711111x11111111\"\n",
      "block 711111x11111111 is not 1..1024 threads");
}

// The bank probe's model evaluated the index before its fields were checked: a swizzled tile of
// width 0 divided by zero (found by fuzz_scenario under UBSan).
TEST(PresetText, ASwizzledTileOfWidthZeroIsRefused) {
  expect_refused(
      "name = \"p\"\ntitle = \"t\"\nsummary = \"s\"\nlab = \"banks\"\n[banks]\n"
      "pattern = \"tile\"\nblock = \"32x32\"\ntile_width = 0\nby = \"column\"\n"
      "swizzle = true\n",
      "tile width must be 1..1024 elements (got 0)");
}

// --set KEY=VALUE (render and the window): a knob of a scenario changed as its preset writes it.
TEST(SetKnobs, ChangeTheScenariosKnobsAsItsPresetNamesThem) {
  const std::string text(builtin_scenario_text("misaligned"));
  const Scenario s =
      with_settings(text, "misaligned", {"offset=3", "layout=soa", "matrix.width=64"});
  EXPECT_EQ(s.name, "misaligned");
  EXPECT_EQ(global_scenario(s).copy.offset, 3);
  EXPECT_EQ(global_scenario(s).copy.layout, gpu::StructLayout::StructOfArrays);
  EXPECT_EQ(global_scenario(s).copy.matrix_width, 64);
  EXPECT_NE(s.title.find("(set: offset = 3, layout = soa, matrix.width = 64)"), std::string::npos)
      << s.title;
  EXPECT_NE(s.summary.find("Changed on the command line"), std::string::npos) << s.summary;
  EXPECT_TRUE(s.look_for.empty());
  // The built-in itself is unchanged.
  EXPECT_EQ(global_scenario(find_scenario("misaligned")).copy.offset,
            global_scenario(parse_scenario(text, "misaligned")).copy.offset);
}

TEST(SetKnobs, AKeyNoKnobReadsAMalformedSettingOrABadValueIsRefused) {
  const std::string text(builtin_scenario_text("misaligned"));
  const auto refused = [&](const std::string& setting, const std::string& part) {
    SCOPED_TRACE(setting);
    try {
      (void)with_settings(text, "misaligned", {setting});
      ADD_FAILURE() << "accepted";
    } catch (const ScenarioError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  refused("ofset=3", "reads no key \"ofset\"");
  refused("offset", "expected KEY=VALUE");
  refused("=3", "expected KEY=VALUE");
  refused("layout=diagonal", "layout must be");
  refused("offset=many", "offset");
  refused("word_bytes=3", "word");
}

}  // namespace
}  // namespace warplens::app

namespace warplens::app {
namespace {

TEST(PresetText, APresetCarriesItsQuestionForPredictThenReveal) {
  const Scenario s = parse_preset(
      "name = \"p\"\ntitle = \"t\"\nsummary = \"s\"\nquestion = \"How many sectors?\"\n[copy]\n"
      "word_bytes = 4\noffset = 1\nstride = 1\n",
      "my.toml");
  EXPECT_EQ(s.question, "How many sectors?");
  expect_refused("name = \"p\"\ntitle = \"t\"\nsummary = \"s\"\nquestion = 3\n[copy]\n",
                 "question must be a non-empty string");
  expect_refused("name = \"p\"\ntitle = \"t\"\nsummary = \"s\"\nquestion = \"\"\n[copy]\n",
                 "question must be a non-empty string");
}

}  // namespace
}  // namespace warplens::app
