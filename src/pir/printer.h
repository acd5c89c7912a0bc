// printer.h — PIR as text (one line per instruction: type, name, operands,
// carried data, successors) and as a Graphviz digraph (one record per block).
#pragma once

#include <string>

#include "ir.h"

namespace rir {
namespace pir {

std::string printInsn(const Instruction* i);
std::string print(const Function& f);
std::string printDot(const Function& f);

}  // namespace pir
}  // namespace rir
