// verifier.cpp — see verifier.h. Example: for
//
//   f <- function(n) { s <- 0; for (i in 1:n) s <- s + i; s }
//
// the verifier computes (stack before each instruction, bottom first; V a
// value, S/L/C a loop's sequence, length and counter):
//
//    0  push 0           []
//    2  stvar s          [V]
//    5  push 1           []
//    7  ldvar n          [V]
//   10  for_colon        [V V]
//   13  push_null        [S L C]
//   14  stvar i          [S L C V]
//   17  for_step -> 40   [S L C]
//   22  ld2_binop +      [S L C]
//   35  stvar s          [S L C V]
//   38  br_back -> 17    [S L C]
//   40  popn 3           [S L C]
//   42  ldvar s          []
//   45  ret              [V]
//
// and checks every operand, every jump target and every merge on the way.
// The decoding goes by the instruction table's operand letters; the
// instructions whose stack effect or successors depend on their operands
// are handled by name below.
#include "verifier.h"

#include <set>
#include <sstream>

#include "insns.h"
#include "subassign.h"

namespace rir {

namespace {

struct Edge {
    int target;
    std::vector<SlotKind> slots;
};

class Verifier {
  public:
    Verifier(const Code* c, CodeShape* shape) : c_(c), shape_(shape) {}

    std::string run() {
        const size_t n = c_->bc.size();
        if (n == 0) return "empty code";
        start_.assign(n, false);
        // pass 1: instruction boundaries and operand ranges
        for (size_t pc = 0; pc < n;) {
            int32_t raw = c_->bc[pc];
            if (raw < 0 || raw >= int32_t(Op::num_ops)) return at(pc, "invalid opcode");
            const InsnInfo& in = info(Op(raw));
            if (pc + 1 + in.operands > n) return at(pc, "operands run past the end");
            start_[pc] = true;
            std::string e = checkOperands(pc, Op(raw), &c_->bc[pc + 1], in);
            if (!e.empty()) return e;
            pc += 1 + in.operands;
        }
        // pass 2: stack heights and slot kinds, by a work list from pc 0
        state_.assign(n, {});
        seen_.assign(n, false);
        std::vector<int> work;
        seen_[0] = true;
        work.push_back(0);
        while (!work.empty()) {
            int pc = work.back();
            work.pop_back();
            std::vector<Edge> out;
            std::string e = step(pc, &out);
            if (!e.empty()) return e;
            for (auto& ed : out) {
                if (ed.target < 0 || size_t(ed.target) >= n || !start_[ed.target])
                    return at(pc, "jump into the middle of an instruction or out of the code");
                if (int(ed.slots.size()) > maxHeight_) maxHeight_ = int(ed.slots.size());
                if (!seen_[ed.target]) {
                    seen_[ed.target] = true;
                    state_[ed.target] = ed.slots;
                    work.push_back(ed.target);
                } else if (state_[ed.target] != ed.slots) {
                    std::ostringstream m;
                    m << "stack at " << ed.target << " differs between paths ("
                      << show(state_[ed.target]) << " vs " << show(ed.slots) << ")";
                    return at(pc, m.str());
                }
            }
        }
        if (maxHeight_ > c_->maxStack) {
            std::ostringstream m;
            m << "stack reaches " << maxHeight_ << " slots, maxStack is " << c_->maxStack;
            return m.str();
        }
        if (shape_) {
            shape_->height.assign(n, -1);
            shape_->slots.assign(n, {});
            for (size_t pc = 0; pc < n; pc++)
                if (seen_[pc]) {
                    shape_->height[pc] = int(state_[pc].size());
                    shape_->slots[pc] = state_[pc];
                }
            shape_->maxHeight = maxHeight_;
        }
        return "";
    }

  private:
    const Code* c_;
    CodeShape* shape_;
    std::vector<bool> start_, seen_;
    std::vector<std::vector<SlotKind>> state_;
    int maxHeight_ = 0;

    static std::string show(const std::vector<SlotKind>& s) {
        static const char letters[] = {'V', 'S', 'L', 'C'};
        std::string r = "[";
        for (SlotKind k : s) r += letters[int(k)];
        return r + "]";
    }

    std::string at(size_t pc, const std::string& what) const {
        std::ostringstream m;
        m << what << " at pc " << pc;
        if (start_.size() > pc && start_[pc]) m << " (" << info(Op(c_->bc[pc])).name << ")";
        return m.str();
    }

    bool poolOk(int32_t v) const { return v >= 0 && v < c_->poolSize; }
    bool cacheOk(int32_t v) const { return v >= 0 && v < c_->nCache; }

    std::string checkOperands(size_t pc, Op op, const int32_t* ops, const InsnInfo& in) const {
        for (int i = 0; i < in.operands; i++) {
            int32_t v = ops[i];
            bool ok = true;
            switch (in.operandKinds[i]) {
                case 'p':
                case 'c':
                    ok = poolOk(v);
                    break;
                case 'q':
                    ok = v == -1 || poolOk(v);
                    break;
                case 'k':
                    ok = cacheOk(v);
                    break;
                case 'K':
                    ok = v >= 0 && v <= c_->nCache;
                    break;
                case 'l':
                    ok = v >= 0 && size_t(v) < c_->bc.size();
                    break;
                case 's':
                    ok = v >= 0 && size_t(v) < c_->calls.size();
                    break;
                case 'f':
                    ok = v >= 0 && size_t(v) < c_->feedback.size();
                    break;
                default:
                    break;
            }
            if (!ok) {
                std::ostringstream m;
                m << "operand " << i << " (" << in.operandKinds[i] << ") out of range: " << v;
                return at(pc, m.str());
            }
        }
        // operands whose meaning depends on another operand
        auto loadOk = [&](int kind, int32_t a, int32_t slot) {
            if (kind == insn::kFromStack) return true;
            if (kind == insn::kFromVariable) return poolOk(a) && cacheOk(slot);
            if (kind == insn::kFromConstant) return poolOk(a);
            return false;
        };
        bool ok = true;
        switch (op) {
            case Op::ld2_binop: {
                insn::ld2_binop o(ops);
                ok = loadOk(o.kindA, o.a, o.slotA) && loadOk(o.kindB, o.b, o.slotB);
                break;
            }
            case Op::subset_var: {
                insn::subset_var o(ops);
                ok = o.ikind != insn::kFromStack && loadOk(o.ikind, o.i, o.islot);
                break;
            }
            case Op::subset_var2: {
                insn::subset_var2 o(ops);
                ok = o.ikind != insn::kFromStack && o.jkind != insn::kFromStack &&
                     loadOk(o.ikind, o.i, o.islot) && loadOk(o.jkind, o.j, o.jslot);
                break;
            }
            case Op::ldvar_missok: {
                insn::ldvar_missok o(ops);
                ok = o.slot < 0 || cacheOk(o.slot);
                break;
            }
            case Op::popn:
                ok = insn::popn(ops).n >= 0;
                break;
            case Op::pick:
                ok = insn::pick(ops).depth >= 0;
                break;
            case Op::subset: {
                insn::subset o(ops);
                ok = o.kind >= 0 && o.nidx >= 0;
                break;
            }
            case Op::call_builtin:
                ok = insn::call_builtin(ops).nargs >= 0;
                break;
            case Op::use_method:
                ok = insn::use_method(ops).nobj >= 0;
                break;
            default:
                break;
        }
        if (!ok) return at(pc, "inconsistent operands");
        // call sites: their argument descriptions refer to the pool
        for (int i = 0; i < in.operands; i++)
            if (in.operandKinds[i] == 's') {
                const CallSite& cs = c_->calls[ops[i]];
                if (!poolOk(cs.ast) || (cs.expr != -1 && !poolOk(cs.expr)))
                    return at(pc, "call site refers outside the pool");
                for (const CallArg& a : cs.args) {
                    bool usesPool = a.kind == ArgKind::Const || a.kind == ArgKind::Code ||
                                    a.kind == ArgKind::Symbol;
                    if (usesPool && !poolOk(a.pool))
                        return at(pc, "call argument refers outside the pool");
                    if (a.kind == ArgKind::Code && !Code::unpack(c_->poolAt(a.pool)))
                        return at(pc, "promise argument is not rir code");
                }
            }
        return "";
    }

    // The successors of the instruction at pc, with the stack each gets.
    std::string step(int pc, std::vector<Edge>* out) {
        Op op = Op(c_->bc[pc]);
        const InsnInfo& in = info(op);
        const int32_t* ops = &c_->bc[pc + 1];
        const int next = pc + 1 + in.operands;
        std::vector<SlotKind> s = state_[pc];
        const int h = int(s.size());

        auto popValues = [&](int k) -> bool {
            if (k > int(s.size())) return false;
            for (int i = 0; i < k; i++) {
                if (s.back() != SlotKind::Value) return false;
                s.pop_back();
            }
            return true;
        };
        auto pushValues = [&](int k) {
            for (int i = 0; i < k; i++) s.push_back(SlotKind::Value);
        };
        auto fall = [&](std::vector<SlotKind> st) { out->push_back({next, std::move(st)}); };
        auto jump = [&](int target, std::vector<SlotKind> st) {
            out->push_back({target, std::move(st)});
        };
        auto underflow = [&]() {
            return at(pc, "stack underflow or a loop state used as a value");
        };
        auto loopOnTop = [&]() {
            return h >= 3 && s[h - 3] == SlotKind::LoopSeq && s[h - 2] == SlotKind::LoopLen &&
                   s[h - 1] == SlotKind::LoopCtr;
        };

        switch (op) {
            case Op::ret:
                if (!popValues(1)) return underflow();
                return "";  // the frame is dropped whatever is below
            case Op::pop:
                if (h < 1) return underflow();
                s.pop_back();
                fall(s);
                return "";
            case Op::popn: {
                int n = insn::popn(ops).n;
                if (h < n) return underflow();
                s.resize(h - n);
                fall(s);
                return "";
            }
            case Op::br:
                jump(insn::br(ops).target, s);
                return "";
            case Op::br_back:
                jump(insn::br_back(ops).target, s);
                return "";
            case Op::brfalse: {
                insn::brfalse o(ops);
                if (!popValues(1)) return underflow();
                if (o.call < 0) {
                    // the object test: x stays unless the jump is taken
                    jump(o.target, s);
                    pushValues(1);
                    fall(s);
                } else {
                    jump(o.target, s);
                    fall(s);
                }
                return "";
            }
            case Op::br_obj:
                if (h < 1 || s.back() != SlotKind::Value) return underflow();
                jump(insn::br_obj(ops).target, s);
                fall(s);
                return "";
            case Op::for_init:
            case Op::for_colon:
                if (!popValues(op == Op::for_init ? 1 : 2)) return underflow();
                s.push_back(SlotKind::LoopSeq);
                s.push_back(SlotKind::LoopLen);
                s.push_back(SlotKind::LoopCtr);
                fall(s);
                return "";
            case Op::for_step:
                if (!loopOnTop()) return at(pc, "for_step without a loop state on top");
                jump(insn::for_step(ops).target, s);
                fall(s);
                return "";
            case Op::subset_var:
            case Op::subset_var2:
            case Op::guard_fun: {
                // fall through with nothing pushed, or push the value and jump
                fall(s);
                pushValues(1);
                jump(op == Op::guard_fun    ? insn::guard_fun(ops).target
                     : op == Op::subset_var ? insn::subset_var(ops).target
                                            : insn::subset_var2(ops).target,
                     s);
                return "";
            }
            case Op::lgl_first:
                if (h < 1 || s.back() != SlotKind::Value) return underflow();
                fall(s);
                jump(insn::lgl_first(ops).end, s);
                jump(insn::lgl_first(ops).slow, s);
                return "";
            case Op::dollar_assign:
                if (h < 1 || s.back() != SlotKind::Value) return underflow();
                jump(insn::dollar_assign(ops).fail, s);  // v stays for the general assignment
                s.pop_back();
                fall(s);
                return "";
            case Op::loop_body:
                if (!Code::unpack(c_->poolAt(insn::loop_body(ops).body)))
                    return at(pc, "loop body is not rir code");
                jump(insn::loop_body(ops).target, s);
                fall(s);
                return "";
            case Op::switch_table: {
                if (!popValues(1)) return underflow();
                insn::switch_table o(ops);
                int entries = o.nchar + o.nnum;
                if (o.nchar < 0 || o.nnum < 1) return at(pc, "switch table without entries");
                for (int k = 0; k < entries; k++) {
                    int e = next + insn::kSwitchEntry * k;
                    if (size_t(e) >= c_->bc.size() || !start_[e] || Op(c_->bc[e]) != Op::br)
                        return at(pc, "switch table entry is not a br");
                    jump(e, s);
                }
                return "";
            }
            case Op::count_arg:
                if (h < 1 || s.back() != SlotKind::Value) return underflow();
                fall(s);
                return "";
            case Op::pick:
                if (insn::pick(ops).depth >= h ||
                    s[h - 1 - insn::pick(ops).depth] != SlotKind::Value)
                    return underflow();
                pushValues(1);
                fall(s);
                return "";
            case Op::setter_call: {
                int below = insn::setter_call(ops).below & ~kSetterSuper;
                if (below < 0 || below > h) return at(pc, "setter_call refers below the stack");
                break;  // the table's stack effect
            }
            default:
                break;
        }
        int pops = popCount(op, ops);
        if (!popValues(pops)) return underflow();
        pushValues(in.pushes);
        fall(s);
        return "";
    }
};

}  // namespace

std::string verifyCode(const Code* c, CodeShape* shape) {
    Verifier v(c, shape);
    return v.run();
}

std::string verifyAll(const Code* c) {
    std::set<const Code*> done;
    std::vector<const Code*> work{c};
    while (!work.empty()) {
        const Code* k = work.back();
        work.pop_back();
        if (!done.insert(k).second) continue;
        std::string e = verifyCode(k, nullptr);
        if (!e.empty()) {
            const char* what = k->kind == CodeKind::Function  ? "function"
                               : k->kind == CodeKind::Promise ? "promise"
                                                              : "top-level";
            return std::string(k == c ? "" : "nested ") + what + " code: " + e;
        }
        for (int i = 0; i < k->poolSize; i++) {
            const Code* child = Code::unpack(k->poolAt(i));
            if (child) work.push_back(child);
        }
    }
    return "";
}

}  // namespace rir
