// inplace.cpp — the node stack's base for inplace.h's scans.
#include "inplace.h"

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
}

}  // namespace rir
