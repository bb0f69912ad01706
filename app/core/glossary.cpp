#include "glossary.h"

#include <algorithm>
#include <cctype>

namespace warplens::app {

const std::vector<GlossaryTerm>& glossary() {
  static const std::vector<GlossaryTerm> terms = {
      {"request",
       "One memory instruction of one warp: the addresses of its 32 lanes, served together.",
       "Nsight Compute Kernel Profiling Guide, \"Memory Tables\""},
      {"sector",
       "32 bytes: the unit global memory moves between DRAM, L2 and L1. A request costs a sector "
       "for each distinct 32-byte sector its lanes touch.",
       "CUDA C++ Best Practices Guide, \"Coalesced Access to Global Memory\""},
      {"cache line",
       "128 bytes, four sectors, aligned to 128: the unit L1 tags. Fermi's caching load moved "
       "whole lines.",
       "CUDA C++ Programming Guide, \"Global Memory\" (compute capabilities 5.x and 2.x)"},
      {"bytes moved used",
       "Bytes the lanes ask for ÷ bytes the sectors (or transactions) move: 100 % when every "
       "byte moved is used.",
       "CUDA C++ Best Practices Guide, \"Coalesced Access to Global Memory\""},
      {"bank",
       "Shared memory is 32 banks, each 4 bytes wide: the 4-byte word at byte address a is in "
       "bank (a ÷ 4) mod 32.",
       "CUDA C++ Programming Guide, \"Shared Memory\" (compute capability 5.x and later)"},
      {"wavefront",
       "One pass of shared memory: each of the 32 banks serves at most one distinct 4-byte word. "
       "A request takes as many wavefronts as its busiest bank has distinct words (1: no "
       "conflict).",
       "Nsight Compute, l1tex__data_pipe_lsu_wavefronts_mem_shared"},
      {"bank conflict",
       "Lanes of one request reading different words of the same bank: the bank serves them one "
       "wavefront after another.",
       "CUDA C++ Programming Guide, \"Shared Memory\""},
      {"broadcast", "Lanes reading the same word get it in one wavefront: no conflict.",
       "CUDA C++ Programming Guide, \"Shared Memory\""},
      {"phase",
       "A request of 8- or 16-byte words is served in phases of 16 or 8 lanes (128 bytes each); "
       "banks conflict only within a phase.",
       "CUDA C++ Programming Guide, \"Shared Memory\"; measured with the wavefront counter"},
      {"pitch",
       "Bytes (or elements) from the start of one row to the next in memory; padding makes it "
       "wider than the row.",
       "CUDA C++ Programming Guide, \"Device Memory\" (cudaMallocPitch)"},
      {"as stored",
       "The tile as it lies in shared memory: each row at its pitch, each chunk where the swizzle "
       "put it; a cell names the element stored there.",
       "WarpLens: the model's placement, or the GPU's read back"},
      {"swizzle",
       "Storing a row's chunks in a permuted order (an XOR of address bits) so a column's words "
       "fall in different banks.",
       "CuTe Swizzle<B,M,S> (NVIDIA/cutlass, include/cute/swizzle.hpp); CUDA TMA swizzle modes"},
      {"CuTe",
       "NVIDIA CUTLASS's layout algebra. A layout Shape:Stride maps a coordinate to an offset, "
       "(32,32):(32,1) is a row-major 32×32 tile; Sw<B,M,S> o L swizzles its offsets.",
       "NVIDIA/cutlass, media/docs/cute/01_layout.md and include/cute/swizzle.hpp"},
      {"TMA",
       "Tensor Memory Accelerator (Hopper, compute capability 9.0): one thread asks for a whole "
       "tile, and the hardware copies it between global and shared memory, swizzled if asked.",
       "CUDA C++ Programming Guide, \"Tensor Memory Access\"; PTX ISA cp.async.bulk.tensor"},
      {"ldmatrix",
       "A warp instruction that loads 8×8 matrices of 16-bit elements from shared memory into "
       "registers; .x4 loads four, each lane giving the address of one matrix row.",
       "PTX ISA, \"Warp-level matrix load instruction: ldmatrix\""},
      {"cp.async",
       "An asynchronous copy from global to shared memory that skips the registers (compute "
       "capability 8.0 and later).",
       "PTX ISA, \"cp.async\"; CUDA C++ Programming Guide, \"Asynchronous Data Copies\""},
      {"carveout",
       "The share of an SM's unified L1 and shared memory set aside as shared memory, in percent "
       "(cudaFuncAttributePreferredSharedMemoryCarveout); the rest is L1.",
       "CUDA C++ Programming Guide, \"Shared Memory\" (compute capability 9.0)"},
      {"occupancy", "Resident warps per SM ÷ the most an SM can hold (64 on Hopper).",
       "CUDA C++ Best Practices Guide, \"Occupancy\""},
      {"bytes in flight",
       "Bytes loads have asked for and not yet received, per SM: resident warps × 32 lanes × "
       "loads per thread × word bytes. Little's law: bandwidth = bytes in flight ÷ latency.",
       "J. D. C. Little, 1961; V. Volkov, \"Better Performance at Lower Occupancy\", GTC 2010"},
      {"B/clk/SM",
       "Bytes per SM per SM clock cycle. Shared memory serves at most 128 (32 banks × 4 bytes).",
       "CUDA C++ Programming Guide, \"Shared Memory\"; measured with each SM's clock64()"},
      {"loads per KiB",
       "Warp load instructions (requests) a kernel issues for each KiB it reads: wider words "
       "need fewer.",
       "WarpLens: 1024 ÷ (active lanes × word bytes)"},
      {"-dlcm",
       "nvcc -Xptxas -dlcm=ca caches global loads in L1 (128-byte lines on Fermi); -dlcm=cg "
       "caches them in L2 only (32-byte segments).",
       "CUDA C Programming Guide 4.x, compute capability 2.x, \"Global Memory\""},
  };
  return terms;
}

namespace {

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool has_upper(std::string_view term) {
  return std::any_of(term.begin(), term.end(),
                     [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; });
}

bool same_char(char a, char b, bool fold) {
  return fold ? std::tolower(static_cast<unsigned char>(a)) ==
                    std::tolower(static_cast<unsigned char>(b))
              : a == b;
}

// Whether `term` occurs in `text` as a whole word (or with a plural 's').
bool uses(std::string_view text, std::string_view term) {
  const bool fold = !has_upper(term);
  for (std::size_t at = 0; at + term.size() <= text.size(); ++at) {
    bool match = true;
    for (std::size_t i = 0; i < term.size() && match; ++i)
      match = same_char(text[at + i], term[i], fold);
    if (!match) continue;
    if (at > 0 && word_char(text[at - 1]) && word_char(term.front())) continue;
    std::size_t end = at + term.size();
    if (end < text.size() && text[end] == 's' && word_char(term.back())) ++end;
    if (end < text.size() && word_char(text[end]) && word_char(term.back())) continue;
    return true;
  }
  return false;
}

}  // namespace

std::vector<const GlossaryTerm*> terms_in(std::string_view text) {
  std::vector<const GlossaryTerm*> found;
  for (const GlossaryTerm& t : glossary())
    if (uses(text, t.term)) found.push_back(&t);
  return found;
}

std::string glossary_markdown() {
  std::string out = "| Term | Meaning | Source |\n|---|---|---|\n";
  for (const GlossaryTerm& t : glossary())
    out += std::string("| ") + t.term + " | " + t.meaning + " | " + t.source + " |\n";
  return out;
}

}  // namespace warplens::app
