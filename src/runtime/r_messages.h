// r_messages.h — GNU R's own message catalogue: rir raises GNU R's errors and
// warnings with GNU R's text, translated as GNU R translates it.
//
//   Rf_errorcall(call, _("the condition has length > 1"));
//   // in a French session: "la condition est de longueur > 1"
#pragma once

#include <libintl.h>

#ifndef _
#define _(s) dgettext("R", s)
#endif
