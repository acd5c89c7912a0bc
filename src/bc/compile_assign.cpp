// compile_assign.cpp — compiling assignments: `x <- v` / `x <<- v` to
// stvar, and complex assignments to their fast instructions (subassign,
// dollar_assign, env_subassign) or to the general getter/setter protocol.
//
//   x[i] <- v    =>  <v>; <i>; subassign [ x ...       (element store)
//   names(x)[2] <- "b"  =>  start_assign x; ldfun names; getter_call ...;
//                           setter_call `[<-`(...); setter_call `names<-`(...);
//                           end_assign x
//
// Part of the Compiler class (compiler_internal.h); the rest of it is in
// compiler.cpp.
#include <cstring>
#include <string>

#include "compiler_internal.h"

namespace rir {

namespace {

// For the assignment x[i] <- v: list(`[<-`(`*tmp*`, i, value = v),
// `[<-`(x, i, value = v)), the first marked as an assignment call. GNU R
// passes the first to its `[<-` / `[[<-` (errors name it; an unshared
// `*tmp*` is modified in place); its byte code shows the second as the
// current expression (errors from error() name it as x[i] <- v). With
// astNamed (x[i] <<- v in a closure GNU R runs in its AST interpreter) the
// second is the assignment itself, which is what that interpreter names.
SEXP setterCalls(SEXP assign, bool astNamed) {
    static SEXP tmpSym = Rf_install("*tmp*"), valueSym = Rf_install("value");
    SEXP lhs = CADR(assign);
    SEXP fsym = Rf_install((std::string(CHAR(PRINTNAME(CAR(lhs)))) + "<-").c_str());
    SEXP tail = PROTECT(Rf_cons(CADDR(assign), R_NilValue));
    SET_TAG(tail, valueSym);
    for (int k = Rf_length(lhs) - 1; k >= 2; k--) {
        UNPROTECT(1);
        tail = PROTECT(Rf_cons(CAR(Rf_nthcdr(lhs, k)), tail));
    }
    SEXP r = PROTECT(Rf_allocVector(VECSXP, 2));
    SEXP tmpCall = Rf_lcons(fsym, Rf_cons(tmpSym, tail));
    SET_VECTOR_ELT(r, 0, tmpCall);
    SETLEVELS(tmpCall, LEVELS(tmpCall) | kAssignmentCall);
    SET_VECTOR_ELT(r, 1, astNamed ? assign : Rf_lcons(fsym, Rf_cons(CADR(lhs), tail)));
    UNPROTECT(2);
    return r;
}

}  // namespace

// GNU R's AST interpreter evaluates a complex assignment's target inside
// a context whose call is the assignment (applydefine), after the value:
// errors and warnings of forcing the target's promise name the assignment.
// Its byte code has no such context; code in its AST flavor gets one.
void Compiler::forceTargetAst(SEXP x, SEXP e, bool super) {
    if (sh_.astFlavor) emit(Op::force_target_ast, {sym(x), constant(e), super ? 1 : 0});
}

void Compiler::assign(SEXP e, bool super, bool stmt) {
    SEXP lhs = CADR(e), rhs = CADDR(e);
    if (TYPEOF(lhs) == STRSXP && XLENGTH(lhs) == 1) lhs = Rf_installTrChar(STRING_ELT(lhs, 0));
    if (TYPEOF(lhs) == SYMSXP && lhs != R_MissingArg && lhs != R_DotsSymbol) {
        // In-place reuse of the old value is only safe for a statement
        // whose evaluation leaves no other user value on the stack.
        if (!super && stmt && code_->kind != CodeKind::Promise && depth_ == loopSlots_)
            assignTarget_ = cache(lhs) + 1;
        expr(rhs);
        assignTarget_ = 0;
        emit(Op::dup);
        if (super)
            emit(Op::stvar_super, {sym(lhs)});
        else
            emit(Op::stvar, {sym(lhs), cache(lhs)});
        emit(Op::invisible);
        return;
    }
    // X$name[i] <- v / X$name[[i]] <- v / X$name$field <- v (X an
    // environment or a list).
    bool outerDollar =
        TYPEOF(lhs) == LANGSXP && CAR(lhs) == Rf_install("$") && Rf_length(lhs) == 3 &&
        (TYPEOF(CADDR(lhs)) == SYMSXP ||
         (TYPEOF(CADDR(lhs)) == STRSXP && XLENGTH(CADDR(lhs)) == 1)) &&
        asciiName(TYPEOF(CADDR(lhs)) == SYMSXP ? PRINTNAME(CADDR(lhs)) : STRING_ELT(CADDR(lhs), 0));
    if (!super && TYPEOF(lhs) == LANGSXP && TYPEOF(CAR(lhs)) == SYMSXP && Rf_length(lhs) == 3 &&
        (outerDollar || CAR(lhs) == Rf_install("[") || CAR(lhs) == Rf_install("[[")) &&
        isBase(CAR(lhs)) && isBaseSetter(CAR(lhs)) && !hasNames(CDR(lhs)) &&
        (outerDollar || simpleIndex(CADDR(lhs))) && CADDR(lhs) != R_MissingArg &&
        CADDR(lhs) != R_DotsSymbol) {
        SEXP inner = CADR(lhs);
        if (TYPEOF(inner) == LANGSXP && CAR(inner) == Rf_install("$") && Rf_length(inner) == 3 &&
            isBase(CAR(inner)) && isBaseSetter(CAR(inner)) && !hasNames(CDR(inner))) {
            SEXP x = CADR(inner), name = CADDR(inner);
            if (TYPEOF(x) == SYMSXP && x != R_DotsSymbol && !DDVAL(x) && x != R_MissingArg &&
                (TYPEOF(name) == SYMSXP || (TYPEOF(name) == STRSXP && XLENGTH(name) == 1))) {
                SEXP nm = TYPEOF(name) == SYMSXP ? PRINTNAME(name) : STRING_ELT(name, 0);
                if (asciiName(nm)) {
                    const char* n = CHAR(PRINTNAME(CAR(lhs)));
                    expr(rhs);
                    forceTargetAst(x, e, false);
                    keepValue(stmt);
                    if (outerDollar) {
                        SEXP field = CADDR(lhs);
                        SEXP str = PROTECT(
                            TYPEOF(field) == SYMSXP ? Rf_ScalarString(PRINTNAME(field)) : field);
                        emit(Op::push, {constant(str)});
                        UNPROTECT(1);
                    } else {
                        index(CADDR(lhs));
                    }
                    emit(Op::env_subassign,
                         {outerDollar   ? 3
                          : n[1] == '[' ? 2
                                        : 1,
                          sym(x), constant(Rf_installTrChar(nm)), constant(e), fb()});
                    assigned(stmt);
                    return;
                }
            }
        }
    }
    // x$name <- v on a local symbol.
    if (!super && TYPEOF(lhs) == LANGSXP && CAR(lhs) == Rf_install("$") && Rf_length(lhs) == 3 &&
        isBase(CAR(lhs)) && isBaseSetter(CAR(lhs)) && !hasNames(CDR(lhs))) {
        SEXP x = CADR(lhs), name = CADDR(lhs);
        if (TYPEOF(x) == SYMSXP && x != R_DotsSymbol && !DDVAL(x) && x != R_MissingArg &&
            (TYPEOF(name) == SYMSXP || (TYPEOF(name) == STRSXP && XLENGTH(name) == 1))) {
            SEXP nm = TYPEOF(name) == SYMSXP ? PRINTNAME(name) : STRING_ELT(name, 0);
            if (!asciiName(nm)) {
                if (!complexAssign(e, super, stmt)) evalAst(e, AstReason::ComplexAssign);
                return;
            }
            // the fast path; when it declines, the value is still on the
            // stack and the general protocol takes over
            expr(rhs);
            forceTargetAst(x, e, false);
            keepValue(stmt);
            int lSlow = newLabel(), lEnd = newLabel();
            int slowDepth = depth_;  // v still on the stack when the fast path declines
            emitJump(Op::dollar_assign, lSlow,
                     {sym(x), constant(nm), constant(Rf_installTrChar(nm)), constant(e), fb()},
                     slowDepth);
            assigned(stmt);
            emitJump(Op::br, lEnd);
            depth_ = slowDepth;
            bind(lSlow);
            complexAssign(e, super, true, true);
            if (!stmt) {
                // the kept copy is the assignment's value
                emit(Op::pop);
                emit(Op::invisible);
            }
            bind(lEnd);
            return;
        }
    }
    // x[i] <- v, x[[i]] <- v, m[i, j] <- v (and <<-) on a symbol, simple indices.
    int len = Rf_length(lhs);
    if (TYPEOF(lhs) == LANGSXP && TYPEOF(CAR(lhs)) == SYMSXP && (len == 3 || len == 4)) {
        const char* n = CHAR(PRINTNAME(CAR(lhs)));
        SEXP x = CADR(lhs);
        bool ok = (!strcmp(n, "[") || !strcmp(n, "[[")) && isBase(CAR(lhs)) &&
                  isBaseSetter(CAR(lhs)) && TYPEOF(x) == SYMSXP && x != R_DotsSymbol && !DDVAL(x) &&
                  x != R_MissingArg && !hasNames(CDR(lhs));
        bool simple = true;
        for (SEXP a = CDDR(lhs); ok && a != R_NilValue; a = CDR(a)) {
            ok = CAR(a) != R_MissingArg && CAR(a) != R_DotsSymbol;
            simple = simple && simpleIndex(CAR(a));
        }
        // Indices whose evaluation might touch x: x is looked up first,
        // as GNU R does (start_assign), and its value kept on the stack.
        bool pushX = ok && !simple;
        if (ok && (simple || !super)) {
            // the element store copies a scalar, so an arithmetic rhs may
            // use a scratch result (refcounts guard any other use)
            binopOperand_ = true;
            expr(rhs);
            binopOperand_ = false;
            forceTargetAst(x, e, super);
            keepValue(stmt);
            if (pushX) emit(Op::start_assign, {sym(x), constant(e)});
            // (an arithmetic index may use a scratch result: the store
            // only reads it)
            for (SEXP a = CDDR(lhs); a != R_NilValue; a = CDR(a)) index(CAR(a));
            emit(Op::subassign,
                 {(n[1] == '[' ? 2 : 1) | (super ? 4 : 0) | (pushX ? 8 : 0), sym(x), cache(x),
                  constant(e), len - 2, constant(setterCalls(e, super && sh_.astFlavor)), fb()});
            assigned(stmt);
            return;
        }
    }
    if (!complexAssign(e, super, stmt)) evalAst(e, AstReason::ComplexAssign);
}

// Any complex assignment f(g(x, b), a) <- v (or <<-) with the protocol
// of GNU R's byte code: v is evaluated, then x's value (start_assign:
// bound locally first, as GNU R's EnsureLocal), the getters from the
// inside out, then the setters from the outside in, each called with the
// target as `*tmp*` and the new value as `value`, and x is bound to the
// result. The value of the assignment is v, invisible.
//
//   names(x)[2] <- "b"   =>   push "b"; start_assign x
//                             ldfun names; getter_call names(*tmp*)
//                             pick 2; ldfun `[<-`;
//                             setter_call `[<-`(*tmp*, 2, value = "b")
//                             ldfun `names<-`;
//                             setter_call `names<-`(*tmp*, value = *vtmp*)
//                             end_assign x
// `rhsPushed`: the value is on the stack already.
bool Compiler::complexAssign(SEXP e, bool super, bool stmt, bool rhsPushed) {
    static SEXP tmpSym = Rf_install("*tmp*"), vtmpSym = Rf_install("*vtmp*"),
                valueSym = Rf_install("value");
    SEXP lhs = CADR(e), rhs = CADDR(e);
    std::vector<SEXP> levels;  // outermost first
    SEXP t = lhs;
    while (TYPEOF(t) == LANGSXP) {
        if (TYPEOF(CAR(t)) != SYMSXP || CDR(t) == R_NilValue || TAG(CDR(t)) != R_NilValue)
            return false;
        levels.push_back(t);
        t = CADR(t);
    }
    if (levels.empty()) return false;
    if (TYPEOF(t) == STRSXP && XLENGTH(t) == 1) t = Rf_installTrChar(STRING_ELT(t, 0));
    if (TYPEOF(t) != SYMSXP || t == R_MissingArg || t == R_DotsSymbol || DDVAL(t)) return false;
    int n = int(levels.size());
    if (!rhsPushed) {
        expr(rhs);
        forceTargetAst(t, e, super);
    }
    emit(super ? Op::start_assign_super : Op::start_assign, {sym(t), constant(e)});
    for (int j = n - 1; j >= 1; j--) {
        SEXP lv = levels[j];
        emit(Op::ldfun, {sym(CAR(lv)), constant(lv)});
        CallSite cs;
        cs.ast = constant(Rf_lcons(CAR(lv), Rf_cons(tmpSym, CDDR(lv))));
        cs.expr = constant(lv);
        cs.args.push_back({ArgKind::Stack, 0, R_NilValue});
        for (SEXP a = CDDR(lv); a != R_NilValue; a = CDR(a))
            cs.args.push_back(callArg(CAR(a), TAG(a)));
        code_->calls.push_back(cs);
        emit(Op::getter_call, {int32_t(code_->calls.size() - 1), fb()});
    }
    for (int j = 0; j < n; j++) {
        SEXP lv = levels[j];
        SEXP vexpr = j == 0 ? rhs : vtmpSym;
        if (j == 0) emit(Op::pick, {n});
        SEXP fsym = Rf_install((std::string(CHAR(PRINTNAME(CAR(lv)))) + "<-").c_str());
        emit(Op::ldfun, {sym(fsym), constant(e)});
        // `f<-`(`*tmp*`, args, value = vexpr), marked as an assignment
        // call, and `f<-`(target, args, value = vexpr) as the current
        // expression (conditions name the assignment as written)
        SEXP tail = PROTECT(Rf_cons(vexpr, R_NilValue));
        SET_TAG(tail, valueSym);
        std::vector<SEXP> rest;
        for (SEXP a = CDDR(lv); a != R_NilValue; a = CDR(a)) rest.push_back(a);
        for (size_t k = rest.size(); k-- > 0;) {
            tail = Rf_cons(CAR(rest[k]), tail);
            SET_TAG(tail, TAG(rest[k]));
            UNPROTECT(1);
            PROTECT(tail);
        }
        SEXP setCall = PROTECT(Rf_lcons(fsym, Rf_cons(tmpSym, tail)));
        SETLEVELS(setCall, LEVELS(setCall) | kAssignmentCall);
        // (GNU R's AST interpreter names the whole assignment: its
        // superassignment differs from byte code's inflated setter call)
        SEXP shown = PROTECT(super && sh_.astFlavor ? e : Rf_lcons(fsym, Rf_cons(CADR(lv), tail)));
        CallSite cs;
        cs.ast = constant(setCall);
        cs.expr = constant(shown);
        UNPROTECT(3);
        cs.args.push_back({ArgKind::Stack, 0, R_NilValue});
        for (SEXP a : rest) cs.args.push_back(callArg(CAR(a), TAG(a)));
        cs.args.push_back({ArgKind::Stack, 1, valueSym});
        code_->calls.push_back(cs);
        emit(Op::setter_call, {int32_t(code_->calls.size() - 1), constant(vexpr),
                               (3 + (n - 1 - j)) | (super ? kSetterSuper : 0), fb()});
    }
    emit(Op::end_assign, {sym(t), cache(t), super ? 1 : 0});
    if (stmt) {
        emit(Op::pop);
        emit(Op::push_null);
    } else {
        emit(Op::invisible);
    }
    return true;
}
}  // namespace rir
