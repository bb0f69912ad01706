#version 330 core
// The memory strip of the warp view: each pixel column is one byte position of the lines on
// show. Colours come from the warp trace itself (one RGBA32UI texel per lane: address low
// bits, address high bits, word bytes, active), so what is drawn is what the kernel touched.
uniform usamplerBuffer u_trace;
// Transactions of a historical memory model (begin low bits, length, warp slot, 1); with none,
// the moved bytes are the 32-byte sectors the trace touches (compute capability 7.0+).
uniform usamplerBuffer u_transactions;
uniform int u_transaction_count;
uniform int u_line_count;
uniform uint u_line_address[256];  // byte address (low 32 bits) of each line on show
uniform float u_line_x[256];       // pixel x where each line starts
uniform float u_px_per_byte;
uniform vec2 u_viewport;
uniform vec4 u_rect;               // strip x0, y0, x1, y1 (pixels, origin top-left)
uniform float u_scale;             // UI scale: rule widths and hatch spacing
uniform int u_warps;               // warps in the trace (32 records each)
uniform vec3 u_lane_color[32];
uniform vec3 u_untouched;
uniform vec3 u_overfetch;
uniform vec3 u_rule;
uniform vec3 u_background;
uniform vec3 u_sector;             // fill of the sector row for sectors the request moves
uniform int u_stepping;           // 1: stepping through the request's sectors (modern model),
                                   // 2: the same, sectors not yet arrived drawn as never moved
uniform uint u_arrived_end;        // stepping: sectors (low address bits / 32) below this arrived
uniform float u_sector_row_top;    // y where the sector row starts: one band per warp
uniform float u_box_bytes;         // bytes per box of the sector row and per thin rule: 32, or
                                   // a historical model's transaction (64 or 128) where all are
out vec4 frag_color;

const float kLineBytes = 128.0;
const float kSectorBytes = 32.0;
const float kMinWordPx = 4.0;  // at UI scale 1

void main() {
  vec2 p = vec2(gl_FragCoord.x, u_viewport.y - gl_FragCoord.y);
  int line = -1;
  for (int i = 0; i < u_line_count; ++i) {
    if (p.x >= u_line_x[i] && p.x < u_line_x[i] + kLineBytes * u_px_per_byte) { line = i; break; }
  }
  if (line < 0) {  // a gap between lines that are not adjacent: a dotted "skipped" mark
    float mid = 0.5 * (u_rect.y + u_rect.w);
    bool dot = abs(p.y - mid) < 1.0 * u_scale && mod(p.x, 5.0 * u_scale) < 2.5 * u_scale;
    frag_color = vec4(dot ? u_rule : u_background, 1.0);
    return;
  }
  float local = (p.x - u_line_x[line]) / u_px_per_byte;  // byte within the line, fractional
  uint byte_address = u_line_address[line] + uint(local);
  uint sector = byte_address >> 5;

  // The sector row has one band per warp; a sector is filled in the bands of the warps whose
  // request moves it, so sectors shared by several warps show as filled in several bands.
  float band_h = (u_rect.w - u_sector_row_top) / float(u_warps);
  int band = clamp(int((p.y - u_sector_row_top) / band_h), 0, u_warps - 1);
  bool touched = false;       // by any warp
  bool band_touched = false;  // by this band's warp
  int owner = -1;
  // A word narrower than kMinWordPx is drawn that wide from its first byte (and the line rule
  // over it thin), so a lane's 4 bytes in a few pixels per line do not vanish under the rules.
  // Never wider than its sector: where the sector is wide enough to show both (4 px), at most
  // half of it (and 3 px where that is less than half), so the bytes the sector moves unasked
  // stay hatched beside the word (stride-32 at 3x: 12 px had filled its 8 px sector, as if all
  // of it were used); below 4 px, the sector. scattered at 3x had drawn each 4-byte word 12 px
  // wide in lines of 23 px: 40 % of each line, beside "12.5 % of the bytes moved used".
  float min_word_bytes = kMinWordPx * u_scale / u_px_per_byte;
  float sector_px = kSectorBytes * u_px_per_byte;
  if (sector_px >= 6.0)
    min_word_bytes = min(min_word_bytes, max(0.5 * kSectorBytes, 3.0 / u_px_per_byte));
  else if (sector_px >= 4.0)
    min_word_bytes = min(min_word_bytes, 0.5 * kSectorBytes);
  else
    min_word_bytes = min(min_word_bytes, kSectorBytes);
  bool widened = false;
  uint askers = 0u;  // the lanes (of any warp) whose word holds this byte
  for (int record = 0; record < 32 * u_warps; ++record) {
    uvec4 r = texelFetch(u_trace, record);
    if (r.w == 0u) continue;
    uint first_sector = r.x >> 5;
    uint last_sector = (r.x + r.z - 1u) >> 5;
    if (sector - first_sector <= last_sector - first_sector) {  // unsigned range test
      touched = true;
      if (record / 32 == band) band_touched = true;
    }
    uint into = byte_address - r.x;  // bytes past the word's first (wraps when before it)
    if (into < r.z) {
      owner = record % 32;
      askers |= 1u << uint(record % 32);
      widened = float(r.z) < min_word_bytes;
    } else if (owner < 0 && float(into) + fract(local) < min_word_bytes) {
      owner = record % 32;
      widened = true;
    }
  }
  if (u_transaction_count > 0) {
    touched = false;
    band_touched = false;
    for (int i = 0; i < u_transaction_count; ++i) {
      uvec4 t = texelFetch(u_transactions, i);
      if (byte_address - t.x < t.y) {
        touched = true;
        if (int(t.z) == band) band_touched = true;
      }
    }
  }

  bool arrived = u_stepping == 0 || (sector & 0x7ffffffu) < u_arrived_end;

  // One box (and one thin rule) per 32-byte sector, or per transaction where the model moves
  // whole 64- or 128-byte blocks (Fermi's caching loads: one box per 128-byte line).
  float box_bytes = max(u_box_bytes, kSectorBytes);
  float in_sector = mod(local, box_bytes);
  float d_sector = min(in_sector, box_bytes - in_sector) * u_px_per_byte;
  float d_line = min(local, kLineBytes - local) * u_px_per_byte;
  // Rules and the gaps between sector boxes narrow with the sectors, so a line a few pixels per
  // sector wide (a broken axis, many lines) keeps its sector boxes and bytes.
  float line_rule = min(1.75 * u_scale, 0.12 * sector_px);
  float box_gap = min(1.5 * u_scale, 0.15 * sector_px);
  if (p.y >= u_sector_row_top) {  // the sector row: one box per 32-byte sector, filled if moved
    vec3 pending = u_stepping == 2 ? u_untouched : mix(u_sector, u_background, 0.75);
    vec3 box = band_touched ? (arrived ? u_sector : pending) : u_untouched;
    if (u_warps > 1 && abs(p.y - (u_sector_row_top + band_h * float(band))) < 0.6 * u_scale) box = u_background;
    if (d_sector < box_gap || p.y - u_sector_row_top < 2.0 * u_scale) box = u_background;
    if (d_line < line_rule) box = u_rule;
    if (u_rect.w - p.y < 1.5 * u_scale) box = u_rule;
    frag_color = vec4(box, 1.0);
    return;
  }

  // A byte several lanes ask for (a broadcast: all lanes on one word) stacks their colours in
  // lane order, top to bottom, rather than showing the last lane's alone.
  int shared_by = 0;  // (bitCount needs GLSL 4.00)
  for (int lane = 0; lane < 32; ++lane) shared_by += int((askers >> uint(lane)) & 1u);
  if (shared_by > 1) {
    float t = clamp((p.y - u_rect.y) / max(u_sector_row_top - u_rect.y, 1.0), 0.0, 0.999);
    int k = int(t * float(shared_by));
    for (int lane = 0; lane < 32; ++lane) {
      if ((askers & (1u << uint(lane))) == 0u) continue;
      if (k-- == 0) { owner = lane; break; }
    }
  }
  vec3 c = u_untouched;
  if (owner >= 0) {
    c = arrived ? u_lane_color[owner] : mix(u_lane_color[owner], u_background, 0.78);
  } else if (touched && arrived) {  // moved but not asked for: over-fetch, hatched
    // Stripes at most a sector apart, so a few pixels of over-fetch still hold one.
    float period = clamp(kSectorBytes * u_px_per_byte, 3.0, 7.0 * u_scale);
    float h = mod(p.x + p.y, period);
    c = h < 0.36 * period ? u_overfetch : mix(u_overfetch, u_untouched, 0.55);
  }

  // Rules: bytes (when wide enough), 32-byte sectors, 128-byte lines.
  float d_byte = min(fract(local), 1.0 - fract(local)) * u_px_per_byte;
  if (u_px_per_byte >= 6.0 * u_scale && d_byte < 0.5) c = mix(c, u_rule, 0.25);
  // No thin rules over boxes a few pixels wide (matrix-columns at 3x on 1280x720: 32 lines of
  // 13 px): there they darkened the bytes in stripes; the sector row still shows the boxes.
  if (box_bytes * u_px_per_byte >= max(8.0, 4.0 * u_scale) && d_sector < 0.6 * u_scale)
    c = mix(c, u_rule, 0.55);
  if (d_line < (widened ? min(0.6 * u_scale, line_rule) : line_rule)) c = u_rule;
  // Frame top.
  if (p.y - u_rect.y < 1.5 * u_scale) c = u_rule;
  frag_color = vec4(c, 1.0);
}
