// `warplens-bench soak MINUTES`: a headless monkey that drives the window's own code (the shell's
// draw_app, its key handling, scenario picker, A/B compare, preset loading, and each lab's
// session through LabInstance::random_change) for MINUTES, rendering through EGL as `warplens
// render` does, and judges the run (docs/hardening.md):
//   - no crash (an exception out of the shell or a lab ends the run as a failure);
//   - no lab left with an error in its status line once the labs are idle at the end;
//   - host RSS, its anonymous pages (/proc/self/status: RssAnon; all pages and the heap in use
//     are reported), and GPU memory in use (cudaMemGetInfo, each lab's GPU objects released for
//     the sample; not with --model-only) grow by less than 5 MiB from the baseline sample to the
//     last one, both taken alike (docs/hardening.md). The baseline is the sample at the end of
//     minute 1, or at half the run for runs shorter than 2 minutes. With --report-memory (CI's
//     6-second run, too short to tell a leak from the allocator's warm-up) the growth is
//     reported and not judged, and the two samples skip their sweep over every scenario;
//   - frame time p99 <= 16.7 ms (one 60 Hz frame): the time of one frame of the window's loop
//     (labs.update(), the UI drawn into the framebuffer, glFinish). Judged only where the GL
//     renderer is hardware; on a software renderer (Mesa llvmpipe, the CI machine) it is
//     reported and not judged.
#pragma once

#include <string>

namespace warplens::bench {

struct SoakOptions {
  double minutes = 10;             ///< run time, minutes (fractions allowed; at least 1 s)
  bool model_only = false;         ///< every lab on its model alone; no GPU needed
  unsigned seed = 1;               ///< the monkey's random choices
  std::string csv;                 ///< one row per second (soak_csv_header()); empty: none
  int width = 1600, height = 960;  ///< the framebuffer, pixels (the window's default size)
  bool report_memory = false;      ///< memory growth reported, not judged (CI's short run)
};

/// The CSV's header line (no newline): its columns, in order.
const char* soak_csv_header();

/// Runs the soak; prints progress every minute and the verdict table to stdout. Returns 0 when
/// every judged criterion passes, 1 when one fails (or the run crashed), 3 without a CUDA device
/// unless options.model_only.
int run_soak(const SoakOptions& options);

}  // namespace warplens::bench
