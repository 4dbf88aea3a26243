/* What every public header shares (after libgit2's git2/common.h): C
 * linkage for C++ programs, and which symbols libcetune exports.
 *
 * libcetune is built with -fvisibility=hidden: a function or variable is
 * exported from libcetune.so only when an installed header declares it
 * between CET_BEGIN_DECL and CET_END_DECL.  Functions shared between the
 * library's folders are declared in headers under src/ and stay hidden
 * (tests/source/exports.sh checks that nothing else is exported). */
#ifndef CETUNE_COMMON_H
#define CETUNE_COMMON_H

#ifdef __cplusplus
#define CET_BEGIN_DECL_C extern "C" {
#define CET_END_DECL_C }
#else
#define CET_BEGIN_DECL_C
#define CET_END_DECL_C
#endif

/* Opens and closes the declarations of a public header. */
#define CET_BEGIN_DECL _Pragma("GCC visibility push(default)") CET_BEGIN_DECL_C
#define CET_END_DECL CET_END_DECL_C _Pragma("GCC visibility pop")

/* One exported declaration outside such a block. */
#define CET_EXTERN(type) extern __attribute__((visibility("default"))) type

#endif
