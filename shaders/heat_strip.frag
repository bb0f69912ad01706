#version 330 core
// The sector heatmap: one column band per 32-byte sector of the first kHeatSectors sectors.
// Top row: how many warp requests moved the sector (0: untouched; 1: the sector colour; more:
// darker towards the text colour, on a log scale that reaches it at 32 requests).
// Bottom row: a bar of the bytes the lanes asked for per byte moved (bytes / (requests x 32));
// the rest of the bar is hatched over-fetch.
// Data: one RG32UI texel per sector (requests, bytes), written by the heatmap kernel through
// CUDA-GL interop (or by the host model without a GPU).
uniform usamplerBuffer u_heat;
uniform int u_sectors;
uniform vec2 u_viewport;
uniform vec4 u_rect;       // x0, y0, x1, y1 (pixels, origin top-left)
uniform float u_split;     // y where the requests row ends and the usefulness row begins
uniform float u_scale;
uniform vec3 u_untouched, u_sector, u_dense, u_overfetch, u_rule, u_background;
out vec4 frag_color;

void main() {
  vec2 p = vec2(gl_FragCoord.x, u_viewport.y - gl_FragCoord.y);
  if (p.x < u_rect.x || p.x >= u_rect.z || p.y < u_rect.y || p.y >= u_rect.w) {
    frag_color = vec4(u_background, 1.0);
    return;
  }
  float per_px = float(u_sectors) / (u_rect.z - u_rect.x);
  int first = int((p.x - u_rect.x) * per_px);
  int last = max(first, int((p.x + 1.0 - u_rect.x) * per_px) - 1);
  // A pixel may cover several sectors: average them, so an untouched sector between moved ones
  // (row padding, gaps) shows as a lighter column instead of vanishing.
  float requests = 0.0;
  float bytes = 0.0;
  float covered = 0.0;
  for (int s = first; s <= min(last, u_sectors - 1); ++s) {
    uvec4 h = texelFetch(u_heat, s);
    requests += float(h.x);
    bytes += float(h.y);
    covered += 1.0;
  }
  requests /= max(covered, 1.0);
  bytes /= max(covered, 1.0);
  vec3 c;
  if (p.y < u_split) {
    if (requests <= 0.0) {
      c = u_untouched;
    } else if (requests < 1.0) {  // partly untouched columns
      c = mix(u_untouched, u_sector, requests);
    } else {
      c = mix(u_sector, u_dense, clamp(log2(requests) / 5.0, 0.0, 1.0));
    }
  } else {
    float useful = requests <= 0.0 ? 0.0 : bytes / (32.0 * requests);
    float top = mix(u_rect.w, u_split + 2.0 * u_scale, clamp(useful, 0.0, 1.0));
    if (requests <= 0.0) {
      c = u_untouched;
    } else if (p.y >= top) {
      c = u_sector;
    } else {
      float h = mod(p.x + p.y, 7.0 * u_scale);
      c = h < 2.5 * u_scale ? u_overfetch : mix(u_overfetch, u_untouched, 0.55);
    }
  }
  if (abs(p.y - u_split) < 1.0 * u_scale) c = u_background;
  frag_color = vec4(c, 1.0);
}
