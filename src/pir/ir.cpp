// ir.cpp — the instruction table's data, blocks and functions (see ir.h).
#include "ir.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "../runtime/rapi.h"

namespace rir {
namespace pir {

namespace {

#define PIR_INFO(name, ops, result, arith, succ, reads, writes, flags, doc)                     \
    {#name,           ops, Rule::result, ArithOp::arith, succ, uint8_t(reads), uint8_t(writes), \
     uint16_t(flags), doc, Opcode::name},
constexpr InsnInfo kGeneral[] = {PIR_INSNS(PIR_INFO)};

constexpr InsnInfo variant(const char* name, Opcode general, uint8_t reads, uint8_t writes,
                           uint16_t flags, const char* doc) {
    InsnInfo i = kGeneral[size_t(general)];
    i.name = name;
    i.reads = reads;
    i.writes = writes;
    i.flags = flags;
    i.description = doc;
    return i;
}

const InsnInfo kInfo[] = {PIR_INSNS(PIR_INFO)
#define PIR_VARIANT_INFO(name, general, reads, writes, flags, doc) \
    variant(#name, Opcode::general, uint8_t(reads), uint8_t(writes), uint16_t(flags), doc),
                              PIR_VARIANTS(PIR_VARIANT_INFO)
#undef PIR_VARIANT_INFO
};
#undef PIR_INFO

static_assert(sizeof(kInfo) / sizeof(kInfo[0]) == size_t(Opcode::kCount),
              "one table row per opcode");

}  // namespace

bool opcodeOf(ArithOp k, Opcode* out) {
    for (size_t o = 0; o < size_t(Opcode::kCount); o++)
        if (kInfo[o].arith == k && k != ArithOp::None) {
            *out = Opcode(o);
            return true;
        }
    return false;
}

bool scalarOperatorMayWarn(Opcode op, const PirType& a, const PirType& b) {
    switch (op) {
        case Opcode::Add:
        case Opcode::Sub:
        case Opcode::Mul:
            // integers and logicals overflow; a double operand makes it
            // double arithmetic
            return !(a.isA(Kind::Real) || b.isA(Kind::Real));
        case Opcode::Mod:
        case Opcode::IDiv:
            return a.mayBe(Kind::Real) || b.mayBe(Kind::Real);
        default:
            return false;
    }
}

namespace {

// The position of the environment operand (the first 'e'), or -1.
int envOperand(const InsnInfo& i, size_t nargs) {
    for (int k = 0; i.operands[k]; k++) {
        if (i.operands[k] == 'e') return size_t(k) < nargs ? k : -1;
        if (i.operands[k] == '*') break;
    }
    return -1;
}

bool lazy(PirType t) {
    return t.may(Flag::Lazy) || t.mayBe(Kind::Prom);
}

bool object(PirType t) {
    return t.may(Flag::Object) || lazy(t);
}

}  // namespace

PirType constantType(SEXP x) {
    if (!x) return PirType::any();
    if (x == R_MissingArg) return PirType(0, uint8_t(Flag::Missing));
    Kind k;
    switch (TYPEOF(x)) {
        case NILSXP:
            return PirType::nil();
        case LGLSXP:
            k = Kind::Lgl;
            break;
        case INTSXP:
            k = Kind::Int;
            break;
        case REALSXP:
            k = Kind::Real;
            break;
        case CPLXSXP:
            k = Kind::Cplx;
            break;
        case STRSXP:
            k = Kind::Str;
            break;
        case VECSXP:
            k = Kind::List;
            break;
        case CLOSXP:
            k = Kind::Closure;
            break;
        case BUILTINSXP:
        case SPECIALSXP:
            k = Kind::Builtin;
            break;
        case ENVSXP:
            k = Kind::Env;
            break;
        case SYMSXP:
            k = Kind::Sym;
            break;
        case LANGSXP:
            k = Kind::Lang;
            break;
        case PROMSXP:
            k = Kind::Prom;
            break;
        case DOTSXP:
            k = Kind::Dots;
            break;
        default:
            k = Kind::Other;
            break;
    }
    uint8_t flags = 0;
    if (!Rf_isVector(x) || ALTREP(x) || XLENGTH(x) != 1) flags |= uint8_t(Flag::NotScalar);
    if (ATTRIB(x) != R_NilValue) flags |= uint8_t(Flag::Attrib);
    if (OBJECT(x)) flags |= uint8_t(Flag::Object);
    // NA in any element: only scalars are checked, vectors may hold one
    if (flags & uint8_t(Flag::NotScalar)) {
        flags |= uint8_t(Flag::NA);
    } else {
        switch (TYPEOF(x)) {
            case LGLSXP:
                if (LOGICAL(x)[0] == NA_LOGICAL) flags |= uint8_t(Flag::NA);
                break;
            case INTSXP:
                if (INTEGER(x)[0] == NA_INTEGER) flags |= uint8_t(Flag::NA);
                break;
            case REALSXP:
                if (std::isnan(REAL(x)[0])) flags |= uint8_t(Flag::NA);
                break;
            case STRSXP:
                if (STRING_ELT(x, 0) == NA_STRING) flags |= uint8_t(Flag::NA);
                break;
            case CPLXSXP:
                if (std::isnan(COMPLEX(x)[0].r) || std::isnan(COMPLEX(x)[0].i))
                    flags |= uint8_t(Flag::NA);
                break;
            default:
                break;
        }
    }
    return PirType(uint16_t(k), flags);
}

const InsnInfo& info(Opcode op) {
    return kInfo[size_t(op)];
}

IndexName indexNameOf(Opcode op) {
    switch (generalOf(op)) {
#define PIR_INDEX_NAME(o, n) \
    case Opcode::o:          \
        return IndexName::n;
        PIR_INDEX_NAMES(PIR_INDEX_NAME)
#undef PIR_INDEX_NAME
        default:
            return IndexName::None;
    }
}

// The table's heaps with `Env` resolved from the environment operand: the
// function's own (a MkEnv of this function) or another one.
uint8_t Instruction::resolveEnv(uint8_t heaps) const {
    if (!(heaps & Env)) return heaps;
    int e = envOperand(info(), args.size());
    bool own =
        e >= 0 && args[e]->op == Opcode::MkEnv && args[e]->bb && bb && args[e]->bb->fn == bb->fn;
    return uint8_t((heaps & ~Env) | (own ? OwnEnv : OtherEnv));
}

uint8_t Instruction::reads() const {
    uint8_t r = resolveEnv(info().reads);
    if (mayCallR()) r |= AllHeaps;
    return r;
}

uint8_t Instruction::writes() const {
    return writes(nullptr, nullptr);
}

uint8_t Instruction::writes(OperandType typeOf, void* analysis) const {
    // (no R code: at most warnings, and the builtin's own effects on
    // vectors, attributes and global state)
    if (op == Opcode::CallBuiltin && !mayCallR(typeOf, analysis))
        return Global | Vectors | Attributes;
    uint8_t w = resolveEnv(info().writes);
    if (mayCallR(typeOf, analysis)) w |= AllHeaps;
    return w;
}

namespace {
bool neverDispatches(SEXP f);
}  // namespace

bool Instruction::mayCallR() const {
    return mayCallR(nullptr, nullptr);
}

bool Instruction::mayCallR(OperandType typeOf, void* analysis) const {
    auto type = [&](const Instruction* a) { return typeOf ? typeOf(a, analysis) : a->type; };
    auto any = [&](bool (*pred)(PirType)) {
        for (Instruction* a : args)
            if (pred(type(a))) return true;
        return false;
    };
    if (op == Opcode::CallBuiltin && scalarMath(typeOf, analysis)) return mayWarn(typeOf, analysis);
    if (op == Opcode::CallBuiltin) {
        // a builtin runs R code only by dispatching on an object argument,
        // in foreign code (.Call, ...) or as S4's standardGeneric
        SEXP f = constant;
        if (!f || TYPEOF(f) != BUILTINSXP || primRow(f).ppkind == PP_FOREIGN ||
            isStandardGeneric(f))
            return true;
        if (!neverDispatches(f))
            for (size_t k = 1; k < args.size(); k++)
                if (object(type(args[k]))) return true;
        return mayWarn(typeOf, analysis);
    }
    if (has(CallsR)) return true;
    if (has(Forces) && any(lazy)) return true;
    if (has(Dispatches)) {
        // subsetting, `$`, length() and as.logical() dispatch on their
        // first operand only (an object index is GNU R's default code's)
        bool firstOnly = op == Opcode::Extract1_1D || op == Opcode::Extract2_1D ||
                         op == Opcode::Extract1_2D || op == Opcode::Extract2_2D ||
                         op == Opcode::Dollar || op == Opcode::Length || op == Opcode::AsLogical;
        if (firstOnly ? object(type(args[0])) : any(object)) return true;
        // `[[` and `$` on an environment read its bindings: an active one
        // runs its function
        if ((op == Opcode::Extract2_1D || op == Opcode::Extract2_ND || op == Opcode::Dollar) &&
            type(args[0]).mayBe(Kind::Env))
            return true;
    }
    return mayWarn(typeOf, analysis);
}

bool Instruction::scalarMath(OperandType typeOf, void* analysis) const {
    static const char* const math[] = {"sqrt", "exp", "abs", "floor", "ceiling", "sign"};
    if (op != Opcode::CallBuiltin || args.size() != 2 || !names.empty() || !constant ||
        TYPEOF(constant) != BUILTINSXP)
        return false;
    PirType t = typeOf ? typeOf(args[1], analysis) : args[1]->type;
    if (!t.isUnboxable()) return false;
    const char* name = primRow(constant).name;
    for (const char* m : math)
        if (!std::strcmp(name, m)) return true;
    return false;
}

bool nonNegative(const Instruction* v, int depth) {
    if (depth > 8) return false;
    auto arg = [&](size_t k) { return nonNegative(v->args[k], depth + 1); };
    auto stripped = [](const Instruction* x) {
        while (x->op == Opcode::CastType) x = x->args[0];
        return x;
    };
    switch (v->op) {
        case Opcode::CastType:
            return arg(0);
        case Opcode::LdConst: {
            SEXP c = v->constant;
            if (!c || XLENGTH(c) != 1) return false;
            if (TYPEOF(c) == REALSXP) return !(REAL(c)[0] < 0);
            if (TYPEOF(c) == INTSXP || TYPEOF(c) == LGLSXP)
                return INTEGER(c)[0] >= 0 || INTEGER(c)[0] == NA_INTEGER;
            return false;
        }
        case Opcode::Mul:
            return stripped(v->args[0]) == stripped(v->args[1]) || (arg(0) && arg(1));
        case Opcode::Add:
        case Opcode::Div:
            return arg(0) && arg(1);
        case Opcode::Phi:
            for (size_t k = 0; k < v->args.size(); k++)
                if (!arg(k)) return false;
            return true;
        case Opcode::CallBuiltin: {
            if (!v->scalarMath()) return false;
            const char* name = primRow(v->constant).name;
            return !std::strcmp(name, "sqrt") || !std::strcmp(name, "abs") ||
                   !std::strcmp(name, "exp");
        }
        default:
            return false;
    }
}

namespace {

// Builtins that give no warning whatever their arguments (errors aside).
bool quietBuiltin(SEXP f) {
    static const char* const quiet[] = {
        "length",    "c",          "list",         "invisible",      "is.null",
        "is.na",     "is.numeric", "is.character", "is.logical",     "is.integer",
        "is.double", "is.list",    "is.function",  "is.environment", "is.object",
        "is.symbol", "is.complex", "missing",      "nargs",          "interactive",
        "abs",       "floor",      "ceiling",      "sign",           "round",
    };
    const char* name = primRow(f).name;
    for (const char* q : quiet)
        if (!std::strcmp(name, q)) return true;
    return false;
}

// Builtins that never dispatch on an object argument (GNU R's do_is
// dispatches for is.numeric, is.matrix and is.array only; these others
// look at the type alone), and give no warning.
bool neverDispatches(SEXP f) {
    static const char* const plain[] = {
        "is.null",     "is.character",   "is.logical", "is.integer", "is.double",  "is.list",
        "is.function", "is.environment", "is.object",  "is.symbol",  "is.complex", "invisible",
    };
    const char* name = primRow(f).name;
    for (const char* q : plain)
        if (!std::strcmp(name, q)) return true;
    return false;
}

}  // namespace

const KindTest* kindTestOf(SEXP f) {
    auto k = [](Kind x) { return uint16_t(x); };
    static const KindTest tests[] = {
        {"is.null", k(Kind::Nil), 0, {NILSXP, -1, -1}, false},
        {"is.logical", k(Kind::Lgl), 0, {LGLSXP, -1, -1}, false},
        {"is.integer", k(Kind::Int), 0, {INTSXP, -1, -1}, true},
        {"is.double", k(Kind::Real), 0, {REALSXP, -1, -1}, false},
        {"is.complex", k(Kind::Cplx), 0, {CPLXSXP, -1, -1}, false},
        {"is.character", k(Kind::Str), 0, {STRSXP, -1, -1}, false},
        {"is.list", k(Kind::List), k(Kind::Other), {VECSXP, LISTSXP, -1}, false},
        {"is.function",
         uint16_t(k(Kind::Closure) | k(Kind::Builtin)),
         0,
         {CLOSXP, BUILTINSXP, SPECIALSXP},
         false},
    };
    if (!f || TYPEOF(f) != BUILTINSXP) return nullptr;
    const char* name = primRow(f).name;
    for (const KindTest& t : tests)
        if (!std::strcmp(name, t.name)) return &t;
    return nullptr;
}

bool kindTestHolds(const KindTest& k, SEXP x) {
    bool typed = false;
    for (int t : k.types) typed = typed || (t >= 0 && TYPEOF(x) == t);
    // (Rf_inherits reads the class attribute: no R code)
    return typed && !(k.notFactor && OBJECT(x) && Rf_inherits(x, "factor"));
}

bool Instruction::mayWarn(OperandType typeOf, void* analysis) const {
    auto type = [&](const Instruction* a) { return typeOf ? typeOf(a, analysis) : a->type; };
    // (a vector operand: lengths that are not multiples of each other, and
    // the like, warn)
    auto scalars = [&](size_t from, size_t to) {
        for (size_t k = from; k < to && k < args.size(); k++)
            if (!type(args[k]).isUnboxable()) return false;
        return true;
    };
    if (isBinaryOperator(op)) {
        if (!scalars(0, 2)) return true;
        // (+ - * proved not to overflow: NoOverflow, a loop's counter)
        if (noOverflow || loopCounter) return false;
        return scalarOperatorMayWarn(op, type(args[0]), type(args[1]));
    }
    switch (op) {
        case Opcode::Colon:  // (a vector's first element used; "zz":3 coerced)
            return !scalars(0, 2);
        case Opcode::LglCombine:  // (GNU R 4.2: a longer operand's first element used)
            return !scalars(1, 2);
        case Opcode::Subassign1_1D:
        case Opcode::Subassign2_1D:
            return !scalars(2, 3);  // (items to replace not a multiple of the value's)
        case Opcode::Subassign1_2D:
        case Opcode::Subassign2_2D:
            return !scalars(3, 4);
        case Opcode::SubassignVarLocal:  // (the value's length)
            return !scalars(1, 2);
        case Opcode::SubassignVar:
        case Opcode::Dollar:        // (options(warnPartialMatchDollar = TRUE))
        case Opcode::DollarAssign:  // (a vector x is coerced to a list)
        case Opcode::SwitchIndex:   // (a factor EXPR; no alternatives)
            return true;
        case Opcode::CallBuiltin:
            // (sqrt: NaNs produced from a negative number)
            if (scalarMath(typeOf, analysis))
                return !std::strcmp(primRow(constant).name, "sqrt") && !nonNegative(args[1]);
            return !constant || TYPEOF(constant) != BUILTINSXP || !quietBuiltin(constant);
        default:
            return false;
    }
}

PirType Instruction::ruleType() const {
    auto arg = [&](size_t k) { return k < args.size() ? args[k]->type : PirType::any(); };
    switch (info().result) {
        case Rule::Void:
            return PirType::bottom();
        case Rule::Any:
            return PirType::any();
        case Rule::Value:
            return PirType::val();
        case Rule::Env:
            return PirType::env();
        case Rule::Prom:
            return PirType::promise();
        case Rule::Closure:
            return PirType::closure();
        case Rule::Function:
            return PirType(uint16_t(Kind::Closure) | uint16_t(Kind::Builtin),
                           uint8_t(Flag::Attrib));
        case Rule::Test:
        case Rule::Bool:
            return PirType::simpleScalar(Kind::Lgl);
        case Rule::Lgl:
            return PirType::scalar(Kind::Lgl);
        case Rule::Int:
            return PirType::simpleScalar(Kind::Int);
        case Rule::Forced:
            return arg(0).forced();
        case Rule::ForcedOrMissing:
            return arg(0).forced() | PirType(0, uint8_t(Flag::Missing));
        case Rule::Arith: {
            PirType t = PirType::arith(arg(0), arg(1), false);
            // a for loop's counter: it stays below the sequence's length,
            // never NA
            if (loopCounter && !t.isBottom() && !arg(0).may(Flag::NA) && !arg(1).may(Flag::NA))
                t = t.without(Flag::NA);
            return t;
        }
        case Rule::Division:
            return PirType::arith(arg(0), arg(1), true);
        case Rule::Compare:
            return PirType::compare(arg(0), arg(1));
        case Rule::Logic: {
            // logical like a comparison, for logical, integer, double and
            // complex operands (raw ones give raw, others are errors)
            constexpr uint16_t logicKinds =
                uint16_t(Kind::Lgl) | uint16_t(Kind::Int) | uint16_t(Kind::Real);
            PirType a = arg(0).forced(), b = arg(1).forced();
            if (a.isBottom() || b.isBottom()) return PirType::val();
            if ((a.kinds() & ~logicKinds) || (b.kinds() & ~logicKinds)) return PirType::val();
            return PirType::compare(a, b);
        }
        case Rule::Not: {
            PirType t = arg(0).forced();
            if (t.isBottom()) return t;
            // (!x keeps the length and names of x; objects dispatch)
            if (t.isSimpleScalar() &&
                t.isSubtypeOf(PirType::scalar(Kind::Lgl) | PirType::scalar(Kind::Int) |
                              PirType::scalar(Kind::Real)))
                return PirType::scalar(Kind::Lgl);
            return PirType::val();
        }
        case Rule::Unary: {
            PirType t = arg(0).forced();
            if (t.may(Flag::Object)) return PirType::val();
            // -TRUE is an integer
            if (t.mayBe(Kind::Lgl))
                t = PirType((t.kinds() & ~uint16_t(Kind::Lgl)) | uint16_t(Kind::Int), t.flags());
            return t;
        }
        case Rule::Phi: {
            PirType t = PirType::bottom();
            for (Instruction* a : args) t = t | a->type;
            return t;
        }
        case Rule::Constant:
            return constantType(constant);
        case Rule::Cast:
        case Rule::Arg:
            return carriedType;
        case Rule::Same:
            return arg(0);
    }
    return PirType::any();
}

BB* Function::newBB() {
    blocks.emplace_back(new BB());
    BB* b = blocks.back().get();
    b->id = unsigned(blocks.size() - 1);
    b->fn = this;
    if (!entry) entry = b;
    return b;
}

void Function::clear() {
    blocks.clear();
    insns.clear();
    entry = nullptr;
}

Instruction* Function::newInsn(Opcode op) {
    insns.emplace_back(new Instruction());
    Instruction* i = insns.back().get();
    i->op = op;
    i->id = unsigned(insns.size() - 1);
    return i;
}

void Function::computePreds() {
    for (auto& b : blocks) b->preds.clear();
    for (auto& b : blocks)
        for (BB* s : b->succ) s->preds.push_back(b.get());
}

Instruction* Function::ownEnv() const {
    Instruction* env = nullptr;
    for (Instruction* i : entry->insns)
        if (i->op == Opcode::MkEnv) env = i;
    return env;
}

std::vector<BB*> Function::rpo() const {
    std::vector<BB*> post;
    if (!entry) return post;
    std::vector<char> seen(blocks.size(), 0);
    // iterative depth-first search: (block, next successor to visit)
    std::vector<std::pair<BB*, size_t>> stack{{entry, 0}};
    seen[entry->id] = 1;
    while (!stack.empty()) {
        auto& top = stack.back();
        if (top.second < top.first->succ.size()) {
            BB* s = top.first->succ[top.second++];
            if (!seen[s->id]) {
                seen[s->id] = 1;
                stack.push_back({s, 0});
            }
        } else {
            post.push_back(top.first);
            stack.pop_back();
        }
    }
    std::reverse(post.begin(), post.end());
    return post;
}

void Function::inferTypes() {
    std::vector<BB*> order = rpo();
    for (BB* b : order)
        for (Instruction* i : b->insns)
            if (i->op == Opcode::Phi) i->type = PirType::bottom();
    for (bool changed = true; changed;) {
        changed = false;
        for (BB* b : order)
            for (Instruction* i : b->insns) {
                PirType t = i->ruleType();
                if (t != i->type) {
                    i->type = t;
                    changed = true;
                }
            }
    }
}

}  // namespace pir
}  // namespace rir
