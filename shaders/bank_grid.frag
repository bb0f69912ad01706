#version 330 core
// One phase of the shared-memory bank view: a header row (one box per bank), the rows of
// bank-width words the phase's lanes touch, and a row of per-bank counts. Which lanes touch a
// word comes from the warp trace itself (one RGBA32UI texel per lane: byte offset low bits,
// high bits, word bytes, active), the buffer the bank-probe kernel writes through CUDA-GL
// interop. A word several lanes read is striped in their colours inside a broadcast ring; a
// bank that serves more distinct words than the phase's minimum (u_bank_words > u_min_words) is
// a conflict: its
// header and count are filled, its column framed and tinted, in the conflict colour.
uniform usamplerBuffer u_trace;
uniform vec2 u_viewport;
uniform vec4 u_rect;          // area drawn: x0, y0, x1, y1 (pixels, origin top-left)
uniform float u_scale;
uniform int u_first_lane;     // the phase's lanes
uniform int u_lane_count;
uniform int u_banks;
uniform uint u_bank_width;    // bytes
uniform float u_grid_x0;      // left edge of bank 0's column
uniform float u_cell_w;
uniform float u_row_h;
uniform float u_frame;        // a conflicting column's frame width (BankLayout::conflict_frame)
uniform float u_box_gap;      // gap between a column's edge or frame and its boxes (box_gap)
uniform vec2 u_header;        // y0, y1 of the bank-number row
uniform vec2 u_grid;          // y0, y1 of the rows
uniform vec2 u_counts;        // y0, y1 of the count row
uniform int u_row_count;
uniform uint u_row_word[32];  // first word (low 32 bits) of each row shown
uniform float u_row_y[32];    // top of each row shown
uniform int u_bank_words[32]; // distinct words each bank serves in this phase (served so far)
uniform uint u_row_pending[32];  // per row shown: bit b set when bank b's word there is not yet
                                 // served (the view steps through the wavefronts)
uniform int u_min_words;      // the phase's fewest wavefronts: ceil(distinct words / banks)
uniform vec3 u_lane_color[32];
uniform vec3 u_untouched, u_background, u_rule, u_conflict, u_broadcast;
out vec4 frag_color;

void main() {
  vec2 p = vec2(gl_FragCoord.x, u_viewport.y - gl_FragCoord.y);
  vec3 c = u_background;
  float column = (p.x - u_grid_x0) / u_cell_w;
  int bank = int(floor(column));
  if (bank < 0 || bank >= u_banks || p.y < u_header.x || p.y >= u_counts.y) {
    frag_color = vec4(c, 1.0);
    return;
  }
  float fx = p.x - (u_grid_x0 + float(bank) * u_cell_w);
  bool conflict = u_bank_words[bank] > u_min_words;
  float frame = conflict ? u_frame : 0.0;  // conflict frame inside the column's edges
  float inset = frame + u_box_gap;         // tiles: a background gap around each box
  bool in_x = fx >= inset && fx < u_cell_w - inset;
  vec3 plain = mix(u_untouched, u_background, 0.45);  // header and count boxes

  if (p.y < u_header.y) {  // bank-number row
    if (in_x && p.y >= u_header.x + frame) c = conflict ? u_conflict : plain;
  } else if (p.y >= u_counts.x) {  // count row: distinct words the bank serves
    if (in_x && p.y < u_counts.y - frame) {
      c = conflict ? u_conflict : (u_bank_words[bank] > 0 ? plain : u_background);
      if (u_bank_words[bank] == 0 && (p.y - u_counts.x < 1.0 || u_counts.y - p.y <= 1.0))
        c = mix(u_untouched, u_background, 0.2);  // an empty box: outline only
    }
  } else if (p.y >= u_grid.x && p.y < u_grid.y) {
    int slot = -1;
    for (int i = 0; i < u_row_count; ++i) {
      if (p.y >= u_row_y[i] && p.y < u_row_y[i] + u_row_h) slot = i;
    }
    if (slot < 0) {
      // Between rows that are not adjacent: a dotted "rows skipped" rule across the column.
      for (int i = 1; i < u_row_count; ++i) {
        float top = u_row_y[i - 1] + u_row_h;
        if (p.y >= top && p.y < u_row_y[i] && abs(p.y - 0.5 * (top + u_row_y[i])) < 1.0 * u_scale &&
            mod(p.x, 6.0 * u_scale) < 3.0 * u_scale)
          c = u_rule;
      }
    } else {
      float fy = p.y - u_row_y[slot];
      // The gap between rows: a quarter of a short row at most, so the box keeps most of it.
      float tile = min(max(1.0, 1.0 * u_scale), max(1.0, floor(0.25 * u_row_h)));
      if (in_x && fy >= tile && fy < u_row_h - tile) {
        uint word = u_row_word[slot] + uint(bank);
        float bank_w = float(u_bank_width);
        float along = (fx - inset) / (u_cell_w - 2.0 * inset);  // 0..1 across the box
        uint byte_address = word * u_bank_width + uint(clamp(floor(along * bank_w), 0.0, bank_w - 1.0));
        int readers = 0;    // lanes touching the word
        int covering = 0;   // lanes touching this pixel's byte of it
        bool partial = false;
        for (int l = u_first_lane; l < u_first_lane + u_lane_count; ++l) {
          uvec4 r = texelFetch(u_trace, l);
          if (r.w == 0u || r.z == 0u) continue;
          uint first = r.x / u_bank_width, last = (r.x + r.z - 1u) / u_bank_width;
          if (word - first <= last - first) {  // unsigned range test
            ++readers;
            if (r.z < u_bank_width) partial = true;
            if (byte_address - r.x < r.z) ++covering;
          }
        }
        bool pending = (u_row_pending[slot] & (1u << uint(bank))) != 0u;
        if (readers == 0) {
          c = conflict ? mix(u_untouched, u_conflict, 0.16) : u_untouched;
        } else if (covering == 0) {  // a byte of a touched word that no lane reads
          c = mix(u_untouched, u_background, 0.5);
        } else if (pending) {
          // Not served yet: its first lane's colour, faint, under a dashed edge.
          int first = -1;
          for (int l = u_first_lane; l < u_first_lane + u_lane_count && first < 0; ++l) {
            uvec4 r = texelFetch(u_trace, l);
            if (r.w != 0u && r.z != 0u && byte_address - r.x < r.z) first = l;
          }
          c = mix(u_lane_color[max(first, 0)], u_background, 0.78);
          float edge = min(min(fx - inset, u_cell_w - inset - fx), min(fy - tile, u_row_h - tile - fy));
          if (edge < max(1.0, 1.2 * u_scale) && mod(fx + fy, 6.0 * u_scale) < 3.0 * u_scale)
            c = mix(u_lane_color[max(first, 0)], u_background, 0.2);
        } else {
          // Several lanes on one byte: diagonal stripes in their colours, neighbouring stripes
          // far apart in lane order (golden-ratio steps) so they read as distinct lanes.
          float stripe = max(5.0, 5.0 * u_scale);
          int pick = int(fract(floor((fx + fy) / stripe) * 0.618034) * float(covering));
          int seen = 0;
          for (int l = u_first_lane; l < u_first_lane + u_lane_count; ++l) {
            uvec4 r = texelFetch(u_trace, l);
            if (r.w == 0u || r.z == 0u) continue;
            if (byte_address - r.x < r.z) {
              if (seen == pick) c = u_lane_color[l];
              ++seen;
            }
          }
        }
        // Byte rules inside words that lanes share piecewise (sub-word accesses).
        float byte_px = (u_cell_w - 2.0 * inset) / bank_w;
        if (partial && abs(along * bank_w - floor(along * bank_w + 0.5)) * byte_px < 0.75 &&
            along * bank_w > 0.5 && along * bank_w < bank_w - 0.5)
          c = u_background;
        // Broadcast: a ring in the broadcast colour, set off from the stripes by a thin gap.
        if (readers > 1 && !pending) {
          float edge = min(min(fx - inset, u_cell_w - inset - fx), min(fy - tile, u_row_h - tile - fy));
          // At most a fifth of a narrow box each, so the stripes stay inside the ring.
          float box = min(u_cell_w - 2.0 * inset, u_row_h - 2.0 * tile);
          float ring = min(max(3.0, 3.5 * u_scale), max(1.0, 0.2 * box));
          if (edge < ring) c = u_broadcast;
          else if (edge < ring + min(max(1.0, 1.0 * u_scale), max(1.0, 0.1 * box))) c = u_background;
        }
      } else if (!in_x && !conflict && fy >= tile && fy < u_row_h - tile) {
        // The gap between two boxes of a row is bridged when one lane alone reads both words
        // (an 8- or 16-byte access spans banks), so a wide access reads as one piece.
        bool right = fx >= u_cell_w - inset;
        int other = right ? bank + 1 : bank - 1;
        if (other >= 0 && other < u_banks && u_bank_words[other] <= u_min_words) {
          uint lo = u_row_word[slot] + uint(right ? bank : other);
          int readers_lo = 0, readers_hi = 0, both = -1;
          for (int l = u_first_lane; l < u_first_lane + u_lane_count; ++l) {
            uvec4 r = texelFetch(u_trace, l);
            if (r.w == 0u || r.z == 0u) continue;
            uint first = r.x / u_bank_width, last = (r.x + r.z - 1u) / u_bank_width;
            bool has_lo = lo - first <= last - first, has_hi = lo + 1u - first <= last - first;
            if (has_lo) ++readers_lo;
            if (has_hi) ++readers_hi;
            if (has_lo && has_hi) both = l;
          }
          if (both >= 0 && readers_lo == 1 && readers_hi == 1) {
            // Faint while the word waits for its wavefront (stepping), as its boxes are.
            bool waiting = (u_row_pending[slot] & (1u << uint(right ? bank : other))) != 0u;
            c = waiting ? mix(u_lane_color[both], u_background, 0.78) : u_lane_color[both];
          }
        }
      }
    }
  }
  // The conflict frame: down both edges of the column, across the header's top and the count
  // row's bottom.
  if (conflict && (fx < frame || fx >= u_cell_w - frame || p.y < u_header.x + frame ||
                   p.y >= u_counts.y - frame))
    c = u_conflict;
  frag_color = vec4(c, 1.0);
}
