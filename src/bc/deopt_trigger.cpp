// deopt_trigger.cpp — a failed speculation's observation recorded in the
// baseline's feedback (see deopt_trigger.h).
//
//   s <- s + x[[i]]    x[[i]] speculated an integer scalar (x was an
//                      integer vector so far), and x[[i]] is now 2.5:
//     the frame state resumes after the subset: [..., s, 2.5]
//     the instruction before pc is the subset: its feedback adds "real",
//     the next translation speculates on no type there: "result"
#include "deopt_trigger.h"

#include "arith_op.h"
#include "calls.h"

namespace rir {

namespace {

// A variable's value when reading it runs no R code: bound in env's own
// frame (or the base environment, whose cells are symbols) to a value or
// an evaluated promise; else nullptr.
SEXP peekValue(SEXP env, SEXP sym) {
    SEXP cell = R_findVarLocInFrame(env, sym).cell;
    if (!cell || cell == R_NilValue) return nullptr;
    if (TYPEOF(cell) != SYMSXP) return peekCellValue(cell);
    SEXP v = SYMVALUE(cell);
    if (TYPEOF(v) == PROMSXP) v = PRVALUE(v);
    return v == R_UnboundValue || v == R_MissingArg ? nullptr : v;
}

// The pc of the instruction that ends at pc (-1: none, pc is the start).
int previousPc(const Code* code, int pc) {
    int prev = -1;
    for (int p = 0; p < pc;) {
        prev = p;
        Op op = Op(code->bc[size_t(p)]);
        p += 1 + info(op).operands;
    }
    return prev;
}

// Whether integer scalars a op b overflow R's integers (+, -, *).
bool overflows(int32_t op, SEXP a, SEXP b) {
    if (!simpleScalar(a, INTSXP) || !simpleScalar(b, INTSXP)) return false;
    int x = INTEGER(a)[0], y = INTEGER(b)[0], r;
    if (x == NA_INTEGER || y == NA_INTEGER) return false;
    bool over;
    switch (ArithOp(op)) {
        case ArithOp::Add:
            over = __builtin_add_overflow(x, y, &r);
            break;
        case ArithOp::Sub:
            over = __builtin_sub_overflow(x, y, &r);
            break;
        case ArithOp::Mul:
            over = __builtin_mul_overflow(x, y, &r);
            break;
        default:
            return false;
    }
    return over || r == NA_INTEGER;
}

// A binop's operands seen (nullptr: not known), recorded as the
// interpreter records them, and an integer overflow they make; `result`,
// its value when known. Integers meeting doubles widen both operands'
// feedback to doubles: a value computed from both (an accumulator, `s <- s
// + x` with x now a double) is the next round's operand, and the
// continuation should not speculate that it is still an integer.
const char* binopTrigger(Feedback& f, int32_t op, SEXP a, SEXP b, SEXP result = nullptr) {
    uint32_t before = f.types;
    if (a) recordType(f, a);
    if (b) recordType(f, b, kRhsShift);
    if (a && b && overflows(op, a, b)) {
        f.types |= kArithOverflowed;
        return "overflow";
    }
    const uint32_t ints = TB_INT | TB_LGL;
    uint32_t seen = (f.types | f.types >> kRhsShift) & 0x7f;
    if ((seen & ints && seen & TB_REAL) || (result && TYPEOF(result) == REALSXP))
        f.types |= TB_REAL | TB_REAL << kRhsShift;
    return f.types != before ? "type" : "other";
}

// A binop's operands that are variables or constants (ld2_binop: stack
// operands are `a`, `b` as given).
void ld2Operands(const Code* code, SEXP env, const insn::ld2_binop& o, SEXP* a, SEXP* b) {
    auto operand = [&](int kind, int k, SEXP fromStack) -> SEXP {
        if (kind == insn::kFromStack) return fromStack;
        if (kind == insn::kFromConstant) return code->poolAt(k);
        return peekValue(env, code->poolAt(k));
    };
    *a = operand(o.kindA, o.a, *a);
    *b = operand(o.kindB, o.b, *b);
}

// An operand's type recorded: "type" when the feedback had not seen it.
const char* typeTrigger(Feedback& f, SEXP x) {
    uint32_t before = f.types;
    if (x) recordType(f, x);
    return f.types != before ? "type" : "other";
}

// What the binops reading local variables would see now: each
// ld2_binop operand that is a variable bound in env's frame has its value's
// type recorded (a type change at the trigger usually reaches more than one
// speculation: `x1 - x2` and `y1 - y2` both fail once the arguments are
// vectors).
void recordLocalOperands(Code* code, SEXP env) {
    for (size_t pc = 0; pc < code->bc.size();) {
        Op op = Op(code->bc[pc]);
        if (op == Op::ld2_binop) {
            const insn::ld2_binop o(&code->bc[pc + 1]);
            Feedback& f = code->feedback[size_t(o.fb)];
            if (o.kindA == insn::kFromVariable)
                if (SEXP a = peekValue(env, code->poolAt(o.a))) recordType(f, a);
            if (o.kindB == insn::kFromVariable)
                if (SEXP b = peekValue(env, code->poolAt(o.b))) recordType(f, b, kRhsShift);
        }
        pc += size_t(1 + info(op).operands);
    }
}

// The trigger at pc (see recordDeoptTrigger).
const char* recordAt(Code* code, int pc, SEXP env, const SEXP* stack, int n) {
    if (pc < 0 || size_t(pc) >= code->bc.size()) return "other";
    const int32_t* imm = &code->bc[size_t(pc) + 1];
    auto top = [&](int k) -> SEXP {  // k = 0: the top
        SEXP v = k < n ? stack[n - 1 - k] : nullptr;
        return v && TYPEOF(v) != PROMSXP && v != R_MissingArg ? v : nullptr;
    };
    switch (Op(code->bc[size_t(pc)])) {
        case Op::binop: {
            const insn::binop o(imm);
            return binopTrigger(code->feedback[size_t(o.fb)], o.op, top(1), top(0));
        }
        case Op::ld2_binop: {
            const insn::ld2_binop o(imm);
            // (operands from the stack lie in order: a below b)
            int fromStack = (o.kindA == insn::kFromStack) + (o.kindB == insn::kFromStack);
            SEXP a = o.kindA == insn::kFromStack ? top(fromStack - 1) : nullptr;
            SEXP b = o.kindB == insn::kFromStack ? top(0) : nullptr;
            ld2Operands(code, env, o, &a, &b);
            return binopTrigger(code->feedback[size_t(o.fb)], o.op, a, b);
        }
        case Op::unop: {
            const insn::unop o(imm);
            return typeTrigger(code->feedback[size_t(o.fb)], top(0));
        }
        case Op::brfalse: {
            const insn::brfalse o(imm);
            SEXP x = top(0);
            if (o.call >= 0 || !x) return "other";
            // the object test of subsetting: taken for an object
            Feedback& f = code->feedback[size_t(o.fb)];
            f.hit();
            if (OBJECT(x)) f.taken++;
            return "branch";
        }
        case Op::subset: {
            const insn::subset o(imm);
            return typeTrigger(code->feedback[size_t(o.fb)], top(o.nidx));
        }
        case Op::dollar: {
            const insn::dollar o(imm);
            Feedback& f = code->feedback[size_t(o.fb)];
            if (SEXP x = top(0)) recordType(f, x);
            f.types |= kDollarNotPlain;
            return "member";
        }
        case Op::dollar_assign: {
            const insn::dollar_assign o(imm);
            code->feedback[size_t(o.fb)].types |= kDollarNotPlain;
            return "member";
        }
        case Op::ldfun: {
            // the function of an inlined call: the call after it records
            // what the lookup finds now
            const insn::ldfun o(imm);
            size_t next = size_t(pc) + 1 + insn::ldfun::kOperands;
            if (next >= code->bc.size() || Op(code->bc[next]) != Op::call) return "other";
            const insn::call c(&code->bc[next + 1]);
            Feedback& f = code->feedback[size_t(c.fb)];
            SEXP fun = functionWithoutR(code->poolAt(o.sym), env);
            if (fun) {
                recordCallee(code, c.fb, f, fun);
            } else {
                f.ncallees = kMaxCallees + 1;  // (as when the callees were too many)
            }
            return "callee";
        }
        case Op::call: {
            const insn::call o(imm);
            if (SEXP fun = top(0)) recordCallee(code, o.fb, code->feedback[size_t(o.fb)], fun);
            return "callee";
        }
        case Op::guard_fun:
            return "guard";
        case Op::for_init:
        case Op::for_colon:
            return "loop";
        default:
            break;
    }
    // a result speculated on: the frame state resumes after the instruction
    int prev = previousPc(code, pc);
    Op prevOp = prev >= 0 ? Op(code->bc[size_t(prev)]) : Op::num_ops;
    if (prevOp == Op::binop || prevOp == Op::ld2_binop) {
        // a binop whose operands failed their test computed its value
        // generically: the frame state resumes after it, with its value
        // (the operands that were variables are still bound)
        SEXP a = nullptr, b = nullptr;
        int32_t op, fb;
        if (prevOp == Op::ld2_binop) {
            const insn::ld2_binop o(&code->bc[size_t(prev) + 1]);
            ld2Operands(code, env, o, &a, &b);
            op = o.op;
            fb = o.fb;
        } else {
            const insn::binop o(&code->bc[size_t(prev) + 1]);
            op = o.op;
            fb = o.fb;
        }
        return binopTrigger(code->feedback[size_t(fb)], op, a, b, top(0));
    }
    if (prevOp == Op::subset) {
        const insn::subset o(&code->bc[size_t(prev) + 1]);
        SEXP r = top(0);
        if (!r) return "other";
        // an attribute-free scalar of another type than speculated (its
        // type added: the speculation needs one type), else not a scalar
        Feedback& f = code->feedback[size_t(o.fb)];
        if (simpleScalar(r, REALSXP) || simpleScalar(r, INTSXP) || simpleScalar(r, LGLSXP))
            f.types |= kTypeBits[TYPEOF(r)];
        else
            f.types |= kSubsetNotScalar;
        return "result";
    }
    return "other";
}

}  // namespace

const char* recordDeoptTrigger(Code* code, int pc, SEXP env, const SEXP* stack, int n) {
    const char* reason = recordAt(code, pc, env, stack, n);
    recordLocalOperands(code, env);
    return reason;
}

}  // namespace rir
