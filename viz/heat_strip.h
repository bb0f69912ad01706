// The sector heatmap view: per 32-byte sector of the first kHeatSectors sectors of the buffer,
// how many warp requests of the whole launch moved it and how much of it they used. Drawn by a
// shader from one GL buffer (SectorHeatmap layout, a texture buffer of RG32UI) that the heatmap
// kernel fills through CUDA-GL interop, or the host model without a GPU.
#pragma once

#include <glad/gl.h>

#include "gl_program.h"
#include "index_math.h"
#include "theme.h"
#include "trace_sink.h"

namespace warplens::viz {

class HeatStrip final : public HeatmapSink {
 public:
  /// Creates the GL objects; needs a current GL 3.3 context. Throws GlError.
  HeatStrip();
  ~HeatStrip();
  HeatStrip(const HeatStrip&) = delete;
  HeatStrip& operator=(const HeatStrip&) = delete;

  /// The GL buffer (kHeatBufferBytes) the shader reads; register it with CUDA for interop.
  [[nodiscard]] unsigned interop_buffer() const override { return heat_.buffer(); }
  void publish(const SectorHeatmap& heat) override;
  [[nodiscard]] SectorHeatmap contents() const override;

  /// Draws into its own texture, `width` x `height` pixels; the sector row spans [x0, x1) of
  /// the width (pixels), the requests row the top half, the usefulness row the bottom half.
  GLuint render(int width, int height, float x0, float x1, float scale, const Theme& theme);

 private:
  TextureBuffer heat_;
  GLuint vertex_array_ = 0;
  GlProgram program_;
  RenderTarget target_;
};

}  // namespace warplens::viz
