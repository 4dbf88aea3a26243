/* Deprecated: include cetune/search.h.  The search engine was struct
 * cet_ga with cet_ga_* functions until it was told apart from the GA
 * strategy; search.h still maps those names (CETUNE_NO_DEPRECATED hides
 * them), and this header goes away in the next release (CHANGELOG.md). */
#ifndef CETUNE_GA_H
#define CETUNE_GA_H

#include "cetune/search.h"

#endif
