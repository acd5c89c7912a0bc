// switch.h — switch()'s choice of an alternative, shared by the interpreter
// (switch_table) and native code (PIR's SwitchIndex).
#pragma once

#include "../runtime/rapi.h"

namespace rir {

// switch(): the entry of its branch table that EXPR `value` selects (GNU R's
// SWITCH: the first nchar entries are the names' (the last the default),
// then nnum for numbers), with its errors and warnings naming `call`.
int switchEntry(SEXP call, SEXP names, int nchar, int nnum, SEXP value);

}  // namespace rir
