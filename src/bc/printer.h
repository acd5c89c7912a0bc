// printer.h — disassembler for RIR code.
#pragma once

#include "code.h"

#include <string>
#include <vector>

namespace rir {

std::vector<std::string> disassemble(Code* c);

}  // namespace rir
