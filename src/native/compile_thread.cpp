// compile_thread.cpp — the compile thread (see compile_thread.h).
//
//   submit(job)  queue: [job]  --worker-->  emit(job->lowered)
//                                           job->done = true
//                                           compiledWaiting = true
#include "compile_thread.h"

#include <pthread.h>
#include <signal.h>

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <new>
#include <thread>

#include "../bc/interp.h"
#include "../runtime/stats.h"
#include "native.h"

namespace rir {
namespace native {

namespace {

// (placement-made: a fork's child makes them anew, and none is destroyed at
// exit while the worker may wait on them)
alignas(std::mutex) unsigned char muSpace[sizeof(std::mutex)];
alignas(std::condition_variable) unsigned char workSpace[sizeof(std::condition_variable)];
alignas(std::condition_variable) unsigned char idleSpace[sizeof(std::condition_variable)];
std::mutex* mu;
std::condition_variable* work;  // a job was queued, or stop
std::condition_variable* idle;  // a job is done

std::deque<CompileJob*>* queue;
bool started = false;   // a worker runs (in this process)
bool running = false;   // it is inside a job
bool stopping = false;  // the process exits
bool paused = false;    // a fork is under way

void finish(CompileJob* job) {
    job->done.store(true);
    compiledWaiting.store(true);
}

void workerLoop() {
    std::unique_lock<std::mutex> lock(*mu);
    for (;;) {
        work->wait(lock, [] { return stopping || (!paused && !queue->empty()); });
        if (stopping) return;
        CompileJob* job = queue->front();
        queue->pop_front();
        running = true;
        lock.unlock();
        double t0 = nowSeconds();
        job->entry = emit(job->lowered, &job->why);
        job->lowered = nullptr;
        job->seconds = nowSeconds() - t0;
        lock.lock();
        running = false;
        finish(job);
        idle->notify_all();
    }
}

void beforeFork() {
    std::unique_lock<std::mutex> lock(*mu);
    paused = true;
    idle->wait(lock, [] { return !running; });
    lock.release();  // (held across the fork)
}

void afterForkParent() {
    paused = false;
    mu->unlock();
    work->notify_all();
}

// (the child has R's thread only; the worker's condition variables may
// hold its waiting state: made anew)
void afterForkChild() {
    mu = new (muSpace) std::mutex;
    work = new (workSpace) std::condition_variable;
    idle = new (idleSpace) std::condition_variable;
    paused = false;
    running = false;
    started = false;
    for (CompileJob* job : *queue) {
        job->cancelled = true;
        finish(job);
    }
    queue->clear();
}

void atExit() {
    std::unique_lock<std::mutex> lock(*mu);
    stopping = true;
    work->notify_all();
    idle->wait(lock, [] { return !running; });
}

void setUp() {
    static bool once = [] {
        mu = new (muSpace) std::mutex;
        work = new (workSpace) std::condition_variable;
        idle = new (idleSpace) std::condition_variable;
        queue = new std::deque<CompileJob*>;
        pthread_atfork(beforeFork, afterForkParent, afterForkChild);
        std::atexit(atExit);
        return true;
    }();
    (void)once;
}

// (with the lock held)
void startWorker() {
    if (started) return;
    started = true;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    std::thread(workerLoop).detach();
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

}  // namespace

void submit(CompileJob* job, bool urgent) {
    setUp();
    std::lock_guard<std::mutex> lock(*mu);
    if (urgent)
        queue->push_front(job);
    else
        queue->push_back(job);
    startWorker();
    work->notify_all();
}

void waitFor(CompileJob* job) {
    setUp();
    std::unique_lock<std::mutex> lock(*mu);
    if (stopping) {
        // (the worker has stopped: R's thread is alone with LLVM)
        for (auto it = queue->begin(); it != queue->end(); ++it)
            if (*it == job) {
                queue->erase(it);
                break;
            }
        if (!job->done.load()) {
            job->entry = emit(job->lowered, &job->why);
            job->lowered = nullptr;
            finish(job);
        }
        return;
    }
    idle->wait(lock, [job] { return job->done.load(); });
}

}  // namespace native
}  // namespace rir
