// compile_thread.h — LLVM's half of making native code (its passes and code
// generation: native::emit) runs on one worker thread while R's thread goes
// on interpreting; R's thread lowers the PIR and installs the result.
//
//   R's thread                              compile thread
//     lower(fn) -> module, submit(job)  -->   emit(module): passes, machine code
//     ... the baseline keeps running ...      job->entry, job->done, compiledWaiting
//     next function entry / loop check  <--
//       (interp.h's installHook) installs job->entry
//
// Only the finished job crosses back: the worker calls no R API, and R's
// thread touches no LLVM state while a job runs (all code generation,
// waited-for jobs included, happens on the worker). The worker blocks every
// signal (R's handlers run on R's thread). A fork (parallel::mclapply) waits
// for the running job; the child drops the queued ones (done, with
// `cancelled` set) and starts a worker of its own when asked again. At exit
// the worker finishes its job and stops, before LLVM's own teardown.
#pragma once

#include <atomic>
#include <string>

namespace rir {
namespace native {

struct CompileJob {
    void* lowered = nullptr;  // in: native::lower()'s module (consumed)
    void* entry = nullptr;    // out: the native entry, or nullptr with `why`
    std::string why;
    double seconds = 0;      // out: the worker's time for it
    bool cancelled = false;  // out: dropped by a fork's child (`lowered` discarded)
    std::atomic<bool> done{false};
};

// Queues `job` (R's thread; the job must live until done); `urgent` (a
// loop's continuation, or code R's thread waits for) goes before the
// others.
void submit(CompileJob* job, bool urgent);

// Blocks until `job` is done (R's thread). After the worker stopped (the
// process exits), runs it here.
void waitFor(CompileJob* job);

}  // namespace native
}  // namespace rir
