// continuation.h — the continuation compiler (tiering.cpp) as OSR-in
// (goOnNatively) and deoptless (deoptless.cpp) share it: a continuation is
// the baseline's rest from a pc, compiled for a frame's bindings and the
// kinds of their values (DispatchTable::Continuation).
#pragma once

#include <vector>

#include "../runtime/dispatch_table.h"

namespace rir {
namespace native {

// The frame's bindings, when a continuation can take them as its own (an
// unhashed frame of ordinary bindings, each with a value: no active,
// locked or missing one; in a hashed frame, the global environment's, the
// variables `code` names), with their values' kinds: true.
bool plainFrame(SEXP env, const Code* code, std::vector<SEXP>* names,
                std::vector<DispatchTable::EntryType>* types);

// Compiles the continuation `key` describes (pc, bindings, types; for a
// deoptless one its stackTypes) into t->continuations[again], or a new
// entry when again < 0; returns its index. `sync`: R's thread waits for
// the code; else the entry stays `compiling` until the compile thread is
// done. (No R call that can fail: callers may hold C++ objects.)
int compileContinuation(DispatchTable* t, const DispatchTable::Continuation& key, int again,
                        bool sync);

}  // namespace native
}  // namespace rir
