// toml++'s implementation (its parser and formatters), compiled once here. Every other source
// includes <toml++/toml.h> with TOML_HEADER_ONLY=0 (warplens_app_core's public definition), so it
// sees the declarations only: the header-only default compiled the whole parser into each of the
// 34 sources that read or write a preset, about 4 s of CI's build each (2026-11-29). Kept out of
// unity batches: a batch that included the header first would leave this file without the
// implementation.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
