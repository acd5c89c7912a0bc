// inplace.cpp — the node stack's base for inplace.h's scans.
#include "inplace.h"

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_DEFINED(addr, len) ((void)0)
#endif

namespace rir {

NodeStackSlot* nodeStackFloor = nullptr;

// GNU R's outermost (top-level) context records the node stack as it was
// when R started: empty, so its `nodestack` is the stack's base.
void initNodeStackFloor() {
    RContext* c = R_GlobalContext;
    while (c->nextcontext) c = c->nextcontext;
    NodeStackSlot* base = c->nodestack;
    if (!base || base > R_BCNodeStackTop || base >= R_BCNodeStackEnd) base = R_BCNodeStackTop;
    nodeStackFloor = base;
    // GNU R's pushes set a slot's tag and value but not its `flags`, which
    // start as whatever the allocation held: the slots not in use yet get a
    // defined 0, so that heldBySlot's test of the argument-list marker never
    // reads an undefined value (valgrind) in slots GNU R pushed later.
    for (NodeStackSlot* p = R_BCNodeStackTop; p < R_BCNodeStackEnd; p++) p->flags = 0;
    // The slots in use now belong to GNU R frames running (library() and
    // friends): their flags are not changed (a pending assignment of GNU R's
    // byte code may have set one), whatever they hold is acceptable to
    // heldBySlot (a false match only costs a copy), so valgrind is told they
    // are defined (a no-op outside valgrind).
    for (NodeStackSlot* p = nodeStackFloor; p < R_BCNodeStackTop; p++)
        VALGRIND_MAKE_MEM_DEFINED(&p->flags, sizeof(p->flags));
}

}  // namespace rir
