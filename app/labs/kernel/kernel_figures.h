// The own-kernel lab's numbers as a course-note figure's data (render --panel numbers): each
// access row's cost per request, model beside the GPU trace; the launch's totals per request,
// model beside the counters; the measured GB/s, or "model only"; the bandwidth model's line. The
// same numbers draw_kernel_numbers (kernel_ui.cpp) shows.
#pragma once

#include "figure_panel.h"
#include "kernel_session.h"

namespace warplens::app {

FigurePanelData kernel_numbers_panel(const KernelSession& session, const KernelResults& r);

}  // namespace warplens::app
