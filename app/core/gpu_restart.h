// Recovery from a sticky GPU fault by restarting the process. After an illegal address or a trap
// the CUDA context is lost, and on current drivers a reset inside the process does not bring the
// GPU back: measured on an H100 (driver 580.159.04, 2026-11-27, a plain CUDA program with no GL
// and no CUPTI), cudaDeviceReset succeeds but every later call answers
// cudaErrorDevicesUnavailable for as long as it was tried (7.5 s), while a new process, started
// even as the faulted one still lives, measures at once (122-181 ms to its first kernel). CUDA's
// own documentation says the same of such errors: "the process must be terminated and
// relaunched". So whoever owns the process (the window, `verify`, the bench's fault drill)
// registers a restart: it saves what it needs (the scenario and parameters, rows already
// measured) and starts a fresh process, which restores that state and measures again. The window
// and the bench's fault drill run under a supervisor (run_supervised) that has touched no GPU:
// the faulted process leaves at once and the supervisor starts the new one
// (restart_under_supervisor; spawn_and_park, which parks the faulted process beside the new one,
// where no supervisor runs); `verify` replaces its image instead (restart_process).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warplens::app {

/// What runs when a lab met a sticky fault (`fault`: one line, CUDA's error): saves the state and
/// calls restart_process(), which does not return on success. If it returns (the exec failed),
/// the caller shows why and goes on without the GPU.
using GpuRestart = std::function<void(const std::string& fault)>;

/// Registers the process's restart (the window, a headless drill); an empty function removes it.
/// It runs on the thread that reports the fault (request_gpu_reset: a lab's worker, or the GL
/// thread after a trace), at once. Without one, gpu_recovery.h falls back to a device reset
/// inside the process.
void set_gpu_restart(GpuRestart restart);
[[nodiscard]] bool gpu_restart_registered();
/// Runs the registered restart with `fault`; false when none is registered.
bool run_gpu_restart(const std::string& fault);

/// A process restarted after a GPU fault (the window with --after-gpu-fault, the drill's
/// restarted processes), before its first GL context: asks for Mesa's software renderer unless
/// WARPLENS_GL_AFTER_FAULT=gpu (viz/software_gl.h, docs/hardening.md), serializes its frames
/// and sends the views' traces through host memory (no CUDA-GL interop: gpu_fault.h).
void begin_process_after_fault();
/// Once its GL context is current: frames stay serialized only where GL stayed on the GPU.
/// True when it draws with the CPU.
bool settle_process_after_fault();

/// A frame loop's GL thread, its context current: GPU work that runs alone (gpu::RunsAlone,
/// gpu_turn.h: begin_alone) waits for its frames' GL work to finish, unless GL draws on the CPU
/// (then it draws beside the job). The window and the headless drill and soak call it once.
void register_gl_frames();

/// This process's program (/proc/self/exe), for the new image.
[[nodiscard]] std::string self_executable();

/// Flushes stdout and stderr and replaces the process with `argv` (argv[0] is the program; the
/// environment is kept). Any thread may call it, a lab's worker too: the new image ends every
/// thread of the old one, and with its files the old CUDA context goes. Returns only when execv
/// failed, with the reason in one line.
std::string restart_process(const std::vector<std::string>& argv);

/// Starts `argv` as a new process (the environment and the standard streams are inherited) and
/// parks this one: it lets go of its hardware counters (the GPU lets one process profile at a
/// time), marks itself parked (process_parked()), waits for the new process and then ends with
/// its exit code, never tearing its faulted context down while the new process measures. Any
/// thread may call it. Returns only when the new process could not be started, with the reason.
///
/// Why not replace the image (restart_process)? On an H100 (2026-11-27) the new image of a process
/// whose context had faulted, with CUPTI and an EGL context in it, found every launch stuck for
/// more than 12 s (its first copy ran past the 2 s limit twice), while a process started beside
/// a faulted one that still lived ran its first kernel after 122-181 ms.
/// Under a supervisor (run_supervised) it ends the process instead (restart_under_supervisor).
std::string spawn_and_park(const std::vector<std::string>& argv);
/// The exit code with which a supervised process asks its supervisor to start it again.
inline constexpr int kRestartExitCode = 86;

/// Runs this program again as a child process, with the same arguments, under a supervisor that
/// never touches the GPU (this process), and starts it again each time it asks for a restart
/// (restart_under_supervisor) with the arguments it left: at once when it asks (a pipe whose
/// descriptor the child finds in WARPLENS_SUPERVISOR_FD), while the faulted process still ends,
/// or when it ends with kRestartExitCode; returns the exit code of the last child (128 + the
/// signal if a signal ended it), after every faulted one has ended. SIGINT, SIGTERM, SIGHUP and
/// SIGQUIT are passed on to the child. Call it before any CUDA call or thread. Returns std::nullopt
/// at once when this process is itself supervised (WARPLENS_SUPERVISOR is set): the caller then
/// runs as usual. Throws std::runtime_error when the child cannot be started.
///
/// Why a supervisor: a process parked beside its new one (spawn_and_park) must let go of its
/// hardware counters first, and on the H100 that took 5.2 s on a faulted context (2026-11-27),
/// past the 3 s a restart may take; a process that ends hands them back with everything else.
[[nodiscard]] std::optional<int> run_supervised(int argc, char** argv);

/// In a supervised process: leaves `argv` (argv[0] the program) for the supervisor and tells it
/// on its pipe, which starts the new process now; this process goes on (it is expected to end
/// soon with kRestartExitCode). False, doing nothing, when not supervised or the request cannot
/// be written. restart_under_supervisor() is this and the end of the process.
bool ask_supervisor_for_restart(const std::vector<std::string>& argv);

/// In a supervised process: leaves `argv` (argv[0] the program) for the supervisor, tells it on
/// its pipe (the new process starts now) and ends the process with kRestartExitCode
/// (end_faulted_process). Returns false, doing nothing, when the process is not supervised;
/// returns only then (or with false when the request cannot be written).
bool restart_under_supervisor(const std::vector<std::string>& argv);

/// Ends a process whose CUDA context faulted: no frame begins any more (stop_gl_before_exit,
/// gpu_turn.h) and the process ends with kRestartExitCode, tearing nothing down (the driver takes
/// back the context, its memory and the counters with the process). Tried and not kept: a
/// cudaDeviceReset of the faulted context first (H100, driver 580.159.04, 2026-11-27): it took
/// 146 ms and the process still took 4.4 s to end after it, until the driver's context-switch
/// timeout for its GL work (Xid 109).
[[noreturn]] void end_faulted_process();

/// This process has handed the GPU to a new one (spawn_and_park): the window stops drawing.
[[nodiscard]] bool process_parked();

/// A file for the state handed to the new image: $XDG_RUNTIME_DIR or the temporary directory,
/// named after `stem` and this process's id, written whole (a temporary file renamed into place).
/// Returns its path; throws std::runtime_error when it cannot be written.
std::string write_restart_file(const std::string& stem, const std::string& text);

}  // namespace warplens::app
