// warplens-bench's responsiveness table: frame time at 1920x1080 with the live trace updating
// every frame (a parameter changes each frame, the kernel re-traces through CUDA-GL interop and
// the whole window is drawn), and the latency from a parameter change to its new measured point
// on screen. Headless (EGL), so it runs on the GPU machine without a display. Times are wall
// clock per frame including glFinish, milliseconds; each figure is the median over `repeats`
// runs. Throws what the GL context and sessions throw.
#pragma once

namespace warplens::bench {

void print_frame_tables(int repeats);

}  // namespace warplens::bench
