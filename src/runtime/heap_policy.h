// heap_policy.h — how the C heap returns memory to the system while rir runs.
//
// GNU R allocates every vector larger than a few hundred bytes with malloc()
// and frees it when a collection finds it dead. glibc's malloc serves
// requests below its mmap threshold from the brk heap and gives the heap's
// top back to the kernel (trims it) whenever more than its trim threshold is
// free there; both thresholds start at 128 kB and grow with the largest
// mmap'ed block freed so far (at most 32 MB and 64 MB). A program that
// allocates and drops matrices of a few MB in a loop then runs in a state
// that depends on the history of the heap: each collection frees tens of MB
// at the top, the top is trimmed, and the next allocations fault every page
// in again (about 12 us per 4 kB page on this kind of virtual machine).
// rir changes which small objects are allocated between the large ones, so
// the same program may trim at every collection under rir and never under
// GNU R (micro/matrix_slices: 42,700 page faults per iteration against 0;
// 7x slower).
//
// tuneHeap() fixes the two thresholds where glibc's own adaptation ends up
// in a long session: blocks from 32 MB up are mmap'ed, and the top is
// trimmed when more than 128 MB there are free. It is done once per process
// when rir is enabled (glibc cannot go back to adapting them), and not at
// all when the user set glibc's malloc parameters through the environment
// or turned it off (RIR_HEAP_TUNING=0, options(rir.heap_tuning = FALSE)).
#pragma once

namespace rir {

// Returns true if the thresholds are (now or already) rir's; false if they
// were left alone (not glibc, or the user's environment sets them).
bool tuneHeap();

}  // namespace rir
