// export.h — what rir.so exports besides R_init_rir.
//
// rir.so is compiled with hidden visibility (its calls between its own
// functions are direct and may be inlined). The native tier's LLVM half,
// rirllvm.so (native/llvm_loader.cpp), is linked against rir.so and calls
// into it: what it uses is marked RIR_EXPORT, and the helpers its code
// calls (native/helpers.h) are exported as a block. `nm -D --undefined-only
// rirllvm.so` lists what it needs; a missing mark fails at its dlopen.
#pragma once

#define RIR_EXPORT __attribute__((visibility("default")))
