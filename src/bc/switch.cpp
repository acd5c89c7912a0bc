// switch.cpp — switch()'s choice of an alternative (GNU R's SWITCH).
//
//   switch(x, a = 1, b = , c = 3, 4)   names a, b, c, "" -> nchar 4
//   x = "b"  -> entry 1 (its code falls through to c's)
//   x = "z"  -> entry 3 (the default)
//   x = 1    -> entry 4 + 0 (the entries for numbers follow the names',
//               one per alternative: the first)
#include "switch.h"

#include "../runtime/r_messages.h"

namespace rir {

int switchEntry(SEXP call, SEXP names, int nchar, int nnum, SEXP value) {
    if (!Rf_isVector(value) || Rf_length(value) != 1)
        Rf_errorcall(call, _("EXPR must be a length 1 vector"));
    if (Rf_isFactor(value))
        Rf_warningcall(call,
                       _("EXPR is a \"factor\", treated as integer.\n"
                         " Consider using '%s' instead."),
                       "switch(as.character( * ), ...)");
    if (TYPEOF(value) == STRSXP) {
        if (names == R_NilValue) {
            if (nnum != 1)
                Rf_errorcall(call,
                             _("numeric EXPR required for 'switch' without named alternatives"));
            Rf_warningcall(call, _("'switch' with no alternatives"));
            return nchar;
        }
        int n = LENGTH(names), which = n - 1;
        for (int k = 0; k < n - 1; k++)
            if (Rf_pmatch(STRING_ELT(value, 0), STRING_ELT(names, k), TRUE)) {
                which = k;
                break;
            }
        return which;
    }
    int which = Rf_asInteger(value);
    if (which != NA_INTEGER) which--;
    if (which < 0 || which >= nnum) which = nnum - 1;
    if (nnum == 1) Rf_warningcall(call, _("'switch' with no alternatives"));
    return nchar + which;
}

}  // namespace rir
