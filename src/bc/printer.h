// printer.h — disassembler for RIR code.
#pragma once

#include <string>
#include <vector>

#include "code.h"

namespace rir {

std::vector<std::string> disassemble(Code* c);

}  // namespace rir
