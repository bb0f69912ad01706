// LabInstance::live_reading's default, from the A/B table's column (lab.h).
#include <cctype>
#include <string>

#include "lab.h"

namespace warplens::app {

namespace {

/// A counter text that holds a reading: a number, and none of the words of a failure.
bool holds_reading(const std::string& text) {
  if (text.find("no counters in this lab") != std::string::npos) return true;
  for (const char* failure : {"unavailable", "failed", "off (", "refused"})
    if (text.find(failure) != std::string::npos) return false;
  for (const char c : text)
    if (std::isdigit(static_cast<unsigned char>(c))) return true;
  return false;
}

}  // namespace

LiveReading LabInstance::live_reading() const {
  const CompareColumn c = compare_column();
  LiveReading r;
  r.measured = c.headline.value.has_value() && !c.headline.busy;
  r.counters = !c.counters_stale && holds_reading(c.counters);
  r.text = "headline " +
           (c.headline.value ? std::to_string(*c.headline.value) + " " + c.headline.unit
                             : std::string(c.headline.busy ? "measuring" : "none")) +
           (c.headline.note.empty() ? "" : " (" + c.headline.note + ")") + "; counters " +
           (c.counters_stale ? "stale: " : "") + c.counters;
  return r;
}

}  // namespace warplens::app
