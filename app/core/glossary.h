// The field's words WarpLens puts on screen, each with one meaning: what a hover over a text
// that uses one shows (ui_widgets.h: glossary_tooltip), what `warplens glossary` prints and
// docs/reference/glossary.md lists (a test keeps the two equal).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warplens::app {

struct GlossaryTerm {
  const char* term;     ///< as the screen writes it, e.g. "wavefront", "B/clk/SM"
  const char* meaning;  ///< one or two sentences; units named
  const char* source;   ///< the NVIDIA document (or measurement) the meaning comes from
};

/// Every term, in the order the docs list them.
[[nodiscard]] const std::vector<GlossaryTerm>& glossary();

/// The terms `text` uses, each once, in glossary order. A term matches as a whole word or its
/// plural ("wavefronts", not "subrequest"), case-insensitively where the term is all lower case
/// ("Wavefronts per request"), exactly where it is not ("TMA", "CuTe").
[[nodiscard]] std::vector<const GlossaryTerm*> terms_in(std::string_view text);

/// The glossary as a Markdown table (`warplens glossary`, docs/reference/glossary.md).
[[nodiscard]] std::string glossary_markdown();

}  // namespace warplens::app
